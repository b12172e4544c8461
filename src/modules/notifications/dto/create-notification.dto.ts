import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsDefined,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { Format, MaxLen, MinLen, OneOf } from '../../../common/validation/rules';
import { CHANNELS, Channel } from '../notification.entity';

export const MAX_MEMBER_IDS = 1000;
const TIME_FORMAT = 'ISO 8601 with a time zone';
/** A date-time with an offset or Z (an instant). */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Exactly one of these: the service refuses zero or several. */
export class AudienceDto {
  @ApiPropertyOptional({
    type: [String],
    example: ['mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f'],
    maxItems: MAX_MEMBER_IDS,
    description:
      'These members (mem_ ids; 1 to 1,000). A member merged into another (POST /v1/members/{id}/merge) names the survivor (the audience keeps it).',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_MEMBER_IDS)
  @IsString({ each: true })
  @MaxLength(64, { each: true, context: { issue: 'too_long', params: { max: 64 } } })
  member_ids?: string[];

  @ApiPropertyOptional({
    type: String,
    example: 'youth',
    description: 'The members carrying this tag (tag_ id or name, ignoring case).',
  })
  @IsOptional()
  @IsString()
  @MinLen(1)
  @MaxLen(64)
  tag?: string;

  @ApiPropertyOptional({
    type: String,
    example: 'grp_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    description: 'The members of this cell group (leaders included).',
  })
  @IsOptional()
  @IsString()
  @MaxLen(64)
  group_id?: string;

  @ApiPropertyOptional({
    type: String,
    example: 'north',
    description: 'The members of this campus (campus key or cmp_ id).',
  })
  @IsOptional()
  @IsString()
  @MinLen(1)
  @MaxLen(64)
  campus?: string;

  @ApiPropertyOptional({
    type: String,
    example: 'evt_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    description: 'The members registered for this event (guest registrations are not members: they are not included).',
  })
  @IsOptional()
  @IsString()
  @MaxLen(64)
  event_id?: string;
}

/** POST /v1/notifications. */
export class CreateNotificationDto {
  @ApiProperty({
    example: 'Youth night moved to Friday',
    minLength: 1,
    maxLength: 200,
    description: 'The e-mail subject and the push title.',
  })
  @IsDefined()
  @IsString()
  @MinLen(1)
  @MaxLen(200)
  title: string;

  @ApiProperty({
    example: 'This week we meet on Friday at 7 pm in the main hall. Bring a friend!',
    minLength: 1,
    maxLength: 5000,
    description: 'The message (plain text).',
  })
  @IsDefined()
  @IsString()
  @MinLen(1)
  @MaxLen(5000)
  body: string;

  @ApiPropertyOptional({
    type: [String],
    enum: CHANNELS,
    example: ['email', 'push'],
    description: 'One or both; default both.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(2)
  @ArrayUnique()
  @OneOf(CHANNELS, { each: true })
  channels?: Channel[];

  @ApiProperty({
    type: AudienceDto,
    example: { tag: 'youth' },
    description: 'Exactly one of `member_ids`, `tag`, `group_id`, `campus`, `event_id`.',
  })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => AudienceDto)
  audience: AudienceDto;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    example: '2026-09-04T16:00:00-06:00',
    nullable: true,
    description:
      'Send at this time (ISO 8601 with an offset or Z; in the future, at most a year ahead). Absent or null: now.',
  })
  @IsOptional()
  @IsString()
  @Format(INSTANT, TIME_FORMAT)
  scheduled_at?: string | null;
}
