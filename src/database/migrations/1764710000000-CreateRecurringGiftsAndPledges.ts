import { MigrationInterface, QueryRunner } from 'typeorm';
import { isolateTenantTable } from '../app-role';

/**
 * Recurring gifts and pledges (CONTRACT §12). Amounts are integers in the currency's minor unit
 * (the currency table lives in the code, src/common/money); `next_charge_on`, `given` and
 * `remaining` are computed when read, never stored. Neither table is ever deleted from by the app:
 * a recurring gift is canceled (its donations keep pointing at it), a pledge is soft-deleted.
 * Donations gain the foreign key of their `recurring_gift_id`.
 */
export class CreateRecurringGiftsAndPledges1764710000000 implements MigrationInterface {
  name = 'CreateRecurringGiftsAndPledges1764710000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE recurring_gifts (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         donor_id uuid NOT NULL,
         fund_id uuid NOT NULL,
         amount bigint NOT NULL CHECK (amount > 0 AND amount <= 100000000),
         currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
         interval text NOT NULL CHECK (interval IN ('week', 'two_weeks', 'month', 'quarter', 'year')),
         start_on date NOT NULL,
         end_on date,
         status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused', 'canceled')),
         canceled_at timestamptz(3),
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, donor_id) REFERENCES members (tenant_id, id),
         FOREIGN KEY (tenant_id, fund_id) REFERENCES funds (tenant_id, id),
         CONSTRAINT recurring_gifts_window_check CHECK (end_on IS NULL OR end_on >= start_on),
         CONSTRAINT recurring_gifts_canceled_check CHECK ((status = 'canceled') = (canceled_at IS NOT NULL))
       )`,
      // Keyset pagination (created_at, start_on) and the list filters that narrow most: donor, fund, status.
      `CREATE INDEX recurring_gifts_tenant_created_idx ON recurring_gifts (tenant_id, created_at, id)`,
      `CREATE INDEX recurring_gifts_tenant_start_idx ON recurring_gifts (tenant_id, start_on, id)`,
      `CREATE INDEX recurring_gifts_tenant_donor_idx ON recurring_gifts (tenant_id, donor_id, created_at, id)`,
      `CREATE INDEX recurring_gifts_tenant_fund_idx ON recurring_gifts (tenant_id, fund_id, created_at, id)`,
      `CREATE INDEX recurring_gifts_tenant_status_idx ON recurring_gifts (tenant_id, status, created_at, id)`,
      ...isolateTenantTable('recurring_gifts', 'SELECT, INSERT, UPDATE'),

      `CREATE TABLE pledges (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         donor_id uuid NOT NULL,
         fund_id uuid NOT NULL,
         amount bigint NOT NULL CHECK (amount > 0 AND amount <= 100000000),
         currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
         starts_on date NOT NULL,
         ends_on date NOT NULL,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         deleted_at timestamptz(3),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, donor_id) REFERENCES members (tenant_id, id),
         FOREIGN KEY (tenant_id, fund_id) REFERENCES funds (tenant_id, id),
         CONSTRAINT pledges_window_check CHECK (ends_on >= starts_on)
       )`,
      `CREATE INDEX pledges_tenant_created_idx ON pledges (tenant_id, created_at, id) WHERE deleted_at IS NULL`,
      `CREATE INDEX pledges_tenant_ends_idx ON pledges (tenant_id, ends_on, id) WHERE deleted_at IS NULL`,
      `CREATE INDEX pledges_tenant_donor_idx ON pledges (tenant_id, donor_id, created_at, id) WHERE deleted_at IS NULL`,
      `CREATE INDEX pledges_tenant_fund_idx ON pledges (tenant_id, fund_id, created_at, id) WHERE deleted_at IS NULL`,
      ...isolateTenantTable('pledges', 'SELECT, INSERT, UPDATE'),

      // A processor charge of a recurring gift records its donation with recurring_gift_id (indexed by
      // the giving migration: donations_tenant_recurring_idx).
      `ALTER TABLE donations ADD CONSTRAINT donations_recurring_gift_fkey FOREIGN KEY (tenant_id, recurring_gift_id) REFERENCES recurring_gifts (tenant_id, id)`,
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE donations DROP CONSTRAINT IF EXISTS donations_recurring_gift_fkey`);
    await q.query(`DROP TABLE IF EXISTS pledges`);
    await q.query(`DROP TABLE IF EXISTS recurring_gifts`);
  }
}
