import { Module } from '@nestjs/common';
import { AttendanceModule } from '../attendance/attendance.module';
import { CampusesModule } from '../campuses/campuses.module';
import { CalendarEventsController } from './events.controller';
import { CalendarEventsRepository } from './events.repository';
import { CalendarEventsService } from './events.service';

@Module({
  imports: [CampusesModule, AttendanceModule],
  controllers: [CalendarEventsController],
  providers: [CalendarEventsService, CalendarEventsRepository],
  exports: [CalendarEventsService],
})
export class CalendarEventsModule {}
