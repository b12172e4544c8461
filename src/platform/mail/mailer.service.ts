import { Injectable, Logger } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { newUuid } from '../../common/ids/id';
import { Database } from '../../database/database.service';
import { JobsService } from '../jobs/jobs.service';
import { QUEUES } from '../jobs/queues';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * Every mail goes through the mail outbox: `enqueue` writes it to mail_outbox with its `mail` job
 * in one transaction, and the job (MailDeliveryJob) sends it, retrying with backoff when the SMTP
 * server refuses or is away.
 */
@Injectable()
export class MailerService {
  private readonly logger = new Logger('Mailer');

  constructor(
    private readonly db: Database,
    private readonly jobs: JobsService,
  ) {}

  /** Outside a church's transaction (a platform chore): the mail of church `tenantId`; its outbox id. */
  async enqueue(tenantId: string, message: MailMessage): Promise<string> {
    const id = newUuid();
    const job = await this.db.platform.transaction(async (manager) => {
      await manager.query(
        'INSERT INTO mail_outbox (id, tenant_id, recipient, subject, body) VALUES ($1, $2, $3, $4, $5)',
        [id, tenantId, message.to, message.subject, message.text],
      );
      return this.jobs.create(QUEUES.mail, { mailId: id, tenantId }, { tenantId: null }, manager); // sent on the platform's role
    });
    if (job) await this.jobs.dispatch([job]);
    this.logger.debug(`mail ${id} queued`);
    return id;
  }

  /**
   * Inside a church's transaction: the mail and its `mail` job are written in that transaction (a
   * change that rolls back sends nothing; one that commits cannot lose its mail) and the job is
   * handed over after the commit. The app role may add mails of its church only (row-level security).
   */
  async enqueueInTransaction(message: MailMessage): Promise<string> {
    const id = newUuid();
    const { manager, tenantId } = TenantContext.current();
    await manager.query(
      'INSERT INTO mail_outbox (id, tenant_id, recipient, subject, body) VALUES ($1, $2, $3, $4, $5)',
      [id, tenantId, message.to, message.subject, message.text],
    );
    await this.jobs.enqueue(QUEUES.mail, { mailId: id, tenantId });
    return id;
  }
}
