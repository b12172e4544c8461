import { MigrationInterface, QueryRunner } from 'typeorm';
import { isolateTenantTable } from '../app-role';

/**
 * Giving (CONTRACT §12): funds, batches, donations and the history of their refunds.
 *
 * Money is an integer of minor units (bigint) with an ISO 4217 code; the allowed codes live in
 * src/common/money/currencies.ts (checked by the API, not by a CHECK here, so that adding a
 * currency needs no migration). A donation's `refunded_amount` is the running sum of its refunds,
 * updated under the donation's row lock; the CHECK makes over-refunding impossible even for a bug.
 * `recurring_gift_id` has no foreign key here: the recurring gifts migration adds it.
 */
export class CreateGiving1764700000000 implements MigrationInterface {
  name = 'CreateGiving1764700000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE funds (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         name text NOT NULL,
         description text,
         ledger_code text,
         active boolean NOT NULL DEFAULT true,
         tax_deductible boolean NOT NULL DEFAULT true,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id)
       )`,
      `CREATE UNIQUE INDEX funds_tenant_name_key ON funds (tenant_id, lower(name))`,
      `CREATE INDEX funds_tenant_created_idx ON funds (tenant_id, created_at, id)`,
      `CREATE INDEX funds_tenant_name_idx ON funds (tenant_id, name, id)`,

      `CREATE TABLE batches (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         description text NOT NULL,
         expected_total bigint CHECK (expected_total >= 0),
         currency text NOT NULL,
         status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'committed')),
         committed_at timestamptz(3),
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id),
         CONSTRAINT batches_committed_check CHECK ((status = 'committed') = (committed_at IS NOT NULL))
       )`,
      `CREATE INDEX batches_tenant_created_idx ON batches (tenant_id, created_at, id)`,
      `CREATE INDEX batches_tenant_status_idx ON batches (tenant_id, status, created_at, id)`,

      `CREATE TABLE donations (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         amount bigint NOT NULL CHECK (amount > 0 AND amount <= 100000000),
         currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
         fund_id uuid NOT NULL,
         donor_id uuid,
         campus_id uuid,
         method text NOT NULL CHECK (method IN ('cash', 'check', 'card', 'ach', 'online', 'other')),
         check_number text,
         received_at timestamptz(3) NOT NULL,
         note text,
         status text NOT NULL CHECK (status IN ('succeeded', 'pending', 'refunded', 'partially_refunded', 'disputed', 'failed')),
         batch_id uuid,
         recurring_gift_id uuid,
         processor_id text,
         refunded_amount bigint NOT NULL DEFAULT 0,
         dispute jsonb,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, fund_id) REFERENCES funds (tenant_id, id),
         FOREIGN KEY (tenant_id, donor_id) REFERENCES members (tenant_id, id),
         FOREIGN KEY (tenant_id, campus_id) REFERENCES campuses (tenant_id, id),
         FOREIGN KEY (tenant_id, batch_id) REFERENCES batches (tenant_id, id),
         CONSTRAINT donations_refunded_check CHECK (refunded_amount >= 0 AND refunded_amount <= amount),
         -- Received at most 5 minutes (a client's clock skew) after it is entered: the donations list
         -- relies on it to bound created_at by a received_at filter (DonationsRepository.list).
         CONSTRAINT donations_received_check CHECK (received_at <= created_at + interval '5 minutes')
       )`,
      // A processor payment is recorded once, whatever the number of deliveries of its event.
      `CREATE UNIQUE INDEX donations_tenant_processor_key ON donations (tenant_id, processor_id) WHERE processor_id IS NOT NULL`,
      // Keyset pagination: one index per sort (tenant_id, field, id); a filter's index leads with
      // it, then the received_at order (fund and donor pages over 1,000,000 rows read a range).
      `CREATE INDEX donations_tenant_created_idx ON donations (tenant_id, created_at, id)`,
      `CREATE INDEX donations_tenant_received_idx ON donations (tenant_id, received_at, id)`,
      `CREATE INDEX donations_tenant_amount_idx ON donations (tenant_id, amount, id)`,
      `CREATE INDEX donations_tenant_updated_idx ON donations (tenant_id, updated_at, id)`,
      `CREATE INDEX donations_tenant_fund_received_idx ON donations (tenant_id, fund_id, received_at, id)`,
      `CREATE INDEX donations_tenant_donor_received_idx ON donations (tenant_id, donor_id, received_at, id) WHERE donor_id IS NOT NULL`,
      `CREATE INDEX donations_tenant_campus_received_idx ON donations (tenant_id, campus_id, received_at, id) WHERE campus_id IS NOT NULL`,
      `CREATE INDEX donations_tenant_batch_idx ON donations (tenant_id, batch_id, created_at, id) WHERE batch_id IS NOT NULL`,
      `CREATE INDEX donations_tenant_recurring_idx ON donations (tenant_id, recurring_gift_id, received_at, id) WHERE recurring_gift_id IS NOT NULL`,
      // The rarer states (pending, refunds, disputes, failures) are read by status; succeeded is most rows.
      `CREATE INDEX donations_tenant_status_idx ON donations (tenant_id, status, received_at, id) WHERE status <> 'succeeded'`,

      `CREATE TABLE donation_refunds (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         donation_id uuid NOT NULL,
         amount bigint NOT NULL CHECK (amount > 0),
         processor_refund_id text,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, donation_id) REFERENCES donations (tenant_id, id)
       )`,
      `CREATE INDEX donation_refunds_tenant_donation_idx ON donation_refunds (tenant_id, donation_id, created_at)`,
      // A processor refund is recorded once, whatever the number of deliveries of its event.
      `CREATE UNIQUE INDEX donation_refunds_tenant_processor_key ON donation_refunds (tenant_id, processor_refund_id) WHERE processor_refund_id IS NOT NULL`,

      ...isolateTenantTable('funds'),
      ...isolateTenantTable('batches'),
      ...isolateTenantTable('donations'),
      ...isolateTenantTable('donation_refunds'),
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['donation_refunds', 'donations', 'batches', 'funds'])
      await q.query(`DROP TABLE IF EXISTS ${table}`);
  }
}
