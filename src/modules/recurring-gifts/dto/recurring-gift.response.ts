import { ApiProperty } from '@nestjs/swagger';
import { CURRENCY_CODES } from '../../../common/money/currencies';
import { RECURRING_STATUSES } from '../recurring-gift.entity';
import { INTERVALS } from '../schedule';

export class RecurringGiftResponse {
  @ApiProperty({ example: 'rcg_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', description: 'The donor (mem_ id).' })
  donor_id: string;
  @ApiProperty({ type: 'integer', example: 5000, description: 'Each charge, in the minor unit of the currency.' })
  amount: number;
  @ApiProperty({ enum: CURRENCY_CODES, example: 'USD' }) currency: string;
  @ApiProperty({ example: 'fnd_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', description: 'The fund (fnd_ id).' }) fund_id: string;
  @ApiProperty({ enum: INTERVALS, example: 'month' }) interval: string;
  @ApiProperty({ type: String, format: 'date', example: '2026-02-01' }) start_on: string;
  @ApiProperty({ type: String, format: 'date', nullable: true, example: '2026-12-31' }) end_on: string | null;
  @ApiProperty({ enum: RECURRING_STATUSES, example: 'active' }) status: string;
  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    example: '2026-03-01',
    description:
      'The next charge date (UTC calendar), computed when read: the first start_on + k × interval on or after today. Null while paused or canceled, and once the next date would fall after end_on.',
  })
  next_charge_on: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: null,
    description: 'When it was canceled; null until then.',
  })
  canceled_at: string | null;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) updated_at: string;
}

export class RecurringChargeFailure {
  @ApiProperty({ example: 'card_declined', description: "The processor's reason." }) reason: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'in_1QxY2z3A4b5C6d7E',
    description: "The processor's invoice id.",
  })
  invoice_id: string | null;
  @ApiProperty({
    example: '2026-03-01T09:12:44.000Z',
    format: 'date-time',
    description: 'When the failure was recorded.',
  })
  at: string;
}

/** The `data.object` of `recurring.charge_failed`: the gift as GET returns it, plus the failure. */
export class RecurringChargeFailedEvent extends RecurringGiftResponse {
  @ApiProperty({ type: RecurringChargeFailure }) failure: RecurringChargeFailure;
}
