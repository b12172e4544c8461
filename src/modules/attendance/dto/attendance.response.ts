import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BulkRowError } from '../../members/dto/member.response';
import { ATTENDANCE_KINDS } from '../attendance.entity';

/** An attendance record, as the lists return it and as `attendance.recorded` carries it. */
export class AttendanceResponse {
  @ApiProperty({ example: 'att_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'evt_0192f0c1a2b37c4d8e9f0a1b2c3d4e60', description: 'The calendar event (evt_ id).' })
  event_id: string;
  @ApiProperty({ example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e61', description: 'The member who attended (mem_ id).' })
  member_id: string;
  @ApiProperty({ enum: ATTENDANCE_KINDS, example: 'regular' }) kind: string;
  @ApiProperty({
    example: '2026-03-01T16:05:00.000Z',
    format: 'date-time',
    description: 'When the person arrived (UTC).',
  })
  checked_in_at: string;
  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    description: 'The kiosk check-in (cki_ id) that recorded it; null when recorded through /v1/attendance.',
  })
  check_in_id: string | null;
  @ApiProperty({ example: '2026-03-01T16:05:01.000Z', format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '2026-03-01T16:05:01.000Z', format: 'date-time' }) updated_at: string;
}

export class AttendanceBulkRowResult {
  @ApiProperty({ example: 0, type: 'integer', description: 'The position of the row in `attendance`.' }) index: number;
  @ApiPropertyOptional({
    example: 'att_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    description: 'The record made from the row.',
  })
  id?: string;
  @ApiPropertyOptional({
    type: BulkRowError,
    description:
      'Why the row was refused: `validation_failed`, or `conflict` for a member already recorded at the event.',
  })
  error?: BulkRowError;
}

/** POST /v1/attendance/bulk's answer: the bulk result shape of POST /v1/members/bulk. */
export class BulkAttendanceResponse {
  @ApiProperty({ example: 498, type: 'integer' }) created: number;
  @ApiProperty({ example: 2, type: 'integer' }) failed: number;
  @ApiProperty({ type: [AttendanceBulkRowResult] }) results: AttendanceBulkRowResult[];
}
