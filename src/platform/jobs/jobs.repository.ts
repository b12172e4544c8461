import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '../../database/database.service';

export interface JobRow {
  id: string;
  /** Null for a platform job. */
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

/** Names a job: a church's (background_jobs) or, with a null tenant, a platform one (platform_jobs). */
export interface JobKey {
  tenantId: string | null;
  id: string;
}

export interface NewJob extends JobKey {
  kind: string;
  data: Record<string, unknown>;
  dedupeKey: string | null;
  maxAttempts: number;
  runAt: Date | null;
}

export type DueJob = Pick<JobRow, 'tenant_id' | 'id' | 'kind' | 'max_attempts' | 'attempts' | 'run_at'>;

/** The table of a job and the WHERE clause that finds it ($1 = id, $2 = tenant id when a church's). */
function locate(key: JobKey): { table: string; where: string; params: string[] } {
  return key.tenantId === null
    ? { table: 'platform_jobs', where: 'id = $1', params: [key.id] }
    : { table: 'background_jobs', where: 'id = $1 AND tenant_id = $2', params: [key.id, key.tenantId] };
}

const DUE = (table: string, tenant: string) => `
  SELECT ${tenant} AS tenant_id, id, kind, max_attempts, attempts, run_at FROM ${table}
   WHERE status IN ('queued', 'running') AND run_at <= now() - make_interval(secs => $1::float8 / 1000)
     AND (status = 'queued' OR locked_until < now()) AND ($3::text[] IS NULL OR kind = ANY($3))`;

/**
 * The two job tables. Inserts run in the caller's transaction (a church's jobs under row-level
 * security); claiming and recording run on the platform role, like the webhook delivery book.
 */
@Injectable()
export class JobsRepository {
  constructor(private readonly db: Database) {}

  /** The new row, or null when a job of that kind and dedupe key exists already (in that church). */
  async insert(job: NewJob, manager: EntityManager = this.db.platform): Promise<JobRow | null> {
    const values = [job.id, job.kind, JSON.stringify(job.data), job.dedupeKey, job.maxAttempts, job.runAt];
    const rows: JobRow[] =
      job.tenantId === null
        ? await manager.query(
            `INSERT INTO platform_jobs (id, kind, data, dedupe_key, max_attempts, run_at) VALUES ($1, $2, $3, $4, $5, coalesce($6, now()))
             ON CONFLICT (kind, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
             RETURNING NULL::uuid AS tenant_id, *`,
            values,
          )
        : await manager.query(
            `INSERT INTO background_jobs (tenant_id, id, kind, data, dedupe_key, max_attempts, run_at) VALUES ($7, $1, $2, $3, $4, $5, coalesce($6, now()))
             ON CONFLICT (tenant_id, kind, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
             RETURNING *`,
            [...values, job.tenantId],
          );
    return rows[0] ?? null;
  }

  /**
   * Takes the job for one run: a queued job, or a running one whose lease has passed (its process
   * died). Two takers never both win; a finished job is never run again.
   */
  async claim(key: JobKey, leaseMs: number): Promise<JobRow | null> {
    const { table, where, params } = locate(key);
    const lease = `$${params.length + 1}`;
    const [rows] = await this.db.platform.query<[JobRow[], number]>(
      `UPDATE ${table}
          SET status = 'running', attempts = attempts + 1, locked_until = now() + make_interval(secs => ${lease}::float8 / 1000), updated_at = now()
        WHERE ${where} AND (status = 'queued' OR (status = 'running' AND locked_until < now()))
       RETURNING ${key.tenantId === null ? 'NULL::uuid AS tenant_id, ' : ''}*`,
      [...params, leaseMs],
    );
    return rows[0] ?? null;
  }

  async progress(key: JobKey, done: number, total: number | null): Promise<void> {
    const { table, where, params } = locate(key);
    const n = params.length;
    await this.db.platform.query(
      `UPDATE ${table} SET done = $${n + 1}, total = coalesce($${n + 2}, total), updated_at = now() WHERE ${where}`,
      [...params, done, total],
    );
  }

  async complete(key: JobKey, result: unknown): Promise<void> {
    const { table, where, params } = locate(key);
    await this.db.platform.query(
      `UPDATE ${table} SET status = 'done', result = $${params.length + 1}, locked_until = NULL, last_error = NULL, finished_at = now(), updated_at = now() WHERE ${where}`,
      [...params, result === undefined ? null : JSON.stringify(result)],
    );
  }

  /** Records a failed run: queued again at `retryAt`, or `failed` for good when it is null. */
  async fail(key: JobKey, error: string, retryAt: Date | null): Promise<void> {
    const { table, where, params } = locate(key);
    const [message, retry] = [`$${params.length + 1}`, `$${params.length + 2}::timestamptz`];
    await this.db.platform.query(
      `UPDATE ${table}
          SET status = CASE WHEN ${retry} IS NULL THEN 'failed' ELSE 'queued' END,
              run_at = coalesce(${retry}, run_at), last_error = ${message}, locked_until = NULL, updated_at = now(),
              finished_at = CASE WHEN ${retry} IS NULL THEN now() END
        WHERE ${where}`,
      [...params, error.slice(0, 2000), retryAt],
    );
  }

  /**
   * Live jobs of both tables whose time came at least `overdueMs` ago (queued, or running on a
   * lapsed lease), oldest first; only of `kinds` when given (a process polls for the work it can do).
   */
  due(overdueMs: number, limit: number, kinds?: string[]): Promise<DueJob[]> {
    return this.db.platform.query(
      `${DUE('platform_jobs', 'NULL::uuid')} UNION ALL ${DUE('background_jobs', 'tenant_id')} ORDER BY run_at LIMIT $2`,
      [overdueMs, limit, kinds ?? null],
    );
  }
}
