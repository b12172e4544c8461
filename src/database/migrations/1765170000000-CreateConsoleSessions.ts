import { MigrationInterface, QueryRunner } from 'typeorm';
import { allowPlatformAccess, isolateTenantTable } from '../app-role';

/**
 * The settings console's sessions (CONTRACT §20): one row per signed-in browser, kept on the server
 * so that signing out, and removing the staff member (ON DELETE CASCADE), end it at once. The
 * browser holds a random value in the `__Host-console` cookie; the row keeps its SHA-256, and the
 * SHA-256 of the session's CSRF token. The cookie is read before the church is known, hence
 * `platform_access` (like a bearer token's look-up); everything else runs in the church's
 * transaction, under row-level security like every church table.
 */
export class CreateConsoleSessions1765170000000 implements MigrationInterface {
  name = 'CreateConsoleSessions1765170000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE console_sessions (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         cookie_hash bytea NOT NULL,
         csrf_hash bytea NOT NULL,
         user_id uuid NOT NULL,
         created_at timestamptz(3) NOT NULL,
         last_seen_at timestamptz(3) NOT NULL,
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
       )`,
      `CREATE UNIQUE INDEX console_sessions_cookie_key ON console_sessions (tenant_id, cookie_hash)`,
      // The look-up by cookie, before the church is known (as api_tokens_hash_idx).
      `CREATE INDEX console_sessions_cookie_idx ON console_sessions (cookie_hash)`,
      `CREATE INDEX console_sessions_user_idx ON console_sessions (tenant_id, user_id)`,
      // Clean-up of sessions past their idle or absolute limit (a few at a time, by each sign-in).
      `CREATE INDEX console_sessions_seen_idx ON console_sessions (last_seen_at)`,
      ...isolateTenantTable('console_sessions'),
      allowPlatformAccess('console_sessions'),
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS console_sessions`);
  }
}
