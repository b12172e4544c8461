import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from './config/app-config';
import { CoreModule } from './core.module';
import { NotificationsProcessor } from './modules/notifications/notifications.processor';
import { StatementsProcessor } from './modules/statements/statements.processor';
import { JobsModule } from './platform/jobs/jobs.module';
import { MailProcessor } from './platform/mail/mail.processor';
import { NoticesModule } from './platform/notices/notices.module';
import { TokenExpiryProcessor } from './platform/notices/token-expiry.processor';
import { DeliveryProcessor } from './platform/webhooks/delivery/delivery.processor';
import { DeliverySweeper } from './platform/webhooks/delivery/delivery-sweeper';

/** The worker's module graph: the shared modules plus every queue's processor (registered here only). */
@Module({
  imports: [CoreModule, NoticesModule],
  providers: [
    DeliveryProcessor,
    DeliverySweeper,
    TokenExpiryProcessor,
    MailProcessor,
    StatementsProcessor,
    NotificationsProcessor,
  ],
})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: WorkerModule, imports: [JobsModule.forRoot(config)] };
  }
}
