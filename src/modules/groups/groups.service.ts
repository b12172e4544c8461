import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError, FieldIssue } from '../../common/errors/app-error';
import { newUuid } from '../../common/ids/id';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import { clearedRequiredFields } from '../../common/validation/validation-issues';
import type { RowLock } from '../../database/row-lock';
import { OutboxService } from '../../platform/outbox/outbox.service';
import type { CampusEntity } from '../campuses/campus.entity';
import { CampusesService } from '../campuses/campuses.service';
import type { CreateGroupDto } from './dto/create-group.dto';
import type { GroupResponse } from './dto/group.response';
import type { UpdateGroupDto } from './dto/update-group.dto';
import { GroupEntity } from './group.entity';
import { GROUP_LIST } from './groups.list';
import { toGroupResponse } from './groups.mapper';
import { GroupsRepository } from './groups.repository';

export const closedGroup = (action: string) => new AppError('conflict', { reason: `the group is closed: ${action}` });

/**
 * Cell groups. Writes lock the group row (FOR NO KEY UPDATE) before reading it: a close, a
 * multiply, a member added and a PATCH of one group run one after the other, each on what the
 * previous one committed.
 */
@Injectable()
export class GroupsService {
  constructor(
    private readonly groups: GroupsRepository,
    private readonly campuses: CampusesService,
    private readonly outbox: OutboxService,
  ) {}

  async create(dto: CreateGroupDto): Promise<GroupResponse> {
    const campusByRef = await this.resolveCampus(dto);
    const group = this.newGroup({
      name: dto.name.trim(),
      description: dto.description ?? null,
      campusId: dto.campus ? campusByRef.get(dto.campus)!.id : null,
      meetingDay: dto.meeting_day ?? null,
      meetingTime: dto.meeting_time ?? null,
      location: dto.location ?? null,
      capacity: dto.capacity ?? null,
      status: dto.status ?? 'open',
      parentGroupId: null,
    });
    await this.groups.insert(group);
    const response = await this.respond(group, 0);
    await this.outbox.record('group.created', response);
    return response;
  }

  async get(id: string): Promise<GroupResponse> {
    return this.respond(await this.require(id));
  }

  /**
   * The live groups among `ids` as GET returns them, by id (the changes feed's objects): three
   * queries (the groups, their campuses, their member counts).
   */
  async getMany(ids: string[]): Promise<Map<string, GroupResponse>> {
    const groups = await this.groups.findLiveMany(ids);
    const [campuses, counts] = [
      await this.campuses.byIdOf(groups),
      await this.groups.memberCounts(groups.map((g) => g.id)),
    ];
    return new Map(groups.map((g) => [g.id, toGroupResponse(g, campuses, counts.get(g.id) ?? 0)]));
  }

  /** A page of groups; their campuses and member counts in one query each. */
  async list(rawQuery: Record<string, unknown>): Promise<ListEnvelope<GroupResponse>> {
    const page = await this.groups.list(parseListQuery(rawQuery, GROUP_LIST));
    const [campuses, counts] = [
      await this.campuses.byIdOf(page.rows),
      await this.groups.memberCounts(page.rows.map((g) => g.id)),
    ];
    return toEnvelope(page, (g) => toGroupResponse(g, campuses, counts.get(g.id) ?? 0));
  }

  /** Any subset of the fields; `status` moves between open and full (a closed group keeps it: 409). */
  async update(id: string, dto: UpdateGroupDto): Promise<GroupResponse> {
    const cleared = clearedRequiredFields(dto, ['name', 'status']);
    if (cleared.length) throw AppError.validation(cleared);
    const campusByRef = await this.resolveCampus(dto);
    const group = await this.require(id, 'for_no_key_update');
    if (dto.status !== undefined && group.status === 'closed') throw closedGroup('its status cannot change');
    const changes: Partial<GroupEntity> = { updatedAt: new Date() };
    if (dto.name !== undefined) changes.name = dto.name.trim();
    if (dto.description !== undefined) changes.description = dto.description;
    if (dto.campus !== undefined) changes.campusId = dto.campus ? campusByRef.get(dto.campus)!.id : null;
    if (dto.meeting_day !== undefined) changes.meetingDay = dto.meeting_day;
    if (dto.meeting_time !== undefined) changes.meetingTime = dto.meeting_time;
    if (dto.location !== undefined) changes.location = dto.location;
    if (dto.capacity !== undefined) changes.capacity = dto.capacity;
    if (dto.status !== undefined) changes.status = dto.status;
    await this.groups.update(id, changes);
    return this.respond(Object.assign(group, changes));
  }

  /** Soft delete: the group leaves the API (its rows stay for the groups that multiplied from it). */
  async remove(id: string): Promise<void> {
    await this.require(id, 'pessimistic_write');
    const now = new Date();
    await this.groups.update(id, { deletedAt: now, updatedAt: now });
  }

  /** status `closed`, `closed_at`, `group.closed`; closing a closed group is 409 `conflict`. */
  async close(id: string): Promise<GroupResponse> {
    const group = await this.require(id, 'for_no_key_update');
    if (group.status === 'closed') throw new AppError('conflict', { reason: 'the group is already closed' });
    const now = new Date();
    const changes: Partial<GroupEntity> = { status: 'closed', closedAt: now, updatedAt: now };
    await this.groups.update(id, changes);
    const response = await this.respond(Object.assign(group, changes));
    await this.outbox.record('group.closed', response);
    return response;
  }

  /** A new group entity of the current church (not inserted). */
  newGroup(
    fields: Omit<GroupEntity, 'tenantId' | 'id' | 'closedAt' | 'createdAt' | 'updatedAt' | 'deletedAt'>,
  ): GroupEntity {
    const now = new Date();
    return Object.assign(new GroupEntity(), {
      ...fields,
      tenantId: TenantContext.current().tenantId,
      id: newUuid(),
      closedAt: null,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
  }

  /** The group as GET returns it (its member count read unless given). */
  async respond(group: GroupEntity, memberCount?: number): Promise<GroupResponse> {
    const count = memberCount ?? (await this.groups.memberCounts([group.id])).get(group.id) ?? 0;
    return toGroupResponse(group, await this.campuses.byIdOf([group]), count);
  }

  async require(id: string, lock?: RowLock): Promise<GroupEntity> {
    const group = await this.groups.findLive(id, lock);
    if (!group) throw AppError.notFound('group');
    return group;
  }

  private async resolveCampus(dto: { campus?: string | null }): Promise<Map<string, CampusEntity>> {
    const campusByRef = await this.campuses.resolveRefs(dto.campus ? [dto.campus] : []);
    const issues: FieldIssue[] =
      dto.campus && !campusByRef.has(dto.campus) ? [{ field: 'campus', issue: 'not_found' }] : [];
    if (issues.length) throw AppError.validation(issues);
    return campusByRef;
  }
}
