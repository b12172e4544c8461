import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString } from 'class-validator';
import { CURRENCY_CODES, MAX_AMOUNT } from '../../../common/money/currencies';
import { IsAmount, IsCurrency } from '../../../common/money/money.validators';
import { MaxLen, OneOf } from '../../../common/validation/rules';
import { IsCalendarDate } from '../../prospects/dto/follow-up-date.validator';
import { INTERVALS, type Interval } from '../schedule';

/** The recurring gift write body (POST). */
export class CreateRecurringGiftDto {
  @ApiProperty({
    example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    description:
      'The donor: a member (mem_ id). A member merged into another (POST /v1/members/{id}/merge) names the survivor (`donor_id` shows it).',
  })
  @IsDefined()
  @IsString()
  @MaxLen(64)
  donor_id: string;

  @ApiProperty({
    type: 'integer',
    example: 5000,
    minimum: 1,
    maximum: MAX_AMOUNT,
    description: 'Each charge, in the minor unit of the currency (5000 = 50.00 USD; 5000 CLP = 5000 pesos).',
  })
  @IsDefined()
  @IsAmount()
  amount: number;

  @ApiProperty({ enum: CURRENCY_CODES, example: 'USD', description: 'ISO 4217, upper case.' })
  @IsDefined()
  @IsCurrency()
  currency: string;

  @ApiProperty({
    example: 'fnd_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    description: 'The fund (fnd_ id); an archived fund (`active: false`) takes no new gifts.',
  })
  @IsDefined()
  @IsString()
  @MaxLen(64)
  fund_id: string;

  @ApiProperty({ enum: INTERVALS, example: 'month', description: 'How often it is charged.' })
  @IsDefined()
  @OneOf(INTERVALS)
  interval: Interval;

  @ApiProperty({
    type: String,
    format: 'date',
    example: '2026-02-01',
    description: 'First charge date (YYYY-MM-DD); monthly cadences keep its day of the month.',
  })
  @IsDefined()
  @IsString()
  @IsCalendarDate()
  start_on: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date',
    nullable: true,
    example: '2026-12-31',
    description: 'Last day a charge may fall on (YYYY-MM-DD), on or after start_on; null: until canceled.',
  })
  @IsOptional()
  @IsString()
  @IsCalendarDate()
  end_on?: string | null;
}
