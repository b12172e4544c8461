import { Global, Module } from '@nestjs/common';
import { MailDeliveryJob } from './mail-delivery.job';
import { MailTransport } from './mail-transport';
import { MailerService } from './mailer.service';

@Global()
@Module({ providers: [MailerService, MailTransport, MailDeliveryJob], exports: [MailerService, MailTransport] })
export class MailModule {}
