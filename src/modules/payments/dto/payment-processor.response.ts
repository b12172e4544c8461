import { ApiProperty } from '@nestjs/swagger';
import { PROVIDERS } from '../payment-webhooks.path';

/** The church's payment processor connection, without its secrets (they are never returned). */
export class PaymentProcessorResponse {
  @ApiProperty({
    enum: PROVIDERS,
    nullable: true,
    example: 'stripe',
    description: 'null while no processor is connected.',
  })
  provider: string | null;
  @ApiProperty({
    example: '2026-01-05T15:04:05.000Z',
    nullable: true,
    type: String,
    format: 'date-time',
    description: 'When the current key was connected; null while none is.',
  })
  connected_at: string | null;
  @ApiProperty({
    example: 'NoP4',
    nullable: true,
    type: String,
    description: 'The last four characters of the connected API key.',
  })
  account_last4: string | null;
  @ApiProperty({
    example: 'https://api.example.org/v1/webhooks/payments/grace-church',
    nullable: true,
    type: String,
    description: 'Where the processor sends this church’s events (registered at the processor on connect).',
  })
  webhook_url: string | null;
}
