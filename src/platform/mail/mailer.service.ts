import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { newUuid } from '../../common/ids/id';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { Database } from '../../database/database.service';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends mail over SMTP_URL from MAIL_FROM. With SMTP_URL unset the mail is logged (recipient and
 * subject only: a body may carry a link that must not reach the logs) and kept in mail_outbox.
 */
@Injectable()
export class MailerService implements OnApplicationShutdown {
  private readonly logger = new Logger('Mailer');
  private transport?: Transporter;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
  ) {}

  get enabled(): boolean {
    return this.config.SMTP_URL !== undefined;
  }

  async send(message: MailMessage): Promise<void> {
    if (!this.config.SMTP_URL) {
      this.logger.log(`SMTP_URL unset, mail kept in mail_outbox: to=${message.to} subject=${JSON.stringify(message.subject)}`);
      await this.db.platform.query('INSERT INTO mail_outbox (id, recipient, subject, body) VALUES ($1, $2, $3, $4)', [newUuid(), message.to, message.subject, message.text]);
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
