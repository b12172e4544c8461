import { MigrationInterface, QueryRunner } from 'typeorm';
import { isolateTenantTable } from '../app-role';

/**
 * What an OAuth client holds for a staff member (CONTRACT §14):
 * - `oauth_grants`: one per consent, the family of every token issued from it; revoking it revokes
 *   them all.
 * - `oauth_codes`: authorization codes (SHA-256 of the value), valid 10 minutes, once; `grant_id`
 *   is what the exchange issued, so that a replay revokes it.
 * - `oauth_refresh_tokens`: rotating refresh tokens (`chr_`, SHA-256), 30 days; `rotated_at` and
 *   `replaced_by` mark a used one (reuse after the grace revokes the grant).
 * - access tokens are `api_tokens` rows of type 'oauth'; `api_tokens.grant_id` ties them to their
 *   grant.
 * The token endpoint knows the client, hence the church, before it reads any of these: they are
 * read inside the church's transaction (row-level security), never on the platform role.
 */
export class CreateOAuthGrants1764910000000 implements MigrationInterface {
  name = 'CreateOAuthGrants1764910000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE oauth_grants (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         client_id uuid NOT NULL,
         user_id uuid NOT NULL,
         scopes text[] NOT NULL,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         revoked_at timestamptz(3),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, client_id) REFERENCES oauth_clients (tenant_id, id),
         FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id)
       )`,
      // A staff member's authorized apps, and the grants of one client (client deletion).
      `CREATE INDEX oauth_grants_tenant_user_client_idx ON oauth_grants (tenant_id, user_id, client_id) WHERE revoked_at IS NULL`,
      `CREATE INDEX oauth_grants_tenant_client_idx ON oauth_grants (tenant_id, client_id) WHERE revoked_at IS NULL`,
      ...isolateTenantTable('oauth_grants'),

      `CREATE TABLE oauth_codes (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         code_hash bytea NOT NULL,
         client_id uuid NOT NULL,
         user_id uuid NOT NULL,
         scopes text[] NOT NULL,
         redirect_uri text NOT NULL,
         code_challenge text NOT NULL,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         expires_at timestamptz(3) NOT NULL,
         used_at timestamptz(3),
         grant_id uuid,
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, client_id) REFERENCES oauth_clients (tenant_id, id),
         FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id),
         FOREIGN KEY (tenant_id, grant_id) REFERENCES oauth_grants (tenant_id, id)
       )`,
      `CREATE UNIQUE INDEX oauth_codes_tenant_hash_key ON oauth_codes (tenant_id, code_hash)`,
      `CREATE INDEX oauth_codes_tenant_expires_idx ON oauth_codes (tenant_id, expires_at)`,
      ...isolateTenantTable('oauth_codes'),

      `CREATE TABLE oauth_refresh_tokens (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         token_hash bytea NOT NULL,
         grant_id uuid NOT NULL,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         expires_at timestamptz(3) NOT NULL,
         rotated_at timestamptz(3),
         replaced_by uuid,
         revoked_at timestamptz(3),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, grant_id) REFERENCES oauth_grants (tenant_id, id),
         FOREIGN KEY (tenant_id, replaced_by) REFERENCES oauth_refresh_tokens (tenant_id, id)
       )`,
      `CREATE UNIQUE INDEX oauth_refresh_tokens_tenant_hash_key ON oauth_refresh_tokens (tenant_id, token_hash)`,
      `CREATE INDEX oauth_refresh_tokens_tenant_grant_idx ON oauth_refresh_tokens (tenant_id, grant_id)`,
      ...isolateTenantTable('oauth_refresh_tokens'),

      `ALTER TABLE api_tokens ADD COLUMN grant_id uuid`,
      `ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_grant_fk FOREIGN KEY (tenant_id, grant_id) REFERENCES oauth_grants (tenant_id, id)`,
      `ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_grant_check CHECK ((type = 'oauth') = (grant_id IS NOT NULL))`,
      `CREATE INDEX api_tokens_tenant_grant_idx ON api_tokens (tenant_id, grant_id) WHERE grant_id IS NOT NULL`,
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS api_tokens_tenant_grant_idx`);
    await q.query(`ALTER TABLE api_tokens DROP CONSTRAINT IF EXISTS api_tokens_grant_check`);
    await q.query(`ALTER TABLE api_tokens DROP CONSTRAINT IF EXISTS api_tokens_grant_fk`);
    await q.query(`ALTER TABLE api_tokens DROP COLUMN IF EXISTS grant_id`);
    for (const table of ['oauth_refresh_tokens', 'oauth_codes', 'oauth_grants'])
      await q.query(`DROP TABLE IF EXISTS ${table}`);
  }
}
