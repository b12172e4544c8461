import { ApiProperty } from '@nestjs/swagger';
import { CURRENCY_CODES } from '../../../common/money/currencies';

export const GIVEN_DESCRIPTION =
  "The donor's donations to the pledge's fund in the pledge's currency received within the window (starts_on 00:00 UTC to the end of ends_on, UTC), " +
  'net of refunds: each succeeded, partially_refunded or refunded donation counts `amount - refunded_amount`; pending (an uncommitted batch), disputed and failed ones count 0. ' +
  'Computed when read, in minor units.';

export class PledgeResponse {
  @ApiProperty({ example: 'plg_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', description: 'The donor (mem_ id).' })
  donor_id: string;
  @ApiProperty({ example: 'fnd_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', description: 'The fund (fnd_ id).' }) fund_id: string;
  @ApiProperty({
    type: 'integer',
    example: 120000,
    description: 'The amount promised, in the minor unit of the currency.',
  })
  amount: number;
  @ApiProperty({ enum: CURRENCY_CODES, example: 'USD' }) currency: string;
  @ApiProperty({ type: String, format: 'date', example: '2026-01-01' }) starts_on: string;
  @ApiProperty({ type: String, format: 'date', example: '2026-12-31' }) ends_on: string;
  @ApiProperty({ type: 'integer', example: 45000, description: GIVEN_DESCRIPTION }) given: number;
  @ApiProperty({
    type: 'integer',
    example: 75000,
    minimum: 0,
    description: '`amount - given`, never below 0 (a pledge given beyond its amount has 0 remaining).',
  })
  remaining: number;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) updated_at: string;
}
