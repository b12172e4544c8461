import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsOptional, IsString } from 'class-validator';
import { MaxLen, MinLen } from '../../../common/validation/rules';
import { FUND_NAME_MAX } from '../fund.entity';

/** The fund write body (POST). PATCH takes any subset (UpdateFundDto). */
export class CreateFundDto {
  @ApiProperty({
    example: 'Building Fund',
    maxLength: FUND_NAME_MAX,
    description: 'Unique in the church, ignoring case (409 `conflict`).',
  })
  @IsDefined()
  @IsString()
  @MinLen(1)
  @MaxLen(FUND_NAME_MAX)
  name: string;

  @ApiPropertyOptional({ type: String, example: 'The new sanctuary roof.', nullable: true, maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLen(1000)
  description?: string | null;

  @ApiPropertyOptional({
    type: String,
    example: '4010',
    nullable: true,
    maxLength: 50,
    description: "The church's chart-of-accounts code.",
  })
  @IsOptional()
  @IsString()
  @MaxLen(50)
  ledger_code?: string | null;

  @ApiPropertyOptional({
    type: Boolean,
    default: true,
    example: true,
    description: '`false` archives the fund: it takes no new gifts (422) and keeps its history.',
  })
  @IsOptional()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({
    type: Boolean,
    default: true,
    example: true,
    description: 'Gifts to it appear on year-end statements.',
  })
  @IsOptional()
  @IsBoolean()
  tax_deductible?: boolean;
}
