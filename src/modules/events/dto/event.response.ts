import { ApiProperty } from '@nestjs/swagger';
import { CampusRef } from '../../campuses/dto/campus.response';
import { EVENT_STATUSES } from '../event.entity';

export class CalendarEventResponse {
  @ApiProperty({ example: 'evt_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'Christmas Eve service' }) name: string;
  @ApiProperty({ example: 'Carols, candles and the Christmas story.', nullable: true, type: String }) description:
    string | null;
  @ApiProperty({ example: 'Main sanctuary', nullable: true, type: String }) location: string | null;
  @ApiProperty({ type: CampusRef, nullable: true }) campus: CampusRef | null;
  @ApiProperty({
    example: 'America/Mexico_City',
    description: 'IANA time zone of the event (local times are read in it).',
  })
  timezone: string;
  @ApiProperty({ example: '2026-12-25T01:00:00.000Z', format: 'date-time', description: 'UTC.' }) starts_at: string;
  @ApiProperty({ example: '2026-12-25T02:30:00.000Z', format: 'date-time', description: 'UTC.' }) ends_at: string;
  @ApiProperty({ example: 120, nullable: true, type: Number, description: 'Seats; null is unlimited.' }) capacity:
    number | null;
  @ApiProperty({ example: 37, description: 'Current registrations.' }) registration_count: number;
  @ApiProperty({ example: true }) registration_open: boolean;
  @ApiProperty({
    example: 112,
    description: 'Attendance records of the event (GET /v1/events/{id}/attendance lists them).',
  })
  attendance_count: number;
  @ApiProperty({ enum: EVENT_STATUSES, example: 'scheduled' }) status: string;
  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    format: 'date-time',
    description: 'When the event was canceled; null while scheduled.',
  })
  canceled_at: string | null;
  @ApiProperty({ example: null, nullable: true, type: String, description: 'The reason given when canceling.' })
  cancel_reason: string | null;
  @ApiProperty({ example: '2026-11-20T15:04:05.000Z', format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '2026-11-20T15:04:05.000Z', format: 'date-time' }) updated_at: string;
}
