import { MigrationInterface, QueryRunner } from 'typeorm';
import { isolateTenantTable } from '../app-role';

/**
 * A church's own additions to the built-in banned list of kiosk security codes (CONTRACT §11,
 * PUT /v1/settings/check-in), one row per church as statement_settings: 2- to 4-character upper-case
 * sequences of the code alphabet, at most 200. No row: none.
 */
export class CreateCheckInSettings1764970000000 implements MigrationInterface {
  name = 'CreateCheckInSettings1764970000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE check_in_settings (
         tenant_id uuid PRIMARY KEY REFERENCES tenants (id),
         banned_sequences text[] NOT NULL DEFAULT '{}'
           CHECK (cardinality(banned_sequences) <= 200 AND array_to_string(banned_sequences, ',') ~ '^([BCDFGHJKLMNPRSTXZ2456789]{2,4}(,|$))*$'),
         updated_at timestamptz(3) NOT NULL DEFAULT now()
       )`,
      ...isolateTenantTable('check_in_settings'),
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS check_in_settings`);
  }
}
