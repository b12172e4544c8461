import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A claimed delivery's lease gets its own column, `leased_until`, outside every index: claiming (and
 * letting a claim go) then changes no indexed column, so PostgreSQL can update the row in place (a
 * HOT update: no new entry in the table's three indexes) when its page has room, which the fill
 * factor keeps for rows written from now on. A delivery is due once both `next_attempt_at` and
 * `leased_until` (when set) have passed.
 */
export class LeaseDeliveriesOutsideDueIndex1765236000000 implements MigrationInterface {
  name = 'LeaseDeliveriesOutsideDueIndex1765236000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN leased_until timestamptz(3)`);
    await q.query(`ALTER TABLE webhook_deliveries SET (fillfactor = 70)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE webhook_deliveries SET next_attempt_at = leased_until WHERE leased_until > next_attempt_at AND status = 'pending'`,
    );
    await q.query(`ALTER TABLE webhook_deliveries RESET (fillfactor)`);
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN leased_until`);
  }
}
