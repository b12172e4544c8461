import { Module } from '@nestjs/common';
import { MembersModule } from '../members/members.module';
import { AttendanceBulkService } from './attendance-bulk.service';
import { AttendanceController } from './attendance.controller';
import { AttendanceRepository } from './attendance.repository';
import { AttendanceService } from './attendance.service';
import { AttendanceChangeSource } from './attendance.changes';
import { EventAttendanceController } from './event-attendance.controller';
import { MemberAttendanceController } from './member-attendance.controller';

/** Attendance at calendar events. AttendanceService is exported: the kiosk check-in records through recordMany, events count with countByEvent. */
@Module({
  imports: [MembersModule],
  controllers: [AttendanceController, MemberAttendanceController, EventAttendanceController],
  providers: [AttendanceService, AttendanceChangeSource, AttendanceRepository, AttendanceBulkService],
  exports: [AttendanceService],
})
export class AttendanceModule {}
