import { Module } from '@nestjs/common';
import { CampusesModule } from '../campuses/campuses.module';
import { MembersModule } from '../members/members.module';
import { NotificationFanOutJob } from './notification-fan-out.job';
import { NotificationsController } from './notifications.controller';
import { NotificationsRepository } from './notifications.repository';
import { NotificationsService } from './notifications.service';
import { NotificationsChangeSource } from './notifications.changes';

/** Notifications: the routes, and the `notifications` job (its BullMQ consumer, NotificationsProcessor, is registered in WorkerModule). */
@Module({
  imports: [CampusesModule, MembersModule],
  controllers: [NotificationsController],
  providers: [NotificationsService, NotificationsChangeSource, NotificationsRepository, NotificationFanOutJob],
})
export class NotificationsModule {}
