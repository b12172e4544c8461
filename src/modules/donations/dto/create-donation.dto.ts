import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString } from 'class-validator';
import { CURRENCY_CODES, MAX_AMOUNT } from '../../../common/money/currencies';
import { IsAmount, IsCurrency } from '../../../common/money/money.validators';
import { Format, MaxLen, OneOf } from '../../../common/validation/rules';
import { DONATION_METHODS } from '../donation.entity';

/** An ISO 8601 timestamp with its time zone (Z or an offset): a gift's time is never ambiguous. */
export const TIMESTAMP_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** The donation write body (POST /v1/donations). */
export class CreateDonationDto {
  @ApiProperty({
    example: 2500,
    type: 'integer',
    minimum: 1,
    maximum: MAX_AMOUNT,
    description:
      "An integer of the currency's minor unit (2500 = 25.00 USD; CLP and PYG have none: 2500 = 2,500 CLP). A float or a string is 422.",
  })
  @IsDefined()
  @IsAmount()
  amount: number;

  @ApiProperty({
    enum: CURRENCY_CODES,
    example: 'USD',
    description: 'ISO 4217, upper case, from the currency table (see the API description).',
  })
  @IsDefined()
  @IsCurrency()
  currency: string;

  @ApiProperty({ example: 'fnd_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', description: 'An active fund of the church.' })
  @IsDefined()
  @IsString()
  @MaxLen(64)
  fund_id: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    description:
      'The member who gave; null or absent for an anonymous gift. A member merged into another names the survivor (the answer’s `donor` shows it).',
  })
  @IsOptional()
  @IsString()
  @MaxLen(64)
  donor_id?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'north', description: 'Campus key or cmp_ id.' })
  @IsOptional()
  @IsString()
  @MaxLen(64)
  campus?: string | null;

  @ApiPropertyOptional({ enum: DONATION_METHODS, default: 'other', example: 'check' })
  @IsOptional()
  @OneOf(DONATION_METHODS)
  method?: (typeof DONATION_METHODS)[number];

  @ApiPropertyOptional({ type: String, nullable: true, example: '1042', maxLength: 50 })
  @IsOptional()
  @IsString()
  @MaxLen(50)
  check_number?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'date-time',
    example: '2026-03-01T10:30:00-06:00',
    description: 'When the gift was received (ISO 8601 with Z or an offset; absent or null: now). Not in the future.',
  })
  @IsOptional()
  @IsString()
  @Format(TIMESTAMP_WITH_ZONE, 'ISO 8601 with a time zone')
  received_at?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'In memory of Rosa Ortiz.', maxLength: 2000 })
  @IsOptional()
  @IsString()
  @MaxLen(2000)
  note?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'bat_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    description:
      'An open batch of the same currency: the gift is `pending` and raises no event until the batch is committed. A committed batch is 409.',
  })
  @IsOptional()
  @IsString()
  @MaxLen(64)
  batch_id?: string | null;
}
