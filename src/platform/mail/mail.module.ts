import { Global, Module } from '@nestjs/common';
import { MailDeliveryJob } from './mail-delivery.job';
import { MailRetentionJob } from './mail-retention.job';
import { MailTransport } from './mail-transport';
import { MailerService } from './mailer.service';

@Global()
@Module({
  providers: [MailerService, MailTransport, MailDeliveryJob, MailRetentionJob],
  exports: [MailerService, MailTransport],
})
export class MailModule {}
