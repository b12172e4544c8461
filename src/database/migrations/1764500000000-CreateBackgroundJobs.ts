import { MigrationInterface, QueryRunner } from 'typeorm';
import { allowPlatformAccess, isolateTenantTable } from '../app-role';

/** The columns of a job, in both tables. */
const JOB_COLUMNS = `
  kind text NOT NULL,
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  dedupe_key text,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
  total integer,
  done integer NOT NULL DEFAULT 0,
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL CHECK (max_attempts > 0),
  run_at timestamptz(3) NOT NULL DEFAULT now(),
  locked_until timestamptz(3),
  last_error text,
  result jsonb,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  finished_at timestamptz(3)`;

/**
 * Background jobs (the pattern of src/platform/jobs): one row per job, written in the transaction
 * that asks for it; BullMQ (or the in-process poller) only triggers it. A church's jobs are
 * tenant-owned like any resource; platform jobs (chores across churches, the mail outbox) have
 * their own table, which no church sees.
 * The mail outbox becomes a real outbox: every mail is a row, sent by a `mail` job with retries.
 */
export class CreateBackgroundJobs1764500000000 implements MigrationInterface {
  name = 'CreateBackgroundJobs1764500000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE background_jobs (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,${JOB_COLUMNS},
         PRIMARY KEY (tenant_id, id)
       )`,
      `CREATE UNIQUE INDEX background_jobs_tenant_kind_dedupe_key ON background_jobs (tenant_id, kind, dedupe_key) WHERE dedupe_key IS NOT NULL`,
      `CREATE INDEX background_jobs_tenant_created_idx ON background_jobs (tenant_id, created_at, id)`,
      // The poller's and the sweeper's scan across churches: only live rows, by due time.
      `CREATE INDEX background_jobs_due_idx ON background_jobs (run_at) WHERE status IN ('queued', 'running')`,
      ...isolateTenantTable('background_jobs', 'SELECT, INSERT'),
      allowPlatformAccess('background_jobs'),

      `CREATE TABLE platform_jobs (
         id uuid PRIMARY KEY,${JOB_COLUMNS}
       )`,
      `CREATE UNIQUE INDEX platform_jobs_kind_dedupe_key ON platform_jobs (kind, dedupe_key) WHERE dedupe_key IS NOT NULL`,
      `CREATE INDEX platform_jobs_due_idx ON platform_jobs (run_at) WHERE status IN ('queued', 'running')`,

      `ALTER TABLE mail_outbox ADD COLUMN sent_at timestamptz(3)`,
      `ALTER TABLE mail_outbox ADD COLUMN transport text`,
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE mail_outbox DROP COLUMN IF EXISTS sent_at, DROP COLUMN IF EXISTS transport`);
    await q.query(`DROP TABLE IF EXISTS platform_jobs`);
    await q.query(`DROP TABLE IF EXISTS background_jobs`);
  }
}
