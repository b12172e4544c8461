import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { Database } from '../../database/database.service';
import { BackgroundJob, JobHandler } from '../jobs/background-job';
import { QUEUES } from '../jobs/queues';

/** Rows deleted per statement: each statement's locks and WAL stay small. */
const BATCH = 5_000;

/**
 * The daily `change-retention` job (DailyJobs): deletes the changes older than
 * CHANGES_RETENTION_DAYS, every church's, in batches of short statements, and remembers per church
 * the last position it removed, below which a cursor is 410 sync_cursor_expired.
 */
@BackgroundJob({ kind: QUEUES.changeRetention, maxAttempts: 3 })
@Injectable()
export class ChangeRetentionJob implements JobHandler<Record<string, never>> {
  constructor(
    private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async run(): Promise<{ deleted: number }> {
    let deleted = 0;
    for (;;) {
      const [{ count }] = await this.db.platform.query<{ count: number }[]>(
        `WITH doomed AS (
           SELECT tenant_id, position, seq FROM changes
            WHERE changed_at < now() - make_interval(days => $1) LIMIT $2
         ), gone AS (
           DELETE FROM changes c USING doomed d
            WHERE c.tenant_id = d.tenant_id AND c.position = d.position AND c.seq = d.seq
           RETURNING c.tenant_id, c.position, c.seq
         ), last AS (
           SELECT DISTINCT ON (tenant_id) tenant_id, position, seq FROM gone ORDER BY tenant_id, position DESC, seq DESC
         ), horizon AS (
           INSERT INTO change_horizons (tenant_id, position, seq) SELECT tenant_id, position, seq FROM last
           ON CONFLICT (tenant_id) DO UPDATE SET position = excluded.position, seq = excluded.seq
             WHERE (change_horizons.position, change_horizons.seq) < (excluded.position, excluded.seq)
         )
         SELECT count(*)::int AS count FROM gone`,
        [this.config.CHANGES_RETENTION_DAYS, BATCH],
      );
      deleted += count;
      if (count < BATCH) return { deleted };
    }
  }
}
