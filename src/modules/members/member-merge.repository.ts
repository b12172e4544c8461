import { Injectable } from '@nestjs/common';
import { In, IsNull } from 'typeorm';
import { tenantScope } from '../../database/tenant-scope';
import type { MergeMovedCounts } from './dto/member-merge.response';
import { MemberEntity } from './member.entity';

/** The counts of `moved` that the SQL here produces (the household one is the service's). */
export type MovedRows = Omit<MergeMovedCounts, 'household'>;

/**
 * The SQL of a merge (CONTRACT §17), in the merge's transaction: the pair of members locked, every
 * record that names the duplicate pointed at the survivor, the duplicate marked merged. One
 * statement per table, whatever the number of rows (never one per row). Where the survivor already
 * has what the duplicate had (the same event attended, registered for, the same group, tag or
 * statement), the survivor's row stays and the duplicate's is removed, so that unique keys hold.
 *
 * The other tables belong to their modules; they point at members by foreign key, and the members
 * module is the one that decides what a member id names, hence what a merge moves.
 */
@Injectable()
export class MemberMergeRepository {
  /**
   * Both members, deleted ones too, locked FOR UPDATE in id order until the transaction ends: two
   * merges of the same people (either way round) run one after the other, the second on what the
   * first committed, and never wait for each other in a cycle. FOR UPDATE, not FOR NO KEY UPDATE:
   * new rows pointing at either member (their foreign keys take FOR KEY SHARE) wait for the merge too.
   */
  lockPair(ids: [string, string]): Promise<MemberEntity[]> {
    const { repo, tenantId } = tenantScope(MemberEntity);
    return repo.find({ where: { tenantId, id: In(ids) }, order: { id: 'ASC' }, lock: { mode: 'pessimistic_write' } });
  }

