import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from './config/app-config';
import { CoreModule } from './core.module';
import { NotificationsProcessor } from './modules/notifications/notifications.processor';
import { StatementsProcessor } from './modules/statements/statements.processor';
import { JobsModule } from './platform/jobs/jobs.module';
import { MailProcessor } from './platform/mail/mail.processor';
import { MailRetentionProcessor } from './platform/mail/mail-retention.processor';
import { ChangeRetentionProcessor } from './platform/changes/change-retention.processor';
import { TokenExpiryProcessor } from './modules/api-tokens/token-expiry.processor';
import { DeliveryProcessor } from './platform/outbox/delivery/delivery.processor';
import { DeliverySweeper } from './platform/outbox/delivery/delivery-sweeper';

/** The worker's module graph: the shared modules plus every queue's processor (registered here only). */
@Module({
  imports: [CoreModule],
  providers: [
    DeliveryProcessor,
    DeliverySweeper,
    TokenExpiryProcessor,
    MailProcessor,
    MailRetentionProcessor,
    ChangeRetentionProcessor,
    StatementsProcessor,
    NotificationsProcessor,
  ],
})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: WorkerModule, imports: [JobsModule.forRoot(config)] };
  }
}
