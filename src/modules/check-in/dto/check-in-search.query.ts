import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString } from 'class-validator';
import { Format, MaxLen, MinLen } from '../../../common/validation/rules';

/** GET /v1/check-in/search: one of phone_last4 or name. */
export class CheckInSearchQuery {
  @ApiProperty({
    example: 'evt_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    description: 'The event checked in to (for `checked_in`).',
  })
  @IsDefined()
  @IsString()
  @MaxLen(64)
  event_id: string;

  @ApiPropertyOptional({
    example: '5678',
    pattern: '^[0-9]{4}$',
    description: 'The last four digits of a member’s phone.',
  })
  @IsOptional()
  @IsString()
  @Format(/^[0-9]{4}$/, 'four digits')
  phone_last4?: string;

  @ApiPropertyOptional({
    example: 'lóp',
    minLength: 2,
    maxLength: 100,
    description: 'The start of a household name or a member’s first or last name (any letter case).',
  })
  @IsOptional()
  @IsString()
  @MinLen(2)
  @MaxLen(100)
  name?: string;
}
