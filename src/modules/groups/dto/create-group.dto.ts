import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { Format, MaxLen, MinLen, OneOf } from '../../../common/validation/rules';
import { MEETING_DAYS, WRITABLE_GROUP_STATUSES } from '../group.entity';

export const MAX_GROUP_CAPACITY = 10_000;
export const MEETING_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
export const MEETING_TIME_FORMAT = 'HH:MM (24-hour)';

const capacityRange = { context: { issue: 'out_of_range', params: { min: 1, max: MAX_GROUP_CAPACITY } } };

/** The group write body (POST). PATCH takes any subset (UpdateGroupDto). `parent_group_id` is set only by multiply. */
export class CreateGroupDto {
  @ApiProperty({ example: 'Células Norte — jóvenes', maxLength: 200 })
  @IsDefined()
  @IsString()
  @MinLen(1)
  @MaxLen(200)
  name: string;

  @ApiPropertyOptional({
    type: String,
    example: 'Young adults meeting at the Ortiz home.',
    nullable: true,
    maxLength: 4000,
  })
  @IsOptional()
  @IsString()
  @MaxLen(4000)
  description?: string | null;

  @ApiPropertyOptional({ type: String, example: 'north', nullable: true, description: 'Campus key or cmp_ id.' })
  @IsOptional()
  @IsString()
  @MaxLen(64)
  campus?: string | null;

  @ApiPropertyOptional({ enum: MEETING_DAYS, nullable: true, example: 'thursday' })
  @IsOptional()
  @OneOf(MEETING_DAYS)
  meeting_day?: (typeof MEETING_DAYS)[number] | null;

  @ApiPropertyOptional({
    type: String,
    example: '19:30',
    nullable: true,
    pattern: '^([01]\\d|2[0-3]):[0-5]\\d$',
    description: 'HH:MM, 24-hour, local to the group.',
  })
  @IsOptional()
  @IsString()
  @Format(MEETING_TIME, MEETING_TIME_FORMAT)
  meeting_time?: string | null;

  @ApiPropertyOptional({ type: String, example: 'Calle 10 #45, Guadalajara', nullable: true, maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLen(500)
  location?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: MAX_GROUP_CAPACITY,
    example: 12,
    description: 'Most members the group takes: adding one more is 409 `conflict`. Null: no limit.',
  })
  @IsOptional()
  @IsInt({ context: { issue: 'invalid_type', params: { type: 'integer' } } })
  @Min(1, capacityRange)
  @Max(MAX_GROUP_CAPACITY, capacityRange)
  capacity?: number | null;

  @ApiPropertyOptional({
    enum: WRITABLE_GROUP_STATUSES,
    default: 'open',
    description: '`open` or `full` (informational). `closed` is set only by POST /v1/groups/{id}/close.',
  })
  @IsOptional()
  @OneOf(WRITABLE_GROUP_STATUSES)
  status?: (typeof WRITABLE_GROUP_STATUSES)[number];
}
