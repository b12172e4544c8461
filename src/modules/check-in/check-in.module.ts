import { Module } from '@nestjs/common';
import { AttendanceModule } from '../attendance/attendance.module';
import { MembersModule } from '../members/members.module';
import { CheckInSettingsController } from './check-in-settings.controller';
import { CheckInController } from './check-in.controller';
import { CheckInRepository } from './check-in.repository';
import { CheckInService } from './check-in.service';

/** Kiosk check-in: household search, check-in with a security code, checkout; the church's banned code sequences (settings). Attendance is recorded through AttendanceService. */
@Module({
  imports: [AttendanceModule, MembersModule],
  controllers: [CheckInController, CheckInSettingsController],
  providers: [CheckInService, CheckInRepository],
})
export class CheckInModule {}
