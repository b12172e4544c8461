import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsDefined, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const MIN_YEAR = 1900;
export const MAX_DONORS = 1000;

/** POST /v1/statements: the year, and optionally the donors (default: every donor of the year). */
export class CreateStatementRunDto {
  @ApiProperty({
    example: 2025,
    minimum: MIN_YEAR,
    description: 'The calendar year (in the time zone of the statement settings); not a future year.',
  })
  @IsDefined()
  @IsInt({ context: { issue: 'invalid_type', params: { type: 'integer' } } })
  @Min(MIN_YEAR, { context: { issue: 'out_of_range', params: { min: MIN_YEAR, max: 9999 } } })
  @Max(9999, { context: { issue: 'out_of_range', params: { min: MIN_YEAR, max: 9999 } } })
  year: number;

  @ApiPropertyOptional({
    type: [String],
    example: ['mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f'],
    maxItems: MAX_DONORS,
    description:
      'Only these donors (mem_ ids). A donor who belongs to a household gets the household’s joint statement (with the gifts of its other members). ' +
      'A donor without tax-deductible gifts that year gets none. Absent: every donor with such gifts.' +
      ' A member merged into another (POST /v1/members/{id}/merge) names the survivor, who has its gifts.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_DONORS)
  @IsString({ each: true })
  @MaxLength(64, { each: true, context: { issue: 'too_long', params: { max: 64 } } })
  donor_ids?: string[];
}
