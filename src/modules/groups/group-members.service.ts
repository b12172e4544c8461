import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError, FieldIssue } from '../../common/errors/app-error';
import { ID_PREFIX, newUuid, parsePublicId } from '../../common/ids/id';
import { listPageEtag, matches } from '../../common/http/conditional-get';
import { NotModified } from '../../common/http/not-modified';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import { ListTotals } from '../../platform/list-totals/list-totals.service';
import { OutboxService } from '../../platform/outbox/outbox.service';
import { CampusesService } from '../campuses/campuses.service';
import { CampusDirectory } from '../members/campus-directory';
import type { MemberEntity } from '../members/member.entity';
import { MemberLookup } from '../members/member-lookup';
import { MemberTagRefs } from '../members/member-tag-refs';
import { TagsService } from '../tags/tags.service';
import type { GroupMemberResponse } from './dto/group-member.response';
import type { GroupMultipliedEvent, GroupResponse } from './dto/group.response';
import type { MultiplyGroupDto } from './dto/multiply-group.dto';
import type { PutGroupMemberDto } from './dto/put-group-member.dto';
import { GroupMemberEntity, GroupRole } from './group-member.entity';
import { GROUP_MEMBER_LIST } from './group-members.list';
import { toGroupMemberResponse } from './groups.mapper';
import { GroupsRepository } from './groups.repository';
import { closedGroup, GroupsService } from './groups.service';

/**
 * Who is in a group. Every change locks the group row first (FOR NO KEY UPDATE), so adds, role
 * changes, removals and multiplies of one group run one after the other: the capacity holds, and
 * of two multiplies moving the same members the second finds them gone (422, nothing moved).
 */
@Injectable()
export class GroupMembersService {
  constructor(
    private readonly groups: GroupsService,
    private readonly repository: GroupsRepository,
    private readonly campuses: CampusesService,
    private readonly tags: TagsService,
    private readonly outbox: OutboxService,
    private readonly totals: ListTotals,
    private readonly campusDirectory: CampusDirectory,
    private readonly memberTags: MemberTagRefs,
    private readonly members: MemberLookup,
  ) {}

  /**
   * A page of the roster, as GET /v1/members pages members: rows, members and their tag ids in one
   * query; campuses and tag names from the maps kept under the members list version; the total
   * cached under that version too (a roster change bumps it, as every member write does). With
   * Redis the ETag comes from the version, so a matching If-None-Match is a 304 before any query.
   */
  async list(
    groupId: string,
    rawQuery: Record<string, unknown>,
    ifNoneMatch?: string,
  ): Promise<{ etag: string | null; body: ListEnvelope<GroupMemberResponse> }> {
    const query = parseListQuery(rawQuery, GROUP_MEMBER_LIST);
    const { lang, tenantId } = TenantContext.current();
    // Told apart from the member lists' totals by the group.
    const state = await this.totals.open('members', {
      ...query,
      filters: [...query.filters, { field: 'group_id', op: 'eq', value: groupId }],
    });
    const etag = state ? listPageEtag(tenantId, ['group-members', groupId], state.version, lang, query) : null;
    if (etag && matches(ifNoneMatch, etag)) throw new NotModified(etag);
    const page = await this.repository.roster(groupId, query, state);
    // An empty page may be a group that does not exist (or is another church's): 404 then.
    if (!page.rows.length) await this.groups.require(groupId);
    const members = page.rows.map((p) => p.member);
    const campuses = state
      ? await this.campusDirectory.campusesOf(members, state.version)
      : await this.campuses.byIdOf(members);
    const tags = await this.memberTags.ofPage(
      new Map(page.rows.map((p) => [p.member.id, (page.computed?.get(p.id)?.tag_ids as string[] | undefined) ?? []])),
      state?.version,
    );
    return {
      etag,
      body: toEnvelope(page, (p) => toGroupMemberResponse(p, p.member, campuses, lang, tags.get(p.member.id) ?? [])),
    };
  }

