import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { Database } from '../../database/database.service';
import { BackgroundJob, JobContext, JobHandler } from '../jobs/background-job';
import { QUEUES } from '../jobs/queues';

interface OutboxMail {
  recipient: string;
  subject: string;
  body: string;
  sent_at: Date | null;
}

/**
 * Sends one mail of the outbox over SMTP_URL from MAIL_FROM and marks it sent. With SMTP_URL unset
 * the mail is logged (recipient and subject only: a body may carry a link that must not reach the
 * logs) and stays readable in mail_outbox. A refusal throws: the job retries with backoff.
 */
@BackgroundJob({ kind: QUEUES.mail, maxAttempts: 8 })
@Injectable()
export class MailDeliveryJob implements JobHandler<{ mailId: string }>, OnApplicationShutdown {
  private readonly logger = new Logger('Mailer');
  private transport?: Transporter;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
  ) {}

  async run({ data }: JobContext<{ mailId: string }>): Promise<{ transport: string } | { skipped: string }> {
    const [mail] = await this.db.platform.query<OutboxMail[]>(
      'SELECT recipient, subject, body, sent_at FROM mail_outbox WHERE id = $1',
      [data.mailId],
    );
    if (!mail) return { skipped: 'no such mail' };
    if (mail.sent_at) return { skipped: 'sent already' };
    let transport = 'log';
    if (this.config.SMTP_URL) {
      this.transport ??= createTransport({
        url: this.config.SMTP_URL,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      });
      await this.transport.sendMail({
        from: this.config.MAIL_FROM,
        to: mail.recipient,
        subject: mail.subject,
        text: mail.body,
      });
      transport = 'smtp';
    } else {
      this.logger.log(
        `SMTP_URL unset, mail kept in mail_outbox: to=${mail.recipient} subject=${JSON.stringify(mail.subject)}`,
      );
    }
    await this.db.platform.query('UPDATE mail_outbox SET sent_at = now(), transport = $2 WHERE id = $1', [
      data.mailId,
      transport,
    ]);
    return { transport };
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
