import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError, FieldIssue } from '../../common/errors/app-error';
import { ID_PREFIX, newUuid, parsePublicId } from '../../common/ids/id';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import { EventsService } from '../../platform/webhooks/events.service';
import { CampusesService } from '../campuses/campuses.service';
import type { MemberEntity } from '../members/member.entity';
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
    private readonly events: EventsService,
  ) {}

  /** A page of the roster: its rows with their members in one query, then their campuses and tags in one query each (never one per row). */
  async list(groupId: string, rawQuery: Record<string, unknown>): Promise<ListEnvelope<GroupMemberResponse>> {
    const page = await this.repository.roster(groupId, parseListQuery(rawQuery, GROUP_MEMBER_LIST));
    // An empty page may be a group that does not exist (or is another church's): 404 then.
    if (!page.rows.length) await this.groups.require(groupId);
    const respond = await this.responder(page.rows.map((p) => p.member));
    return toEnvelope(page, (p) => respond(p, p.member));
  }

  /** Puts a member in the group (role `member` unless given) or changes their role; answers the member with group_role and joined_at. */
  async put(groupId: string, memberId: string, dto: PutGroupMemberDto): Promise<GroupMemberResponse> {
    const group = await this.groups.require(groupId, 'for_no_key_update');
    if (group.status === 'closed') throw closedGroup('no members can be added or changed');
    const [member] = await this.repository.liveMembers([memberId], 'for_key_share');
    if (!member) throw AppError.notFound('member');
    const now = new Date();
    let [place] = await this.repository.placesOf(groupId, [memberId]);
    if (place) {
      if (dto.group_role && dto.group_role !== place.groupRole) {
        await this.repository.updatePlace(place.id, { groupRole: dto.group_role, updatedAt: now });
        Object.assign(place, { groupRole: dto.group_role, updatedAt: now });
      }
    } else {
      const count = (await this.repository.memberCounts([groupId])).get(groupId) ?? 0;
      if (group.capacity !== null && count >= group.capacity) throw new AppError('conflict', { reason: `the group is at its capacity (${group.capacity})` });
      place = this.newPlace(groupId, memberId, dto.group_role ?? 'member', now);
      await this.repository.insertPlaces([place]);
      // Its member_count changed: so did the group.
      await this.repository.update(groupId, { updatedAt: now });
    }
    return (await this.responder([member]))(place, member);
  }

  async remove(groupId: string, memberId: string): Promise<void> {
    await this.groups.require(groupId, 'for_no_key_update');
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
    const ids = dto.member_ids.map((id) => parsePublicId(ID_PREFIX.member, id)!);
    const leaderId = parsePublicId(ID_PREFIX.member, dto.leader_id)!;
    const moving = [...new Set([...ids, leaderId])];
    const places = await this.repository.placesOf(groupId, moving, 'pessimistic_write');
    const live = new Set((await this.repository.liveMembers(moving)).map((m) => m.id));
    const inGroup = new Set(places.filter((p) => live.has(p.memberId)).map((p) => p.memberId));
    const issues: FieldIssue[] = ids.flatMap((id, i) => (inGroup.has(id) ? [] : [{ field: `member_ids[${i}]`, issue: 'not_in_group' }]));
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
    await this.repository.insertPlaces(moving.map((id) => this.newPlace(created.id, id, id === leaderId ? 'leader' : 'member', now)));
    source.updatedAt = now;
    await this.repository.update(groupId, { updatedAt: now });

    const newGroup = await this.groups.respond(created, moving.length);
    const event: GroupMultipliedEvent = { group: await this.groups.respond(source), new_group: newGroup };
    await this.events.record('group.created', newGroup);
    await this.events.record('group.multiplied', event);
    return newGroup;
  }

  private newPlace(groupId: string, memberId: string, groupRole: GroupRole, at: Date): GroupMemberEntity {
    return Object.assign(new GroupMemberEntity(), { tenantId: TenantContext.current().tenantId, id: newUuid(), groupId, memberId, groupRole, joinedAt: at, createdAt: at, updatedAt: at });
  }

  /** Maps places to answers, the members' campuses and tags loaded once for all of them. */
  private async responder(members: MemberEntity[]) {
    const [campuses, tags] = [await this.campuses.byIdOf(members), await this.tags.refsOf(members.map((m) => m.id))];
    const { lang } = TenantContext.current();
    return (place: GroupMemberEntity, member: MemberEntity) => toGroupMemberResponse(place, member, campuses, lang, tags.get(member.id) ?? []);
  }
}