  /** Puts a member in the group (role `member` unless given) or changes their role; answers the member with group_role and joined_at. */
  /**
   * A member merged into another names the survivor (CONTRACT §17): the place is the survivor's, and
   * the answer shows its id. The member is locked FOR KEY SHARE first: a merge of it waits for the
   * place (and then moves it), or has committed and is followed.
   */
  async put(groupId: string, named: string, dto: PutGroupMemberDto): Promise<GroupMemberResponse> {
    const group = await this.groups.require(groupId, 'for_no_key_update');
    if (group.status === 'closed') throw closedGroup('no members can be added or changed');
    const survivor = (await this.members.liveOrSurvivorIds([named], 'for_key_share')).get(named);
    const [member] = survivor ? await this.members.live([survivor]) : [];
    if (!member) throw AppError.notFound('member');
    const memberId = member.id;
    const now = new Date();
    let [place] = await this.repository.placesOf(groupId, [memberId]);
    if (place) {
      if (dto.group_role && dto.group_role !== place.groupRole) {
        await this.repository.updatePlace(place.id, { groupRole: dto.group_role, updatedAt: now });
        Object.assign(place, { groupRole: dto.group_role, updatedAt: now });
      }
    } else {
      const count = (await this.repository.memberCounts([groupId])).get(groupId) ?? 0;
      if (group.capacity !== null && count >= group.capacity)
        throw new AppError('conflict', { reason: `the group is at its capacity (${group.capacity})` });
      place = this.newPlace(groupId, memberId, dto.group_role ?? 'member', now);
      await this.repository.insertPlaces([place]);
      // Its member_count changed: so did the group.
      await this.repository.update(groupId, { updatedAt: now });
    }
    return (await this.responder([member]))(place, member);
  }

  /** A member merged into another names the survivor (its places moved there). */
  async remove(groupId: string, named: string): Promise<void> {
    await this.groups.require(groupId, 'for_no_key_update');
    const memberId = (await this.members.liveOrSurvivorIds([named], 'for_key_share')).get(named) ?? named;
    if (!(await this.repository.deletePlaces(groupId, [memberId]))) throw AppError.notFound('group member');
    await this.repository.update(groupId, { updatedAt: new Date() });
  }

  /**
   * Moves `member_ids` (and the leader) out of this group into a new one whose parent is this
   * group, the leader as `leader`: one transaction, `group.created` and `group.multiplied`. A member
   * who is not in this group (another church's included) is 422 naming it, and nothing moves.
   */
  async multiply(groupId: string, dto: MultiplyGroupDto): Promise<GroupResponse> {
    const source = await this.groups.require(groupId, 'for_no_key_update');
    if (source.status === 'closed') throw closedGroup('it cannot multiply');
    // A member merged into another names the survivor (CONTRACT §17), locked FOR KEY SHARE.
    const named = dto.member_ids.map((id) => parsePublicId(ID_PREFIX.member, id)!);
    const namedLeader = parsePublicId(ID_PREFIX.member, dto.leader_id)!;
    const survivors = await this.members.liveOrSurvivorIds([...named, namedLeader], 'for_key_share');
    const ids = named.map((id) => survivors.get(id) ?? id);
    const leaderId = survivors.get(namedLeader) ?? namedLeader;
    const moving = [...new Set([...ids, leaderId])];
    const places = await this.repository.placesOf(groupId, moving, 'pessimistic_write');
    const live = new Set(survivors.values());
    const inGroup = new Set(places.filter((p) => live.has(p.memberId)).map((p) => p.memberId));
    const issues: FieldIssue[] = ids.flatMap((id, i) =>
      inGroup.has(id) ? [] : [{ field: `member_ids[${i}]`, issue: 'not_in_group' }],
    );
    if (!inGroup.has(leaderId)) issues.push({ field: 'leader_id', issue: 'not_in_group' });
    if (issues.length) throw AppError.validation(issues);

    const created = this.groups.newGroup({
      name: dto.name.trim(),
      description: null,
      campusId: source.campusId,
      meetingDay: null,
      meetingTime: null,
      location: null,
      capacity: null,
      status: 'open',
      parentGroupId: source.id,
    });
    await this.repository.insert(created);
    await this.repository.deletePlaces(groupId, moving);
    const now = created.createdAt;
    await this.repository.insertPlaces(
      moving.map((id) => this.newPlace(created.id, id, id === leaderId ? 'leader' : 'member', now)),
    );
    source.updatedAt = now;
    await this.repository.update(groupId, { updatedAt: now });

    const newGroup = await this.groups.respond(created, moving.length);
    const event: GroupMultipliedEvent = { group: await this.groups.respond(source), new_group: newGroup };
    await this.outbox.record('group.created', newGroup);
    await this.outbox.record('group.multiplied', event);
    return newGroup;
  }

  private newPlace(groupId: string, memberId: string, groupRole: GroupRole, at: Date): GroupMemberEntity {
    return Object.assign(new GroupMemberEntity(), {
      tenantId: TenantContext.current().tenantId,
      id: newUuid(),
      groupId,
      memberId,
      groupRole,
      joinedAt: at,
      createdAt: at,
      updatedAt: at,
    });
  }

  /** Maps places to answers, the members' campuses and tags loaded once for all of them. */
  private async responder(members: MemberEntity[]) {
    const [campuses, tags] = [await this.campuses.byIdOf(members), await this.tags.refsOf(members.map((m) => m.id))];
    const { lang } = TenantContext.current();
    return (place: GroupMemberEntity, member: MemberEntity) =>
      toGroupMemberResponse(place, member, campuses, lang, tags.get(member.id) ?? []);
  }
}
