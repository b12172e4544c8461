import { Injectable, Logger } from '@nestjs/common';
import { Database } from '../../database/database.service';
import { BackgroundJob, JobContext, JobHandler } from '../jobs/background-job';
import { QUEUES } from '../jobs/queues';
import { MailTransport } from './mail-transport';

/** A mail job's data: the mail's key (jobs queued before mails named their church have none: skipped). */
export interface MailJob {
  mailId: string;
  tenantId?: string;
}

interface OutboxMail {
  recipient: string;
  subject: string;
  body: string;
  sent_at: Date | null;
}

/**
 * Sends one mail of the outbox over SMTP_URL from MAIL_FROM (MailTransport) and marks it sent. With SMTP_URL unset
 * the mail's id is logged (never its recipient, subject or body: personal data and links stay out
 * of the logs) and it stays readable in mail_outbox. A refusal throws: the job retries with backoff.
 */
@BackgroundJob({ kind: QUEUES.mail, maxAttempts: 8 })
@Injectable()
export class MailDeliveryJob implements JobHandler<MailJob> {
  private readonly logger = new Logger('Mailer');

  constructor(
    private readonly db: Database,
    private readonly transport: MailTransport,
  ) {}

  async run({ data }: JobContext<MailJob>): Promise<{ transport: string } | { skipped: string }> {
    const [mail] = await this.db.platform.query<OutboxMail[]>(
      'SELECT recipient, subject, body, sent_at FROM mail_outbox WHERE tenant_id = $1 AND id = $2',
      [data.tenantId ?? null, data.mailId],
    );
    if (!mail) return { skipped: 'no such mail' };
    if (mail.sent_at) return { skipped: 'sent already' };
    let transport = 'log';
    if (this.transport.enabled) {
      await this.transport.send({ to: mail.recipient, subject: mail.subject, text: mail.body });
      transport = 'smtp';
    } else {
      this.logger.log(`SMTP_URL unset, mail ${data.mailId} kept in mail_outbox (its recipient is not logged)`);
    }
    await this.db.platform.query(
      'UPDATE mail_outbox SET sent_at = now(), transport = $3 WHERE tenant_id = $1 AND id = $2',
      [data.tenantId, data.mailId, transport],
    );
    return { transport };
  }
}
