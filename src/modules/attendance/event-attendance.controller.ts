import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { ApiList } from '../../common/lists/list-envelope';
import { Auth } from '../../platform/auth/auth.decorator';
import { EVENT_ATTENDANCE_LIST } from './attendance.list';
import { AttendanceService } from './attendance.service';
import { AttendanceResponse } from './dto/attendance.response';

@ApiTags('Attendance')
@Controller('v1/events')
export class EventAttendanceController {
  constructor(private readonly attendance: AttendanceService) {}

  @Get(':id/attendance')
  @Auth({ scopes: ['read:attendance'] })
  @ApiOperation({
    summary: "List an event's attendance",
    description:
      'The attendance list for one calendar event (every filter and sort of GET /v1/attendance but `event_id`); 404 for an event the church does not have.',
  })
  @ApiList(AttendanceResponse, EVENT_ATTENDANCE_LIST)
  list(@Param('id', new ParseIdPipe('evt', 'event')) id: string, @Query() query: Record<string, unknown>) {
    return this.attendance.listForEvent(id, query);
  }
}
