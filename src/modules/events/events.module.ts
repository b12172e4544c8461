import { Module } from '@nestjs/common';
import { AttendanceModule } from '../attendance/attendance.module';
import { CampusesModule } from '../campuses/campuses.module';
import { MembersModule } from '../members/members.module';
import { EventsController } from './events.controller';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';
import { EventsChangeSource } from './events.changes';

@Module({
  imports: [CampusesModule, AttendanceModule, MembersModule],
  controllers: [EventsController],
  providers: [EventsService, EventsChangeSource, EventsRepository],
  exports: [EventsService],
})
export class EventsModule {}
