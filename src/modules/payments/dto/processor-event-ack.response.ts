import { ApiProperty } from '@nestjs/swagger';

export const ACK_OUTCOMES = ['processed', 'duplicate', 'ignored', 'unmatched', 'rejected'] as const;
export type AckOutcome = (typeof ACK_OUTCOMES)[number];

/** The answer to the processor (shown in its dashboard): what the event did. */
export class ProcessorEventAck {
  @ApiProperty({ example: true }) received: boolean;
  @ApiProperty({
    example: 'evt_3PqR8sLkdIwHu7ix1a2b3c4d',
    nullable: true,
    type: String,
    description: "The processor's event id (null for a signed body that is not an event).",
  })
  event_id: string | null;
  @ApiProperty({
    enum: ACK_OUTCOMES,
    example: 'processed',
    description:
      '`processed`: applied (a donation made, a refund or dispute recorded, a failed charge raised); `duplicate`: this event id was received before, nothing changed; ' +
      '`ignored`: a type or an object that is not a gift (no metadata.fund_id); `unmatched`: a refund, dispute or failed charge of a payment or recurring gift this church does not have; ' +
      '`rejected`: a gift that cannot be recorded as sent (unknown fund, currency outside the table), see detail.',
  })
  outcome: AckOutcome;
  @ApiProperty({
    example: 'don_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    nullable: true,
    type: String,
    description: 'The donation or recurring gift it touched, or why it did nothing.',
  })
  detail: string | null;
}
