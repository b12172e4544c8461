import { Injectable, Logger } from '@nestjs/common';
import { Database } from '../../database/database.service';
import { BackgroundJob, JobContext, JobHandler } from '../jobs/background-job';
import { QUEUES } from '../jobs/queues';
import { MailTransport } from './mail-transport';

interface OutboxMail {
  recipient: string;
  subject: string;
  body: string;
  sent_at: Date | null;
}

/**
 * Sends one mail of the outbox over SMTP_URL from MAIL_FROM (MailTransport) and marks it sent. With SMTP_URL unset
 * the mail is logged (recipient and subject only: a body may carry a link that must not reach the
 * logs) and stays readable in mail_outbox. A refusal throws: the job retries with backoff.
 */
@BackgroundJob({ kind: QUEUES.mail, maxAttempts: 8 })
@Injectable()
export class MailDeliveryJob implements JobHandler<{ mailId: string }> {
  private readonly logger = new Logger('Mailer');

  constructor(
    private readonly db: Database,
    private readonly transport: MailTransport,
  ) {}

  async run({ data }: JobContext<{ mailId: string }>): Promise<{ transport: string } | { skipped: string }> {
    const [mail] = await this.db.platform.query<OutboxMail[]>(
      'SELECT recipient, subject, body, sent_at FROM mail_outbox WHERE id = $1',
      [data.mailId],
    );
    if (!mail) return { skipped: 'no such mail' };
    if (mail.sent_at) return { skipped: 'sent already' };
    let transport = 'log';
    if (this.transport.enabled) {
      await this.transport.send({ to: mail.recipient, subject: mail.subject, text: mail.body });
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
}
