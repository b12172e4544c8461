import { MigrationInterface, QueryRunner } from 'typeorm';
import { allowPlatformAccess, APP_ROLE, isolateTenantTable } from '../app-role';

/** Idempotency records, the audit log, church settings (CORS), quota overrides and kiosk devices. */
export class AddApiGuarantees1764200000000 implements MigrationInterface {
  name = 'AddApiGuarantees1764200000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE idempotency_keys (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         token_id uuid NOT NULL,
         key uuid NOT NULL,
         method text NOT NULL,
         path text NOT NULL,
         fingerprint bytea NOT NULL,
         status integer NOT NULL,
         -- the response, sealed (AES-GCM): a replayed answer may carry a secret shown once (a new token)
         body_sealed bytea,
         location text,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, token_id, key)
       )`,
      `CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)`,
      ...isolateTenantTable('idempotency_keys'),

      `CREATE TABLE audit_log (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         token_id uuid,
         token_name text,
         user_id uuid,
         action text NOT NULL,
         resource_type text,
         resource_id text,
         status integer NOT NULL,
         request_id text,
         ip inet,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id)
       )`,
      `CREATE INDEX audit_log_tenant_created_idx ON audit_log (tenant_id, created_at, id)`,
      ...isolateTenantTable('audit_log', 'SELECT, INSERT'),

      `CREATE TABLE tenant_settings (
         tenant_id uuid PRIMARY KEY REFERENCES tenants (id),
         cors_allowed_origins text[] NOT NULL DEFAULT '{}',
         updated_at timestamptz(3) NOT NULL DEFAULT now()
       )`,
      `CREATE INDEX tenant_settings_origins_idx ON tenant_settings USING gin (cors_allowed_origins)`,
      ...isolateTenantTable('tenant_settings'),
      // CORS preflights carry no X-Tenant: they are answered from every church's allowlist.
      allowPlatformAccess('tenant_settings'),

      `ALTER TABLE tenants ADD COLUMN quota_rpm integer, ADD COLUMN quota_per_day integer, ADD COLUMN quota_burst integer, ADD COLUMN quota_until timestamptz(3)`,

      `CREATE TABLE devices (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         name text NOT NULL,
         campus_id uuid,
         token_id uuid,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, campus_id) REFERENCES campuses (tenant_id, id)
       )`,
      `CREATE INDEX devices_tenant_created_idx ON devices (tenant_id, created_at, id)`,
      ...isolateTenantTable('devices'),
      `GRANT SELECT ON tenants TO ${APP_ROLE}`,
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['devices', 'tenant_settings', 'audit_log', 'idempotency_keys'])
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    await q.query(
      `ALTER TABLE tenants DROP COLUMN quota_rpm, DROP COLUMN quota_per_day, DROP COLUMN quota_burst, DROP COLUMN quota_until`,
    );
  }
}
