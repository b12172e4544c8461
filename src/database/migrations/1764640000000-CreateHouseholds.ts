import { MigrationInterface, QueryRunner } from 'typeorm';
import { isolateTenantTable } from '../app-role';

/**
 * Households (CONTRACT §10) and the member's place in one: `members.household_id` (a column since
 * the foundation, unchecked until now) becomes a foreign key, with `household_role` beside it; both
 * are null or both set. A household a member already named by id is made real here (named after
 * the last name of its oldest member), so no member loses its grouping.
 */
export class CreateHouseholds1764640000000 implements MigrationInterface {
  name = 'CreateHouseholds1764640000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE households (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         name text NOT NULL,
         address jsonb,
         primary_contact_id uuid,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         deleted_at timestamptz(3),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, primary_contact_id) REFERENCES members (tenant_id, id)
       )`,
      `CREATE INDEX households_tenant_created_idx ON households (tenant_id, created_at, id) WHERE deleted_at IS NULL`,
      `CREATE INDEX households_tenant_name_idx ON households (tenant_id, name, id) WHERE deleted_at IS NULL`,
      ...isolateTenantTable('households'),

      // The data step below reads every church's rows: row-level security is lifted for the table
      // owner for this transaction only (a superuser bypasses it anyway), then forced again.
      `ALTER TABLE members NO FORCE ROW LEVEL SECURITY`,
      `ALTER TABLE households NO FORCE ROW LEVEL SECURITY`,
      `INSERT INTO households (tenant_id, id, name, created_at, updated_at)
       SELECT DISTINCT ON (m.tenant_id, m.household_id) m.tenant_id, m.household_id, m.last_name, m.created_at, m.created_at
         FROM members m
        WHERE m.household_id IS NOT NULL
        ORDER BY m.tenant_id, m.household_id, m.created_at, m.id`,
      `ALTER TABLE members ADD COLUMN household_role text CHECK (household_role IN ('head', 'spouse', 'adult', 'child', 'other'))`,
      `UPDATE members SET household_role = 'other' WHERE household_id IS NOT NULL`,
      `ALTER TABLE members FORCE ROW LEVEL SECURITY`,
      `ALTER TABLE households FORCE ROW LEVEL SECURITY`,

      `ALTER TABLE members ADD CONSTRAINT members_household_pair_check CHECK ((household_id IS NULL) = (household_role IS NULL))`,
      `ALTER TABLE members ADD CONSTRAINT members_household_fkey FOREIGN KEY (tenant_id, household_id) REFERENCES households (tenant_id, id)`,
      // The household_id filter of member lists, and a household's members.
      `CREATE INDEX members_tenant_household_idx ON members (tenant_id, household_id, created_at, id) WHERE deleted_at IS NULL`,
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS members_tenant_household_idx`);
    await q.query(
      `ALTER TABLE members DROP CONSTRAINT IF EXISTS members_household_fkey, DROP CONSTRAINT IF EXISTS members_household_pair_check, DROP COLUMN IF EXISTS household_role`,
    );
    await q.query(`DROP TABLE IF EXISTS households`);
  }
}
