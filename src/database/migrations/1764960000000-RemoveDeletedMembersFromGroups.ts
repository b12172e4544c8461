import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A member who is deleted leaves every group in the same transaction (a trigger on the soft
 * delete), so that rosters and member counts read group_members alone: checking each row's member
 * for liveness cost one members probe per row (9 ms for a 500-member roster's count) and, as a
 * join, a hash of the church's whole member table. Members are never undeleted.
 */
export class RemoveDeletedMembersFromGroups1764960000000 implements MigrationInterface {
  name = 'RemoveDeletedMembersFromGroups1764960000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE FUNCTION members_leave_groups() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         DELETE FROM group_members WHERE tenant_id = NEW.tenant_id AND member_id = NEW.id;
         RETURN NULL;
       END $$`,
      `CREATE TRIGGER members_leave_groups AFTER UPDATE OF deleted_at ON members
         FOR EACH ROW WHEN (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL)
         EXECUTE FUNCTION members_leave_groups()`,
      `DELETE FROM group_members gm USING members m WHERE m.tenant_id = gm.tenant_id AND m.id = gm.member_id AND m.deleted_at IS NOT NULL`,
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS members_leave_groups ON members`);
    await q.query(`DROP FUNCTION IF EXISTS members_leave_groups()`);
  }
}
