import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox's append-only tables stop checking their church against `tenants` on every row.
 * Each such check locks the church's one `tenants` row (FOR KEY SHARE), so a bulk's 500 events and
 * the webhook worker's attempts queued on that row (a MultiXact per concurrent transaction) for a
 * guarantee they already have: the rows are written in the church's own transaction, where row-level
 * security allows only its `tenant_id`, and churches are never deleted. Deliveries and attempts keep
 * their foreign keys to the endpoint (whose own key names the church) and the event.
 */
const TABLES = ['webhook_events', 'webhook_deliveries', 'webhook_attempts'];

export class DropOutboxTenantForeignKeys1765235000000 implements MigrationInterface {
  name = 'DropOutboxTenantForeignKeys1765235000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of TABLES) await q.query(`ALTER TABLE ${table} DROP CONSTRAINT IF EXISTS ${table}_tenant_id_fkey`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of TABLES)
      await q.query(
        `ALTER TABLE ${table} ADD CONSTRAINT ${table}_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id)`,
      );
  }
}
