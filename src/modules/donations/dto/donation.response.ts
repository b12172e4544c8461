import { ApiProperty } from '@nestjs/swagger';
import { CURRENCY_CODES } from '../../../common/money/currencies';
import { FundRef } from '../../funds/dto/fund.response';
import { DONATION_METHODS, DONATION_STATUSES } from '../donation.entity';

/** How the donor appears on a donation: exactly the specification's `{id, first_name}`. */
export class DonorRef {
  @ApiProperty({ example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'Lucía' }) first_name: string;
}

/** How the campus appears on a donation: exactly the specification's `{id, name}`. */
export class DonationCampusRef {
  @ApiProperty({ example: 'cmp_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'North Campus' }) name: string;
}

export class DisputeInfo {
  @ApiProperty({ example: 'fraudulent', nullable: true, type: String, description: "The processor's reason." }) reason:
    string | null;
  @ApiProperty({
    example: 'needs_response',
    nullable: true,
    type: String,
    description: "The processor's dispute status.",
  })
  status: string | null;
  @ApiProperty({ example: 2500, nullable: true, type: 'integer', description: 'Disputed minor units.' }) amount:
    number | null;
}

/** The donation, as GET /v1/donations/{id} returns it and as `donation.created` carries it. */
export class DonationResponse {
  @ApiProperty({ example: 'don_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 2500, type: 'integer', description: 'Minor units of the currency (cents): never a float.' })
  amount: number;
  @ApiProperty({ enum: CURRENCY_CODES, example: 'USD' }) currency: string;
  @ApiProperty({ type: FundRef }) fund: FundRef;
  @ApiProperty({ type: DonorRef, nullable: true, description: 'null for an anonymous gift.' }) donor: DonorRef | null;
  @ApiProperty({ type: DonationCampusRef, nullable: true }) campus: DonationCampusRef | null;
  @ApiProperty({ enum: DONATION_METHODS, example: 'card' }) method: string;
  @ApiProperty({
    enum: DONATION_STATUSES,
    example: 'succeeded',
    description:
      '`pending` while its batch is open; `partially_refunded` / `refunded` after refunds; `disputed` when the processor reports a dispute.',
  })
  status: string;
  @ApiProperty({ example: '2026-03-01T16:30:00.000Z', format: 'date-time' }) received_at: string;
  @ApiProperty({ example: null, nullable: true, type: String }) check_number: string | null;
  @ApiProperty({ example: 'In memory of Rosa Ortiz.', nullable: true, type: String }) note: string | null;
  @ApiProperty({ example: null, nullable: true, type: String, description: 'The batch (bat_) it was entered in.' })
  batch_id: string | null;
  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    description: 'The recurring gift (rcg_) a processor charge came from.',
  })
  recurring_gift_id: string | null;
  @ApiProperty({
    example: 'pi_3PqR8sLkdIwHu7ix0aBcDeFg',
    nullable: true,
    type: String,
    description: "The processor's payment id, for a gift made through it.",
  })
  processor_id: string | null;
  @ApiProperty({
    example: 0,
    type: 'integer',
    description: 'Minor units refunded so far; net given is amount - refunded_amount while not disputed.',
  })
  refunded_amount: number;
  @ApiProperty({
    type: DisputeInfo,
    nullable: true,
    description: 'What the processor said of a dispute; null without one.',
  })
  dispute: DisputeInfo | null;
  @ApiProperty({ example: '2026-03-01T16:30:02.000Z', format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '2026-03-01T16:30:02.000Z', format: 'date-time' }) updated_at: string;
}

export class RefundInfo {
  @ApiProperty({ example: 1000, type: 'integer', description: 'Minor units of this refund.' }) amount: number;
  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    description: "The processor's refund id (re_…) when the processor made it.",
  })
  processor_refund_id: string | null;
  @ApiProperty({ example: '2026-03-02T09:00:00.000Z', format: 'date-time' }) created_at: string;
}

/** The `data.object` of `donation.refunded`: the donation after the refund, and the refund. */
export class DonationRefundedEvent extends DonationResponse {
  @ApiProperty({ type: RefundInfo }) refund: RefundInfo;
}
