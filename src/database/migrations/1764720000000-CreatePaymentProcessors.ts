import { MigrationInterface, QueryRunner } from 'typeorm';
import { isolateTenantTable } from '../app-role';

/**
 * The payment processor a church connects (CONTRACT §12) and the processor events it has received.
 *
 * `payment_processors`: at most one per church (unique on tenant_id); the API key and the
 * endpoint's `whsec_` signing secret are sealed with SecretBox (AES-256-GCM), never stored in clear.
 *
 * `processor_events`: one row per processor event id per church. The unique index is what makes a
 * replayed event — or twenty identical ones at once — take effect once: the first insert wins, the
 * others wait for its transaction and then find the row. `outcome` says what the event did.
 */
export class CreatePaymentProcessors1764720000000 implements MigrationInterface {
  name = 'CreatePaymentProcessors1764720000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE payment_processors (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         provider text NOT NULL CHECK (provider IN ('stripe')),
         api_key_sealed bytea NOT NULL,
         webhook_secret_sealed bytea NOT NULL,
         endpoint_id text NOT NULL,
         account_last4 text NOT NULL,
         connected_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id)
       )`,
      `CREATE UNIQUE INDEX payment_processors_tenant_key ON payment_processors (tenant_id)`,
      ...isolateTenantTable('payment_processors'),

      `CREATE TABLE processor_events (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         provider text NOT NULL,
         event_id text NOT NULL,
         type text NOT NULL,
         object_id text,
         outcome text NOT NULL CHECK (outcome IN ('processed', 'ignored', 'unmatched', 'rejected')),
         detail text,
         payload jsonb NOT NULL,
         received_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id)
       )`,
      `CREATE UNIQUE INDEX processor_events_tenant_event_key ON processor_events (tenant_id, event_id)`,
      ...isolateTenantTable('processor_events', 'SELECT, INSERT, UPDATE'),
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS processor_events`);
    await q.query(`DROP TABLE IF EXISTS payment_processors`);
  }
}
