import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The check-out lock (CONTRACT §21): wrong security codes counted per check-in, and until when its
 * check-out is locked after the fifth. Columns of check_ins, which row-level security already
 * confines to its church (isolateTenantTable in CreateCheckIns).
 */
export class AddCheckoutLock1765120000000 implements MigrationInterface {
  name = 'AddCheckoutLock1765120000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE check_ins ADD COLUMN checkout_failures int NOT NULL DEFAULT 0 CHECK (checkout_failures >= 0),
                             ADD COLUMN checkout_locked_until timestamptz(3)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE check_ins DROP COLUMN checkout_locked_until, DROP COLUMN checkout_failures`);
  }
}
