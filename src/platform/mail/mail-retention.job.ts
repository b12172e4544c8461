import { Injectable } from '@nestjs/common';
import { Database } from '../../database/database.service';
import { BackgroundJob, JobHandler } from '../jobs/background-job';
import { QUEUES } from '../jobs/queues';

/** How long a sent mail stays in mail_outbox (CONTRACT §21). */
export const SENT_MAIL_RETENTION_DAYS = 30;

/**
 * The daily `mail-retention` job (DailyJobs): deletes the mails sent more than 30 days ago, every
 * church's at once (a platform chore; mails never sent stay, for their retries and for reading).
 */
@BackgroundJob({ kind: QUEUES.mailRetention, maxAttempts: 3 })
@Injectable()
export class MailRetentionJob implements JobHandler<Record<string, never>> {
  constructor(private readonly db: Database) {}

  async run(): Promise<{ deleted: number }> {
    const [{ deleted }] = await this.db.platform.query<{ deleted: number }[]>(
      `WITH gone AS (DELETE FROM mail_outbox WHERE sent_at < now() - make_interval(days => $1) RETURNING 1)
       SELECT count(*)::int AS deleted FROM gone`,
      [SENT_MAIL_RETENTION_DAYS],
    );
    return { deleted };
  }
}
