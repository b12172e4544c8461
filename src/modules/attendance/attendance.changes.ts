import { Injectable, OnModuleInit } from '@nestjs/common';
import { ID_PREFIX } from '../../common/ids/id';
import { ChangeSources } from '../../platform/changes/change-sources';
import { AttendanceResponse } from './dto/attendance.response';
import { AttendanceService } from './attendance.service';

/** Attendance records in the changes feed (CONTRACT §15–§16). */
@Injectable()
export class AttendanceChangeSource implements OnModuleInit {
  constructor(
    private readonly sources: ChangeSources,
    private readonly attendance: AttendanceService,
  ) {}

  onModuleInit(): void {
    this.sources.register({
      type: 'attendance',
      prefix: ID_PREFIX.attendance,
      scope: 'read:attendance',
      response: AttendanceResponse,
      load: (ids) => this.attendance.getMany(ids),
    });
  }
}
