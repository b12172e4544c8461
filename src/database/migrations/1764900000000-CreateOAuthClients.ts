import { MigrationInterface, QueryRunner } from 'typeorm';
import { allowPlatformAccess, isolateTenantTable } from '../app-role';

/**
 * OAuth 2.0 clients (CONTRACT §14), public id `app_…`. A confidential client has a secret (its
 * SHA-256 only, plus the last 4 characters for display); a public one has none (the CHECK holds it).
 * The authorize and token endpoints know only the client id, not the church: `oauth_clients_id_idx`
 * finds the client (and so its church) on the pool's own role (platform_access), as the bearer
 * lookup finds a token.
 */
export class CreateOAuthClients1764900000000 implements MigrationInterface {
  name = 'CreateOAuthClients1764900000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE oauth_clients (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         name text NOT NULL,
         type text NOT NULL CHECK (type IN ('public', 'confidential')),
         redirect_uris text[] NOT NULL,
         scopes text[] NOT NULL,
         secret_hash bytea,
         secret_last4 text,
         created_by uuid,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         deleted_at timestamptz(3),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, created_by) REFERENCES users (tenant_id, id),
         CONSTRAINT oauth_clients_secret_check CHECK ((type = 'confidential') = (secret_hash IS NOT NULL))
       )`,
      `CREATE INDEX oauth_clients_id_idx ON oauth_clients (id)`,
      `CREATE INDEX oauth_clients_tenant_created_idx ON oauth_clients (tenant_id, created_at, id) WHERE deleted_at IS NULL`,
      `CREATE INDEX oauth_clients_tenant_name_idx ON oauth_clients (tenant_id, name, id) WHERE deleted_at IS NULL`,
      ...isolateTenantTable('oauth_clients'),
      allowPlatformAccess('oauth_clients'),
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS oauth_clients`);
  }
}
