import { Module } from '@nestjs/common';
import { AttendanceModule } from '../attendance/attendance.module';
import { CheckInController } from './check-in.controller';
import { CheckInRepository } from './check-in.repository';
import { CheckInService } from './check-in.service';

/** Kiosk check-in: household search, check-in with a security code, checkout. Attendance is recorded through AttendanceService. */
@Module({
  imports: [AttendanceModule],
  controllers: [CheckInController],
  providers: [CheckInService, CheckInRepository],
})
export class CheckInModule {}
