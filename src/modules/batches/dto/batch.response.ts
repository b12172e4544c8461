import { ApiProperty } from '@nestjs/swagger';
import { CURRENCY_CODES } from '../../../common/money/currencies';
import { BATCH_STATUSES } from '../batch.entity';

export class BatchResponse {
  @ApiProperty({ example: 'bat_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'Sunday 1st service, March 1' }) description: string;
  @ApiProperty({
    example: 152000,
    nullable: true,
    type: 'integer',
    description: 'Minor units the gifts must add up to for a commit; null: no check.',
  })
  expected_total: number | null;
  @ApiProperty({ enum: CURRENCY_CODES, example: 'USD' }) currency: string;
  @ApiProperty({
    enum: BATCH_STATUSES,
    example: 'open',
    description: '`open` while gifts are entered (they are `pending`), `committed` after the commit.',
  })
  status: string;
  @ApiProperty({ example: 12, type: 'integer', description: 'Gifts in the batch.' }) count: number;
  @ApiProperty({
    example: 152000,
    type: 'integer',
    description: 'What the gifts add up to, in minor units of `currency` (refunds not deducted).',
  })
  total: number;
  @ApiProperty({ example: null, nullable: true, type: String, format: 'date-time' }) committed_at: string | null;
  @ApiProperty({ example: '2026-03-01T15:04:05.000Z', format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '2026-03-01T15:04:05.000Z', format: 'date-time' }) updated_at: string;
}
