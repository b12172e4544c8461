import { Injectable, OnModuleInit } from '@nestjs/common';
import { ID_PREFIX } from '../../common/ids/id';
import { ChangeSources } from '../../platform/changes/change-sources';
import { NotificationResponse } from './dto/notification.response';
import { NotificationsService } from './notifications.service';

/** Notifications (their GET needs write:notifications) in the changes feed (CONTRACT §15–§16). */
@Injectable()
export class NotificationsChangeSource implements OnModuleInit {
  constructor(
    private readonly sources: ChangeSources,
    private readonly notifications: NotificationsService,
  ) {}

  onModuleInit(): void {
    this.sources.register({
      type: 'notification',
      prefix: ID_PREFIX.notification,
      scope: 'write:notifications',
      response: NotificationResponse,
      load: (ids) => this.notifications.getMany(ids),
    });
  }
}
