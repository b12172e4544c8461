import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import type { MailMessage } from './mailer.service';

/** SMTP connections of the pool (nodemailer), for every mail the process sends. */
const SMTP_CONNECTIONS = 5;

/**
 * The process's one SMTP transport: a pool of SMTP_CONNECTIONS connections to SMTP_URL, opened at
 * the first send and closed at shutdown; mails go from MAIL_FROM. With SMTP_URL unset there is no
 * transport (`enabled` is false): callers send nothing and log the mail instead, each saying what
 * became of it.
 */
@Injectable()
export class MailTransport implements OnApplicationShutdown {
  private transport?: Transporter;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Whether SMTP_URL is set. */
  get enabled(): boolean {
    return !!this.config.SMTP_URL;
  }

  /** Sends the mail; throws when the SMTP server refuses it or cannot be reached (or SMTP_URL is unset). */
  async send(message: MailMessage): Promise<void> {
    if (!this.config.SMTP_URL) throw new Error('SMTP_URL is unset: no mail transport');
    this.transport ??= createTransport({
      url: this.config.SMTP_URL,
      pool: true,
      maxConnections: SMTP_CONNECTIONS,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    } as Parameters<typeof createTransport>[0]);
    await this.transport.sendMail({
      from: this.config.MAIL_FROM,
      to: message.to,
      subject: message.subject,
      text: message.text,
    });
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
