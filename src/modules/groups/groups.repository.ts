import { Injectable } from '@nestjs/common';
import { In, IsNull } from 'typeorm';
import { CachedTotal, fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { RowLock, withLock } from '../../database/row-lock';
import { tenantScope } from '../../database/tenant-scope';
import { ListTotals } from '../../platform/list-totals/list-totals.service';
import { MemberEntity } from '../members/member.entity';
import { PAGE_TAG_IDS } from '../members/members.repository';
import { GroupMemberEntity } from './group-member.entity';
import { GroupEntity } from './group.entity';
import { GROUP_MEMBER_LIST } from './group-members.list';
import { GROUP_LIST } from './groups.list';

/** The module's only TypeORM surface. Every query names the tenant (RLS enforces it too) and skips soft-deleted rows. */
@Injectable()
export class GroupsRepository {
  constructor(private readonly totals: ListTotals) {}

  async insert(group: GroupEntity): Promise<void> {
    await tenantScope(GroupEntity).repo.insert(group);
  }

  /** With `lock`, the row stays locked until the transaction ends (see RowLock). */
  findLive(id: string, lock?: RowLock): Promise<GroupEntity | null> {
    const { repo: groups, tenantId } = tenantScope(GroupEntity);
    return groups.findOne({ where: { tenantId, id, deletedAt: IsNull() }, ...withLock(lock) });
  }

  /** The live groups among `ids`, in one query. */
  async findLiveMany(ids: string[]): Promise<GroupEntity[]> {
    if (ids.length === 0) return [];
    const { repo: groups, tenantId } = tenantScope(GroupEntity);
    return groups.find({ where: { tenantId, id: In(ids), deletedAt: IsNull() } });
  }

  async update(id: string, changes: Partial<GroupEntity>): Promise<void> {
    const { repo: groups, tenantId } = tenantScope(GroupEntity);
    await groups.update({ tenantId, id, deletedAt: IsNull() }, changes);
    if (changes.deletedAt) this.rosterChanged();
  }

  /** Rosters are cached (totals, ETags) under the members list version: a change of who is in a group bumps it. */
  private rosterChanged(): void {
    this.totals.invalidate('members');
  }

  list(query: ListQuery): Promise<Page<GroupEntity>> {
    const { repo: groups, tenantId } = tenantScope(GroupEntity);
    return fetchPage(
      groups.createQueryBuilder('g').where('g.tenant_id = :tenantId AND g.deleted_at IS NULL', { tenantId }),
      query,
      GROUP_LIST,
    );
  }

  /** Members of each group (deleted members leave their groups: see the RemoveDeletedMembersFromGroups migration), in one grouped query; a group without any is absent. */
  async memberCounts(groupIds: string[]): Promise<Map<string, number>> {
    if (!groupIds.length) return new Map();
    const { manager, tenantId } = tenantScope();
    const rows: { group_id: string; n: number }[] = await manager.query(
      `SELECT gm.group_id, count(*)::int AS n FROM group_members gm WHERE gm.tenant_id = $1 AND gm.group_id = ANY($2::uuid[]) GROUP BY gm.group_id`,
      [tenantId, groupIds],
    );
    return new Map(rows.map((r) => [r.group_id, r.n]));
  }

  /** A page of a group's roster, each row with its (live) member and the member's tag ids (computed `tag_ids`) read by the same query. */
  roster(
    groupId: string,
    query: ListQuery,
    totals?: CachedTotal,
  ): Promise<Page<GroupMemberEntity & { member: MemberEntity }>> {
    const { repo: roster, tenantId } = tenantScope(GroupMemberEntity);
    const qb = roster
      .createQueryBuilder('gm')
      .innerJoinAndMapOne(
        'gm.member',
        MemberEntity,
        'm',
        'm.tenant_id = gm.tenant_id AND m.id = gm.member_id AND m.deleted_at IS NULL',
      )
      // Every row has its live member (deleted members leave their groups), so the count need not join.
      .where('gm.tenant_id = :tenantId AND gm.group_id = :groupId', { tenantId, groupId })
      // Evaluated once (no correlation): a deleted group lists nothing.
      .andWhere(
        'EXISTS (SELECT 1 FROM groups g WHERE g.tenant_id = :tenantId AND g.id = :groupId AND g.deleted_at IS NULL)',
      );
    return fetchPage(qb, query, GROUP_MEMBER_LIST, {
      totals,
      countWithoutJoins: true,
      computed: { tag_ids: PAGE_TAG_IDS },
    }) as Promise<Page<GroupMemberEntity & { member: MemberEntity }>>;
  }

  /** The group's rows for these members (locked FOR UPDATE with `lock`, in id order). */
  placesOf(groupId: string, memberIds: string[], lock?: RowLock): Promise<GroupMemberEntity[]> {
    const { repo: roster, tenantId } = tenantScope(GroupMemberEntity);
    return roster.find({
      where: { tenantId, groupId, memberId: In(memberIds) },
      order: { id: 'ASC' },
      ...withLock(lock),
    });
  }

  async insertPlaces(places: GroupMemberEntity[]): Promise<void> {
    if (!places.length) return;
    await tenantScope(GroupMemberEntity).repo.insert(places);
    this.rosterChanged();
  }

  async updatePlace(id: string, changes: Partial<GroupMemberEntity>): Promise<void> {
    const { repo: roster, tenantId } = tenantScope(GroupMemberEntity);
    await roster.update({ tenantId, id }, changes);
    this.rosterChanged();
  }

  /** Deletes the group's rows for these members; how many went. */
  async deletePlaces(groupId: string, memberIds: string[]): Promise<number> {
    const { repo: roster, tenantId } = tenantScope(GroupMemberEntity);
    const result = await roster.delete({ tenantId, groupId, memberId: In(memberIds) });
    if (result.affected) this.rosterChanged();
    return result.affected ?? 0;
  }
}
