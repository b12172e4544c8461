import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString } from 'class-validator';
import { CURRENCY_CODES, MAX_AMOUNT } from '../../../common/money/currencies';
import { IsAmount, IsCurrency } from '../../../common/money/money.validators';
import { MaxLen } from '../../../common/validation/rules';
import { IsCalendarDate } from '../../prospects/dto/follow-up-date.validator';

/** The pledge write body (POST). PATCH takes any subset but the donor (UpdatePledgeDto). */
export class CreatePledgeDto {
  @ApiProperty({
    example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    description:
      'The donor who pledges: a member (mem_ id). A member merged into another (POST /v1/members/{id}/merge) names the survivor (`donor_id` shows it).',
  })
  @IsDefined()
  @IsString()
  @MaxLen(64)
  donor_id: string;

  @ApiProperty({
    example: 'fnd_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    description: 'The fund (fnd_ id); an archived fund (`active: false`) takes no new pledges.',
  })
  @IsDefined()
  @IsString()
  @MaxLen(64)
  fund_id: string;

  @ApiProperty({
    type: 'integer',
    example: 120000,
    minimum: 1,
    maximum: MAX_AMOUNT,
    description: 'The amount promised over the window, in the minor unit of the currency (120000 = 1,200.00 USD).',
  })
  @IsDefined()
  @IsAmount()
  amount: number;

  @ApiProperty({
    enum: CURRENCY_CODES,
    example: 'USD',
    description: 'ISO 4217, upper case. Only donations in this currency count towards the pledge.',
  })
  @IsDefined()
  @IsCurrency()
  currency: string;

  @ApiProperty({
    type: String,
    format: 'date',
    example: '2026-01-01',
    description: 'First day of the window (YYYY-MM-DD, UTC).',
  })
  @IsDefined()
  @IsString()
  @IsCalendarDate()
  starts_on: string;

  @ApiProperty({
    type: String,
    format: 'date',
    example: '2026-12-31',
    description: 'Last day of the window (YYYY-MM-DD, UTC, included), on or after starts_on.',
  })
  @IsDefined()
  @IsString()
  @IsCalendarDate()
  ends_on: string;
}
