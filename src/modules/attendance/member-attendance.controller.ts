import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { ApiList } from '../../common/lists/list-envelope';
import { Auth } from '../../platform/auth/auth.decorator';
import { ApiMemberMerged } from '../members/member-merged.openapi';
import { MEMBER_ATTENDANCE_LIST } from './attendance.list';
import { AttendanceService } from './attendance.service';
import { AttendanceResponse } from './dto/attendance.response';

@ApiTags('Attendance')
@Controller('v1/members')
export class MemberAttendanceController {
  constructor(private readonly attendance: AttendanceService) {}

  @Get(':id/attendance')
  @Auth({ scopes: ['read:attendance'] })
  @ApiOperation({
    summary: "List a member's attendance",
    description:
      'The attendance list for one member (every filter and sort of GET /v1/attendance but `member_id`); 404 for a member the church does not have. A member merged into another (POST /v1/members/{id}/merge) is a 301 `member_merged` to the survivor’s list (`Location`).',
  })
  @ApiList(AttendanceResponse, MEMBER_ATTENDANCE_LIST)
  @ApiMemberMerged('attendance')
  list(@Param('id', new ParseIdPipe('mem', 'member')) id: string, @Query() query: Record<string, unknown>) {
    return this.attendance.listForMember(id, query);
  }
}
