import { Global, Module } from '@nestjs/common';
import { MailDeliveryJob } from './mail-delivery.job';
import { MailerService } from './mailer.service';

@Global()
@Module({ providers: [MailerService, MailDeliveryJob], exports: [MailerService] })
export class MailModule {}
