import { MigrationInterface, QueryRunner } from 'typeorm';
import { isolateTenantTable } from '../app-role';

/**
 * Year-end contribution statements (CONTRACT §12).
 *
 * - `statement_settings`: what a statement prints about the church besides its name (address, tax
 *   id, who signs) and in which language and time zone it is written (the year's bounds and the
 *   gifts' dates are read in that zone).
 * - `statement_runs`: one POST /v1/statements; its status, total and done mirror the background job
 *   that works it.
 * - `statements`: one per donor (or household giving jointly) and year, the PDF stored as issued.
 *   The unique (tenant_id, year, recipient_id) index is what makes a run resumable without
 *   duplicates: a run that starts again after a crash skips the recipients it already issued, and a
 *   later run of the same year re-issues the same statement (same id) in place.
 * - `statement_donors`: the members whose gifts a statement lists (one, or a household's donors),
 *   for `GET /v1/statements?donor_id=`.
 */
export class CreateStatements1764730000000 implements MigrationInterface {
  name = 'CreateStatements1764730000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE statement_settings (
         tenant_id uuid PRIMARY KEY REFERENCES tenants (id),
         language text NOT NULL DEFAULT 'es' CHECK (language IN ('es', 'en', 'pt')),
         timezone text NOT NULL DEFAULT 'UTC',
         address jsonb,
         tax_id text,
         signer_name text,
         signer_title text,
         updated_at timestamptz(3) NOT NULL DEFAULT now()
       )`,
      ...isolateTenantTable('statement_settings'),

      `CREATE TABLE statement_runs (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         year integer NOT NULL CHECK (year BETWEEN 1900 AND 9999),
         donor_ids uuid[],
         status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
         total integer CHECK (total >= 0),
         done integer NOT NULL DEFAULT 0 CHECK (done >= 0),
         last_error text,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         finished_at timestamptz(3),
         PRIMARY KEY (tenant_id, id)
       )`,
      `CREATE INDEX statement_runs_tenant_created_idx ON statement_runs (tenant_id, created_at, id)`,
      ...isolateTenantTable('statement_runs'),

      `CREATE TABLE statements (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         run_id uuid NOT NULL,
         year integer NOT NULL,
         member_id uuid,
         household_id uuid,
         recipient_id uuid GENERATED ALWAYS AS (coalesce(household_id, member_id)) STORED,
         recipient_name text NOT NULL,
         totals jsonb NOT NULL,
         gift_count integer NOT NULL CHECK (gift_count >= 0),
         pdf bytea NOT NULL,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, run_id) REFERENCES statement_runs (tenant_id, id),
         FOREIGN KEY (tenant_id, member_id) REFERENCES members (tenant_id, id),
         FOREIGN KEY (tenant_id, household_id) REFERENCES households (tenant_id, id),
         CONSTRAINT statements_recipient_check CHECK ((member_id IS NULL) <> (household_id IS NULL))
       )`,
      `CREATE UNIQUE INDEX statements_tenant_year_recipient_key ON statements (tenant_id, year, recipient_id)`,
      // A run's progress and its resume: the recipients it has issued.
      `CREATE INDEX statements_tenant_run_idx ON statements (tenant_id, run_id, recipient_id)`,
      // Keyset pagination (created_at, updated_at) and the year filter with the default sort.
      `CREATE INDEX statements_tenant_created_idx ON statements (tenant_id, created_at, id)`,
      `CREATE INDEX statements_tenant_updated_idx ON statements (tenant_id, updated_at, id)`,
      `CREATE INDEX statements_tenant_year_created_idx ON statements (tenant_id, year, created_at, id)`,
      ...isolateTenantTable('statements'),

      `CREATE TABLE statement_donors (
         tenant_id uuid NOT NULL,
         statement_id uuid NOT NULL,
         member_id uuid NOT NULL,
         PRIMARY KEY (tenant_id, statement_id, member_id),
         FOREIGN KEY (tenant_id, statement_id) REFERENCES statements (tenant_id, id) ON DELETE CASCADE,
         FOREIGN KEY (tenant_id, member_id) REFERENCES members (tenant_id, id)
       )`,
      `CREATE INDEX statement_donors_tenant_member_idx ON statement_donors (tenant_id, member_id, statement_id)`,
      ...isolateTenantTable('statement_donors'),
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['statement_donors', 'statements', 'statement_runs', 'statement_settings'])
      await q.query(`DROP TABLE IF EXISTS ${table}`);
  }
}
