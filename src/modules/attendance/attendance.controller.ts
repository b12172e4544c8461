import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { ApiList } from '../../common/lists/list-envelope';
import { Auth } from '../../platform/auth/auth.decorator';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { AttendanceBulkService } from './attendance-bulk.service';
import { ATTENDANCE_LIST } from './attendance.list';
import { AttendanceService } from './attendance.service';
import { AttendanceResponse, BulkAttendanceResponse } from './dto/attendance.response';
import { BulkCreateAttendanceDto, CreateAttendanceDto } from './dto/create-attendance.dto';

@ApiTags('Attendance')
@Controller('v1/attendance')
export class AttendanceController {
  constructor(
    private readonly attendance: AttendanceService,
    private readonly bulk: AttendanceBulkService,
  ) {}

  @Post()
  @Idempotent()
  @Auth({ scopes: ['write:attendance'] })
  @ApiOperation({
    summary: 'Record attendance',
    description:
      'One member at one calendar event: `kind` regular (default), guest or volunteer; `checked_in_at` defaults to now. ' +
      'A member or event the church does not have is 422 naming the field; the same member at the same event twice (even at once) is 409 `conflict`. Raises `attendance.recorded`.',
  })
  @ApiCreatedResponse({
    type: AttendanceResponse,
    headers: { Location: { description: 'URL of the new record', schema: { type: 'string' } } },
  })
  async create(
    @Body() dto: CreateAttendanceDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AttendanceResponse> {
    const record = await this.attendance.create(dto);
    res.location(`/v1/attendance/${record.id}`);
    return record;
  }

  @Post('bulk')
  @HttpCode(200)
  @Idempotent()
  @Auth({ scopes: ['write:attendance'] })
  @ApiOperation({
    summary: 'Record up to 500 attendance records',
    description:
      'Valid rows are recorded even when others fail (`validation_failed` rows, and `conflict` rows for a member already recorded at the event, in the database or earlier in the same call); ' +
      'one `attendance.recorded` per record. Over 500 rows: 413.',
  })
  @ApiOkResponse({ type: BulkAttendanceResponse })
  @ApiBody({ type: BulkCreateAttendanceDto })
  createMany(@Body() body: unknown): Promise<BulkAttendanceResponse> {
    // Not a DTO parameter: the rows are read one by one, without a class-transformer pass over 500 rows.
    return this.bulk.create(body);
  }

  @Get()
  @Auth({ scopes: ['read:attendance'] })
  @ApiOperation({
    summary: 'List attendance',
    description:
      "Keyset-paginated; filters by field name with `[op]` operators (`campus` is the event's campus); sort `created_at` (default) or `checked_in_at`.",
  })
  @ApiList(AttendanceResponse, ATTENDANCE_LIST)
  list(@Query() query: Record<string, unknown>) {
    return this.attendance.list(query);
  }

  @Get(':id')
  @Auth({ scopes: ['read:attendance'] })
  @ApiOperation({
    summary: 'Get an attendance record',
    description: 'Carries an ETag; `If-None-Match` answers 304 while unchanged.',
  })
  @ApiOkResponse({ type: AttendanceResponse })
  get(@Param('id', new ParseIdPipe('att', 'attendance')) id: string): Promise<AttendanceResponse> {
    return this.attendance.get(id);
  }
}
