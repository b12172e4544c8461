import { MigrationInterface, QueryRunner } from 'typeorm';
import { allowPlatformAccess, isolateTenantTable } from '../app-role';

/** The event outbox, webhook endpoints, deliveries and their attempts. */
export class CreateWebhooks1764300000000 implements MigrationInterface {
  name = 'CreateWebhooks1764300000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE webhook_events (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         type text NOT NULL,
         payload json NOT NULL, -- json, not jsonb: keeps the envelope's field order
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id)
       )`,
      `CREATE INDEX webhook_events_tenant_created_idx ON webhook_events (tenant_id, created_at, id)`,
      `CREATE INDEX webhook_events_tenant_type_created_idx ON webhook_events (tenant_id, type, created_at, id)`,
      ...isolateTenantTable('webhook_events', 'SELECT, INSERT'),
      allowPlatformAccess('webhook_events'),

      `CREATE TABLE webhook_endpoints (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         url text NOT NULL,
         description text,
         events text[] NOT NULL,
         filters jsonb NOT NULL DEFAULT '[]'::jsonb,
         status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
         disabled_reason text,
         secret_sealed bytea NOT NULL,
         previous_secret_sealed bytea,
         previous_secret_expires_at timestamptz(3),
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id)
       )`,
      `CREATE INDEX webhook_endpoints_tenant_created_idx ON webhook_endpoints (tenant_id, created_at, id)`,
      ...isolateTenantTable('webhook_endpoints'),
      allowPlatformAccess('webhook_endpoints'),

      `CREATE TABLE webhook_deliveries (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         endpoint_id uuid NOT NULL,
         event_id uuid NOT NULL,
         status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed', 'canceled')),
         attempts integer NOT NULL DEFAULT 0,
         next_attempt_at timestamptz(3),
         last_status_code integer,
         last_error text,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, endpoint_id) REFERENCES webhook_endpoints (tenant_id, id) ON DELETE CASCADE,
         FOREIGN KEY (tenant_id, event_id) REFERENCES webhook_events (tenant_id, id)
       )`,
      `CREATE INDEX webhook_deliveries_tenant_endpoint_idx ON webhook_deliveries (tenant_id, endpoint_id, created_at, id)`,
      // The sweeper's scan across churches: only pending rows, by due time.
      `CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
      ...isolateTenantTable('webhook_deliveries'),
      allowPlatformAccess('webhook_deliveries'),

      `CREATE TABLE webhook_attempts (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         delivery_id uuid NOT NULL,
         endpoint_id uuid NOT NULL,
         event_id uuid NOT NULL,
         attempt integer NOT NULL,
         status_code integer,
         duration_ms integer NOT NULL,
         error text,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, endpoint_id) REFERENCES webhook_endpoints (tenant_id, id) ON DELETE CASCADE
       )`,
      `CREATE INDEX webhook_attempts_tenant_endpoint_idx ON webhook_attempts (tenant_id, endpoint_id, created_at, id)`,
      ...isolateTenantTable('webhook_attempts', 'SELECT, INSERT'),
      allowPlatformAccess('webhook_attempts'),
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhook_endpoints', 'webhook_events'])
      await q.query(`DROP TABLE IF EXISTS ${table}`);
  }
}
