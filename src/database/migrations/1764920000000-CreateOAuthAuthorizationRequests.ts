import { MigrationInterface, QueryRunner } from 'typeorm';
import { allowPlatformAccess, isolateTenantTable } from '../app-role';

/**
 * The browser side of `GET /v1/oauth/authorize` (CONTRACT §14):
 * - `oauth_authorization_requests`: a validated authorization request kept on the server while the
 *   staff member signs in and consents (10 minutes). The pages carry only a random handle; the row
 *   keeps the SHA-256 of that handle, of the form's CSRF token and of the browser cookie the
 *   request is bound to. The pages know only the handle, hence `platform_access` (like a bearer
 *   token lookup); once the church is known the row is written inside its transaction.
 * - `oauth_sign_in_failures`: failed sign-ins, counted per account (church + SHA-256 of the
 *   lower-cased e-mail) and per client address (its SHA-256) over a sliding window. Platform-only:
 *   the application role has no grant.
 */
export class CreateOAuthAuthorizationRequests1764920000000 implements MigrationInterface {
  name = 'CreateOAuthAuthorizationRequests1764920000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE oauth_authorization_requests (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         handle_hash bytea NOT NULL,
         csrf_hash bytea NOT NULL,
         browser_hash bytea NOT NULL,
         client_id uuid NOT NULL,
         redirect_uri text NOT NULL,
         scopes text[] NOT NULL,
         state text,
         code_challenge text NOT NULL,
         user_id uuid,
         granted_scopes text[],
         signed_in_at timestamptz(3),
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         expires_at timestamptz(3) NOT NULL,
         finished_at timestamptz(3),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, client_id) REFERENCES oauth_clients (tenant_id, id),
         FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id)
       )`,
      `CREATE UNIQUE INDEX oauth_authorization_requests_handle_key ON oauth_authorization_requests (tenant_id, handle_hash)`,
      // The pages' look-up by handle, before the church is known (as api_tokens_hash_idx).
      `CREATE INDEX oauth_authorization_requests_handle_idx ON oauth_authorization_requests (handle_hash)`,
      // Clean-up of expired requests (a few at a time, by each new request).
      `CREATE INDEX oauth_authorization_requests_expires_idx ON oauth_authorization_requests (expires_at)`,
      ...isolateTenantTable('oauth_authorization_requests'),
      allowPlatformAccess('oauth_authorization_requests'),

      `CREATE TABLE oauth_sign_in_failures (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id bigint GENERATED ALWAYS AS IDENTITY,
         account text NOT NULL,
         address text NOT NULL,
         failed_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id)
       )`,
      `CREATE INDEX oauth_sign_in_failures_account_idx ON oauth_sign_in_failures (tenant_id, account, failed_at)`,
      `CREATE INDEX oauth_sign_in_failures_address_idx ON oauth_sign_in_failures (address, failed_at)`,
      `CREATE INDEX oauth_sign_in_failures_failed_idx ON oauth_sign_in_failures (failed_at)`,
      // Isolated like every church table (no grant to the application role: the pages count failures on the platform role).
      ...isolateTenantTable('oauth_sign_in_failures').filter((sql) => !sql.startsWith('GRANT')),
      allowPlatformAccess('oauth_sign_in_failures'),
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['oauth_sign_in_failures', 'oauth_authorization_requests'])
      await q.query(`DROP TABLE IF EXISTS ${table}`);
  }
}
