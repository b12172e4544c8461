import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '../../database/database.service';

export interface JobRow {
  id: string;
  tenant_id: string | null;
  kind: string;
  data: Record<string, unknown>;
  status: 'queued' | 'running' | 'done' | 'failed';
  total: number | null;
  done: number;
  attempts: number;
  max_attempts: number;
  run_at: Date;
  last_error: string | null;
}

export interface NewJob {
  id: string;
  tenantId: string | null;
  kind: string;
  data: Record<string, unknown>;
  dedupeKey: string | null;
  maxAttempts: number;
  runAt: Date | null;
}

/** The background_jobs table. Inserts run in the caller's transaction; the rest on the platform role. */
@Injectable()
export class JobsRepository {
  constructor(private readonly db: Database) {}

  /** The new row, or null when a job of that kind and dedupe key exists already. */
  async insert(job: NewJob, manager: EntityManager = this.db.platform): Promise<JobRow | null> {
    const rows: JobRow[] = await manager.query(
      `INSERT INTO background_jobs (id, tenant_id, kind, data, dedupe_key, max_attempts, run_at)
       VALUES ($1, $2, $3, $4, $5, $6, coalesce($7, now()))
       ON CONFLICT (kind, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
       RETURNING *`,
      [job.id, job.tenantId, job.kind, JSON.stringify(job.data), job.dedupeKey, job.maxAttempts, job.runAt],
    );
    return rows[0] ?? null;
  }

  /**
   * Takes the job for one run: a queued job, or a running one whose lease has passed (its process
   * died). Two takers never both win; a finished job is never run again.
   */
  async claim(id: string, leaseMs: number): Promise<JobRow | null> {
    const [rows] = await this.db.platform.query<[JobRow[], number]>(
      `UPDATE background_jobs
          SET status = 'running', attempts = attempts + 1, locked_until = now() + make_interval(secs => $2::float8 / 1000), updated_at = now()
        WHERE id = $1 AND (status = 'queued' OR (status = 'running' AND locked_until < now()))
       RETURNING *`,
      [id, leaseMs],
    );
    return rows[0] ?? null;
  }

  async progress(id: string, done: number, total: number | null): Promise<void> {
    await this.db.platform.query(`UPDATE background_jobs SET done = $2, total = coalesce($3, total), updated_at = now() WHERE id = $1`, [id, done, total]);
  }

  async complete(id: string, result: unknown): Promise<void> {
    await this.db.platform.query(
      `UPDATE background_jobs SET status = 'done', result = $2, locked_until = NULL, last_error = NULL, finished_at = now(), updated_at = now() WHERE id = $1`,
      [id, result === undefined ? null : JSON.stringify(result)],
    );
  }

  /** Records a failed run: queued again at `retryAt`, or `failed` for good when it is null. */
  async fail(id: string, error: string, retryAt: Date | null): Promise<void> {
    await this.db.platform.query(
      `UPDATE background_jobs
          SET status = CASE WHEN $3::timestamptz IS NULL THEN 'failed' ELSE 'queued' END,
              run_at = coalesce($3, run_at), last_error = $2, locked_until = NULL, updated_at = now(),
              finished_at = CASE WHEN $3::timestamptz IS NULL THEN now() END
        WHERE id = $1`,
      [id, error.slice(0, 2000), retryAt],
    );
  }

  /**
   * Live jobs whose time came at least `overdueMs` ago (queued, or running on a lapsed lease),
   * oldest first; only of `kinds` when given (a process polls only for the work it can do).
   */
  async due(overdueMs: number, limit: number, kinds?: string[]): Promise<Pick<JobRow, 'id' | 'kind' | 'max_attempts' | 'attempts' | 'run_at'>[]> {
    return this.db.platform.query(
      `SELECT id, kind, max_attempts, attempts, run_at FROM background_jobs
        WHERE status IN ('queued', 'running') AND run_at <= now() - make_interval(secs => $1::float8 / 1000)
          AND (status = 'queued' OR locked_until < now()) AND ($3::text[] IS NULL OR kind = ANY($3))
        ORDER BY run_at LIMIT $2`,
      [overdueMs, limit, kinds ?? null],
    );
  }
}
