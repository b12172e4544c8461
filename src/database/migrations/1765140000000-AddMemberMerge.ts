import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Merging duplicate people (CONTRACT §17).
 *
 * - `members.merged_into`: the survivor a deleted member was merged into. Set together with
 *   `deleted_at` by one UPDATE of the duplicate (a merged member is always a deleted one: the CHECK
 *   holds it), and kept pointing at the last survivor (a later merge of the survivor moves every
 *   member merged into it along, in its transaction), so that a merged id resolves in one hop. No
 *   foreign key: the column names a row of the same church's table, which row-level security
 *   already confines, and members are never hard-deleted.
 * - The index serves that move of a chain and nothing else (few rows: merged members only).
 * - `prospects_tenant_member_key` was unique: a member came from one prospect at most. A survivor
 *   takes the prospects of the people merged into it, so it may now have come from several; the
 *   index stays, without the uniqueness.
 */
export class AddMemberMerge1765140000000 implements MigrationInterface {
  name = 'AddMemberMerge1765140000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `ALTER TABLE members ADD COLUMN merged_into uuid,
         ADD CONSTRAINT members_merged_into_check CHECK (merged_into IS NULL OR (deleted_at IS NOT NULL AND merged_into <> id))`,
      `CREATE INDEX members_tenant_merged_into_idx ON members (tenant_id, merged_into) WHERE merged_into IS NOT NULL`,
      `DROP INDEX prospects_tenant_member_key`,
      `CREATE INDEX prospects_tenant_member_idx ON prospects (tenant_id, member_id) WHERE member_id IS NOT NULL`,
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS prospects_tenant_member_idx`);
    await q.query(
      `CREATE UNIQUE INDEX IF NOT EXISTS prospects_tenant_member_key ON prospects (tenant_id, member_id) WHERE member_id IS NOT NULL`,
    );
    await q.query(`DROP INDEX IF EXISTS members_tenant_merged_into_idx`);
    await q.query(
      `ALTER TABLE members DROP CONSTRAINT IF EXISTS members_merged_into_check, DROP COLUMN IF EXISTS merged_into`,
    );
  }
}