  /**
   * Points every record of `duplicate` at `survivor`; returns how many moved, per kind. `now` is
   * the `updated_at` of every record that changed.
   */
  async moveRecords(survivor: string, duplicate: string, now: Date): Promise<MovedRows> {
    const { manager, tenantId } = tenantScope();
    // $1 the church, $2 the survivor, $3 the duplicate, $4 now (a statement is sent the ones it names).
    const pair = [tenantId, survivor, duplicate];
    const touched = [...pair, now];
    /** Runs an UPDATE or DELETE and returns its row count (TypeORM answers one with [rows, count]). */
    const run = async (sql: string, values: unknown[]): Promise<number> => {
      const [, count] = await manager.query<[unknown[], number]>(sql, values);
      return count;
    };
    /** `… FROM <table> d WHERE d.<column> = duplicate AND the survivor has a row with the same <key>`. */
    const alsoSurvivors = (table: string, column: string, key: string) =>
      `d.tenant_id = $1 AND d.${column} = $3::uuid
         AND EXISTS (SELECT 1 FROM ${table} s WHERE s.tenant_id = $1 AND s.${key} = d.${key} AND s.${column} = $2::uuid)`;
    /** Every row of `duplicate` in `table` becomes the survivor's. */
    const move = (table: string, column: string, touch = true) =>
      run(
        `UPDATE ${table} SET ${column} = $2::uuid${touch ? ', updated_at = $4' : ''} WHERE tenant_id = $1 AND ${column} = $3::uuid`,
        touch ? touched : pair,
      );

    const donations = await move('donations', 'donor_id');
    const recurringGifts = await move('recurring_gifts', 'donor_id');
    const pledges = await move('pledges', 'donor_id');

    // Statements: the donor links, one per statement and member; and the statement addressed to the
    // duplicate becomes the survivor's, unless the survivor has its own for that year (unique per
    // recipient and year): a later run then re-issues it in place.
    await run(
      `DELETE FROM statement_donors d WHERE ${alsoSurvivors('statement_donors', 'member_id', 'statement_id')}`,
      pair,
    );
    const statements = await move('statement_donors', 'member_id', false);
    await run(
      `UPDATE statements d SET member_id = $2::uuid, updated_at = $4
        WHERE d.tenant_id = $1 AND d.member_id = $3::uuid
          AND NOT EXISTS (SELECT 1 FROM statements s WHERE s.tenant_id = $1 AND s.year = d.year AND s.recipient_id = $2::uuid)`,
      touched,
    );

    // Attendance: once per member and event.
    await run(`DELETE FROM attendance d WHERE ${alsoSurvivors('attendance', 'member_id', 'event_id')}`, pair);
    const attendance = await move('attendance', 'member_id');

    // A visit that named both names the survivor once.
    const checkIns = await run(
      `UPDATE check_ins SET member_ids = CASE WHEN $2::uuid = ANY (member_ids) THEN array_remove(member_ids, $3::uuid)
                                              ELSE array_replace(member_ids, $3::uuid, $2::uuid) END,
                            updated_at = $4
        WHERE tenant_id = $1 AND $3::uuid = ANY (member_ids)`,
      touched,
    );

    // Registrations: once per member and event; a seat held twice by one person is freed.
    await run(
      `WITH gone AS (
         DELETE FROM event_registrations d WHERE ${alsoSurvivors('event_registrations', 'member_id', 'event_id')}
         RETURNING d.event_id
       )
       UPDATE events e SET registration_count = greatest(0, e.registration_count - g.n), updated_at = $4
         FROM (SELECT event_id, count(*)::int AS n FROM gone GROUP BY event_id) g
        WHERE e.tenant_id = $1 AND e.id = g.event_id`,
      touched,
    );
    const registrations = await move('event_registrations', 'member_id');

    // Groups: one membership per group; the survivor's stays, leader if either was, since the
    // earlier joined_at; then the duplicate's other memberships become the survivor's.
    await run(
      `UPDATE group_members s
          SET group_role = CASE WHEN d.group_role = 'leader' THEN 'leader' ELSE s.group_role END,
              joined_at = least(s.joined_at, d.joined_at), updated_at = $4
         FROM group_members d
        WHERE s.tenant_id = $1 AND s.member_id = $2::uuid AND d.tenant_id = $1 AND d.member_id = $3::uuid
          AND d.group_id = s.group_id
          AND ((d.group_role = 'leader' AND s.group_role <> 'leader') OR d.joined_at < s.joined_at)`,
      touched,
    );
    await run(`DELETE FROM group_members d WHERE ${alsoSurvivors('group_members', 'member_id', 'group_id')}`, pair);
    const groupMemberships = await move('group_members', 'member_id');

    // Tags: member_tags rows are only ever inserted and deleted (the app role may not update them).
    const gained: unknown[] = await manager.query(
      `INSERT INTO member_tags (tenant_id, tag_id, member_id, created_at)
       SELECT tenant_id, tag_id, $2::uuid, created_at FROM member_tags WHERE tenant_id = $1 AND member_id = $3::uuid
       ON CONFLICT (tenant_id, tag_id, member_id) DO NOTHING RETURNING tag_id`,
      pair,
    );
    const tags = gained.length;
    await run(`DELETE FROM member_tags WHERE tenant_id = $1 AND member_id = $2::uuid`, [tenantId, duplicate]);

    const householdContacts = await move('households', 'primary_contact_id');
    const prospects = await move('prospects', 'member_id');
    const pushTokens = await move('member_push_tokens', 'member_id');
    const prayerRequests = await move('prayer_requests', 'member_id');

    return {
      donations,
      recurring_gifts: recurringGifts,
      pledges,
      statements,
      attendance,
      check_ins: checkIns,
      registrations,
      group_memberships: groupMemberships,
      tags,
      household_contacts: householdContacts,
      prospects,
      push_tokens: pushTokens,
      prayer_requests: prayerRequests,
    };
  }

  /**
   * The duplicate deleted and marked merged into the survivor, in one UPDATE (deleted_at and
   * merged_into together: what a change-log trigger on members sees as one change); and the members
   * merged into the duplicate before now name the survivor, so that every merged id resolves in one
   * hop (A into B, then B into C: A names C).
   */
  async markMerged(duplicate: string, survivor: string, now: Date): Promise<boolean> {
    const { repo, tenantId } = tenantScope(MemberEntity);
    const result = await repo.update(
      { tenantId, id: duplicate, deletedAt: IsNull() },
      { deletedAt: now, mergedInto: survivor, updatedAt: now },
    );
    if (!result.affected) return false;
    await repo.update({ tenantId, mergedInto: duplicate }, { mergedInto: survivor });
    return true;
  }
}
