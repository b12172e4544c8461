import { MigrationInterface, QueryRunner } from 'typeorm';
import { allowPlatformAccess, APP_ROLE, isolateTenantTable } from '../app-role';

/**
 * The mail outbox becomes church data (CONTRACT §21): every mail carries the church it is for,
 * its key leads with tenant_id like every church table's, and row-level security lets the app
 * role add mails of its own church only (the mail job reads them on the platform's role). Sent
 * mails are deleted after 30 days (the daily `mail-retention` job, found by the sent_at index).
 * Mails written before this name no church and cannot be placed under one: they are deleted (in
 * development they were logged; the jobs that would send them find no mail and stop).
 */
export class IsolateMailOutbox1765110000000 implements MigrationInterface {
  name = 'IsolateMailOutbox1765110000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `DELETE FROM mail_outbox`,
      `ALTER TABLE mail_outbox ADD COLUMN tenant_id uuid NOT NULL REFERENCES tenants (id)`,
      `ALTER TABLE mail_outbox DROP CONSTRAINT mail_outbox_pkey`,
      `ALTER TABLE mail_outbox ADD PRIMARY KEY (tenant_id, id)`,
      `DROP INDEX IF EXISTS mail_outbox_created_idx`,
      `CREATE INDEX mail_outbox_tenant_created_idx ON mail_outbox (tenant_id, created_at)`,
      `CREATE INDEX mail_outbox_sent_idx ON mail_outbox (sent_at) WHERE sent_at IS NOT NULL`,
      `REVOKE INSERT ON mail_outbox FROM ${APP_ROLE}`,
      ...isolateTenantTable('mail_outbox', 'INSERT'),
      allowPlatformAccess('mail_outbox'),
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    const statements = [
      `DROP POLICY IF EXISTS platform_access ON mail_outbox`,
      `DROP POLICY IF EXISTS tenant_isolation ON mail_outbox`,
      `ALTER TABLE mail_outbox NO FORCE ROW LEVEL SECURITY`,
      `ALTER TABLE mail_outbox DISABLE ROW LEVEL SECURITY`,
      `DROP INDEX IF EXISTS mail_outbox_sent_idx`,
      `DROP INDEX IF EXISTS mail_outbox_tenant_created_idx`,
      `ALTER TABLE mail_outbox DROP CONSTRAINT mail_outbox_pkey`,
      `ALTER TABLE mail_outbox ADD PRIMARY KEY (id)`,
      `ALTER TABLE mail_outbox DROP COLUMN tenant_id`,
      `CREATE INDEX mail_outbox_created_idx ON mail_outbox (created_at)`,
      `GRANT INSERT ON mail_outbox TO ${APP_ROLE}`,
    ];
    for (const sql of statements) await q.query(sql);
  }
}
