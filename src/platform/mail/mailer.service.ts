import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { APP_CONFIG, AppConfig } from '../../config/app-config';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends mail over SMTP_URL from MAIL_FROM. With SMTP_URL unset the mail is only logged (recipient
 * and subject: a body may carry a link or code that must not reach the logs).
 */
@Injectable()
export class MailerService implements OnApplicationShutdown {
  private readonly logger = new Logger('Mailer');
  private transport?: Transporter;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get enabled(): boolean {
    return this.config.SMTP_URL !== undefined;
  }

  async send(message: MailMessage): Promise<void> {
    if (!this.config.SMTP_URL) {
      this.logger.log(`SMTP_URL unset, mail not sent: to=${message.to} subject=${JSON.stringify(message.subject)}`);
      return;
    }
    this.transport ??= createTransport({
      url: this.config.SMTP_URL,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    await this.transport.sendMail({ from: this.config.MAIL_FROM, to: message.to, subject: message.subject, text: message.text });
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
