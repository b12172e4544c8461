import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { CURRENCY_CODES } from '../../../common/money/currencies';
import { IsCurrency } from '../../../common/money/money.validators';
import { MaxLen, MinLen } from '../../../common/validation/rules';

/** The largest expected total: 100,000 gifts of the largest amount. */
export const MAX_EXPECTED_TOTAL = 10_000_000_000_000;

const range = { context: { issue: 'out_of_range', params: { min: 0, max: MAX_EXPECTED_TOTAL } } };

export class CreateBatchDto {
  @ApiProperty({ example: 'Sunday 1st service, March 1', maxLength: 200 })
  @IsDefined()
  @IsString()
  @MinLen(1)
  @MaxLen(200)
  description: string;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 0,
    maximum: MAX_EXPECTED_TOTAL,
    example: 152000,
    description:
      'What the counted gifts add up to, in minor units of `currency`: a commit whose gifts add up to anything else is 422 `batch_total_mismatch`. Null: no check.',
  })
  @IsOptional()
  @IsInt({ context: { issue: 'invalid_type', params: { type: 'integer' } } })
  @Min(0, range)
  @Max(MAX_EXPECTED_TOTAL, range)
  expected_total?: number | null;

  @ApiProperty({
    enum: CURRENCY_CODES,
    example: 'USD',
    description: 'Every gift of the batch is in this currency (another is 422 `currency_mismatch` on the gift).',
  })
  @IsDefined()
  @IsCurrency()
  currency: string;
}
