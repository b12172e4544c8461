import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsDefined, IsOptional, IsString } from 'class-validator';
import { Format, MaxLen, OneOf } from '../../../common/validation/rules';
import { ATTENDANCE_KINDS } from '../attendance.entity';
import { TIMESTAMP_WITH_ZONE } from '../checked-in-at';

export const BULK_LIMIT = 500;

/** POST /v1/attendance, and each row of POST /v1/attendance/bulk. */
export class CreateAttendanceDto {
  @ApiProperty({
    example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e61',
    description:
      'A member of the church (mem_ id). A member merged into another (POST /v1/members/{id}/merge) names the survivor: the record is its.',
  })
  @IsDefined()
  @IsString()
  @MaxLen(64)
  member_id: string;

  @ApiProperty({
    example: 'evt_0192f0c1a2b37c4d8e9f0a1b2c3d4e60',
    description: 'A calendar event of the church (evt_ id).',
  })
  @IsDefined()
  @IsString()
  @MaxLen(64)
  event_id: string;

  @ApiPropertyOptional({ enum: ATTENDANCE_KINDS, default: 'regular', example: 'volunteer' })
  @IsOptional()
  @OneOf(ATTENDANCE_KINDS)
  kind?: (typeof ATTENDANCE_KINDS)[number] | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'date-time',
    example: '2026-03-01T10:05:00-06:00',
    description: 'When the person arrived (ISO 8601 with Z or an offset; absent or null: now). Not in the future.',
  })
  @IsOptional()
  @IsString()
  @Format(TIMESTAMP_WITH_ZONE, 'ISO 8601 with a time zone')
  checked_in_at?: string | null;
}

export class BulkCreateAttendanceDto {
  @ApiProperty({
    type: [CreateAttendanceDto],
    maxItems: BULK_LIMIT,
    description:
      'Up to 500 rows, each validated on its own; valid rows are recorded even when others fail (a member already recorded at the event is a `conflict` row).',
  })
  @IsDefined()
  @IsArray()
  attendance: unknown[];
}
