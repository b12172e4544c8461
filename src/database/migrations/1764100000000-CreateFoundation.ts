import { MigrationInterface, QueryRunner } from 'typeorm';
import { allowPlatformAccess, APP_ROLE, isolateTenantTable } from '../app-role';

/** Tenants, staff users, API tokens, campuses and members, with row-level security. */
export class CreateFoundation1764100000000 implements MigrationInterface {
  name = 'CreateFoundation1764100000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `DO $$ BEGIN
         IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${APP_ROLE}') THEN CREATE ROLE ${APP_ROLE} NOLOGIN NOBYPASSRLS; END IF;
       END $$`,
      `DO $$ BEGIN
         EXECUTE format('GRANT ${APP_ROLE} TO %I', current_user);
       EXCEPTION WHEN others THEN NULL;
       END $$`,
      `GRANT USAGE ON SCHEMA public TO ${APP_ROLE}`,

      `CREATE TABLE tenants (
         id uuid PRIMARY KEY,
         slug text NOT NULL,
         name text NOT NULL,
         plan text NOT NULL DEFAULT 'starter' CHECK (plan IN ('starter', 'growth', 'business', 'enterprise')),
         status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now()
       )`,
      `CREATE UNIQUE INDEX tenants_slug_key ON tenants (slug)`,
      `ALTER TABLE tenants ENABLE ROW LEVEL SECURITY`,
      `ALTER TABLE tenants FORCE ROW LEVEL SECURITY`,
      `CREATE POLICY tenant_isolation ON tenants USING (id = nullif(current_setting('app.tenant_id', true), '')::uuid)`,
      allowPlatformAccess('tenants'),
      `GRANT SELECT ON tenants TO ${APP_ROLE}`,

      `CREATE TABLE users (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         email text NOT NULL,
         name text,
         role text NOT NULL CHECK (role IN ('org_admin', 'staff', 'finance', 'group_leader', 'volunteer')),
         password_hash text,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id)
       )`,
      `CREATE UNIQUE INDEX users_tenant_email_key ON users (tenant_id, lower(email))`,
      ...isolateTenantTable('users'),
      allowPlatformAccess('users'),

      `CREATE TABLE api_tokens (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         type text NOT NULL CHECK (type IN ('pat', 'service', 'kiosk', 'oauth')),
         name text NOT NULL,
         scopes text[] NOT NULL,
         token_hash bytea NOT NULL,
         token_prefix text NOT NULL,
         last4 text NOT NULL,
         user_id uuid,
         created_by uuid,
         device_id uuid,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         expires_at timestamptz(3),
         revoked_at timestamptz(3),
         last_used_at timestamptz(3),
         expiry_notified_at timestamptz(3),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id),
         FOREIGN KEY (tenant_id, created_by) REFERENCES users (tenant_id, id)
       )`,
      `CREATE UNIQUE INDEX api_tokens_tenant_hash_key ON api_tokens (tenant_id, token_hash)`,
      // The bearer lookup knows only the hash; one index probe finds the token and then its church.
      `CREATE INDEX api_tokens_hash_idx ON api_tokens (token_hash)`,
      `CREATE INDEX api_tokens_tenant_created_idx ON api_tokens (tenant_id, created_at, id)`,
      ...isolateTenantTable('api_tokens'),
      allowPlatformAccess('api_tokens'),

      `CREATE TABLE campuses (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         key text NOT NULL,
         name text NOT NULL,
         timezone text,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id)
       )`,
      `CREATE UNIQUE INDEX campuses_tenant_key_key ON campuses (tenant_id, key)`,
      `CREATE INDEX campuses_tenant_created_idx ON campuses (tenant_id, created_at, id)`,
      `CREATE INDEX campuses_tenant_name_idx ON campuses (tenant_id, name, id)`,
      ...isolateTenantTable('campuses'),

      `CREATE TABLE members (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         first_name text NOT NULL,
         last_name text NOT NULL,
         email text,
         phone text,
         birthdate date,
         gender text CHECK (gender IN ('male', 'female', 'unspecified')),
         status text NOT NULL DEFAULT 'visitor' CHECK (status IN ('visitor', 'regular', 'member', 'leader')),
         campus_id uuid,
         active boolean NOT NULL DEFAULT true,
         household_id uuid,
         address jsonb,
         custom_fields jsonb NOT NULL DEFAULT '{}'::jsonb,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         deleted_at timestamptz(3),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, campus_id) REFERENCES campuses (tenant_id, id)
       )`,
      // Keyset pagination: one index per sortable field, (tenant_id, field, id), over live rows.
      `CREATE INDEX members_tenant_created_idx ON members (tenant_id, created_at, id) WHERE deleted_at IS NULL`,
      `CREATE INDEX members_tenant_last_name_idx ON members (tenant_id, last_name, id) WHERE deleted_at IS NULL`,
      `CREATE INDEX members_tenant_first_name_idx ON members (tenant_id, first_name, id) WHERE deleted_at IS NULL`,
      `CREATE INDEX members_tenant_birthdate_idx ON members (tenant_id, birthdate, id) WHERE deleted_at IS NULL`,
      `CREATE INDEX members_tenant_campus_idx ON members (tenant_id, campus_id, created_at, id) WHERE deleted_at IS NULL`,
      `CREATE INDEX members_tenant_email_idx ON members (tenant_id, lower(email)) WHERE deleted_at IS NULL`,
      ...isolateTenantTable('members'),
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['members', 'campuses', 'api_tokens', 'users', 'tenants'])
      await q.query(`DROP TABLE IF EXISTS ${table}`);
  }
}
