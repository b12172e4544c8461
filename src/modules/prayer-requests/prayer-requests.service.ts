import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError, FieldIssue } from '../../common/errors/app-error';
import { ID_PREFIX, newUuid, parsePublicId } from '../../common/ids/id';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { ListQuery, parseListQuery } from '../../common/lists/list-query';
import { clearedRequiredFields } from '../../common/validation/validation-issues';
import type { Principal } from '../../platform/auth/principal';
import { OutboxService } from '../../platform/outbox/outbox.service';
import { UsersService } from '../../platform/users/users.service';
import type { CampusEntity } from '../campuses/campus.entity';
import { CampusesService } from '../campuses/campuses.service';
import { MemberLookup } from '../members/member-lookup';
import type { AnswerPrayerRequestDto } from './dto/answer-prayer-request.dto';
import type { CreatePrayerRequestDto } from './dto/create-prayer-request.dto';
import type { PrayerRequestResponse } from './dto/prayer-request.response';
import type { UpdatePrayerRequestDto } from './dto/update-prayer-request.dto';
import { PrayerRequestEntity } from './prayer-request.entity';
import { PRAYER_REQUEST_LIST } from './prayer-requests.list';
import { Related, toPrayerRequestResponse } from './prayer-requests.mapper';
import { isVisible, PrayerRequestsRepository, Viewer } from './prayer-requests.repository';

const REQUIRED_ON_PATCH = ['request', 'visibility', 'urgent'] as const;

/** The caller as the visibility rule sees them: the staff user behind the token (owner or creator) and whether they are an org_admin. */
export function viewerOf(principal: Principal): Viewer {
  return { userId: principal.actingUserId, seesEveryRequest: principal.role === 'org_admin' };
}

@Injectable()
export class PrayerRequestsService {
  constructor(
    private readonly prayerRequests: PrayerRequestsRepository,
    private readonly campuses: CampusesService,
    private readonly outbox: OutboxService,
    private readonly members: MemberLookup,
    private readonly users: UsersService,
  ) {}

  async create(dto: CreatePrayerRequestDto, principal: Principal): Promise<PrayerRequestResponse> {
    const request = dto.request.trim();
    const name = dto.name?.trim() || null;
    const { issues, campus, memberId } = await this.checkReferences(dto, !!dto.member_id || name !== null);
    if (!request) issues.unshift({ field: 'request', issue: 'required' });
    if (issues.length) throw AppError.validation(issues);
    const now = new Date();
    const row = Object.assign(new PrayerRequestEntity(), {
      tenantId: TenantContext.current().tenantId,
      id: newUuid(),
      request,
      memberId: memberId ?? null,
      name,
      visibility: dto.visibility ?? 'staff',
      urgent: dto.urgent ?? false,
      campusId: campus?.id ?? null,
      answeredAt: null,
      answer: null,
      createdBy: principal.actingUserId,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
    await this.prayerRequests.insert(row);
    const response = toPrayerRequestResponse(row, await this.relatedTo([row]));
    await this.outbox.record('prayer_request.created', response);
    return response;
  }

  async get(id: string, principal: Principal): Promise<PrayerRequestResponse> {
    const row = await this.require(id, principal);
    return toPrayerRequestResponse(row, await this.relatedTo([row]));
  }

  /**
   * The live requests among `ids` that the current caller may see, as GET returns them, by id (the
   * changes feed's objects). The feed has no Principal at hand: the caller is the transaction's
   * actor (its userId is the principal's actingUserId), whose role is read only when a private
   * request of someone else is among the rows. At most four queries (the requests, the role, their
   * members, their campuses).
   */
  async getMany(ids: string[]): Promise<Map<string, PrayerRequestResponse>> {
    const rows = await this.prayerRequests.findLiveMany(ids);
    const userId = TenantContext.current().actor.userId ?? null;
    const viewer: Viewer = { userId, seesEveryRequest: false };
    if (userId && rows.some((r) => !isVisible(r, viewer)))
      viewer.seesEveryRequest = (await this.users.findById(userId))?.role === 'org_admin';
    const visible = rows.filter((r) => isVisible(r, viewer));
    const related = await this.relatedTo(visible);
    return new Map(visible.map((r) => [r.id, toPrayerRequestResponse(r, related)]));
  }

  async list(rawQuery: Record<string, unknown>, principal: Principal): Promise<ListEnvelope<PrayerRequestResponse>> {
    const query = parseListQuery(rawQuery, PRAYER_REQUEST_LIST);
    assertMemberIds(query);
    const page = await this.prayerRequests.list(query, viewerOf(principal));
    const related = await this.relatedTo(page.rows);
    return toEnvelope(page, (row) => toPrayerRequestResponse(row, related));
  }

  async update(id: string, dto: UpdatePrayerRequestDto, principal: Principal): Promise<PrayerRequestResponse> {
    const issues = clearedRequiredFields(dto, REQUIRED_ON_PATCH);
    if (typeof dto.request === 'string' && !dto.request.trim()) issues.push({ field: 'request', issue: 'required' });
    // Locked: concurrent writes of one request run one after the other, each on what the previous one committed.
    const row = await this.require(id, principal, 'for_no_key_update');
    const name = dto.name === undefined ? row.name : dto.name?.trim() || null;
    const hasMember = dto.member_id === undefined ? row.memberId !== null : !!dto.member_id;
    const { issues: refIssues, campus, memberId } = await this.checkReferences(dto, hasMember || name !== null);
    issues.push(...refIssues);
    if (issues.length) throw AppError.validation(issues);
    const changes: Partial<PrayerRequestEntity> = { updatedAt: new Date() };
    if (dto.request !== undefined) changes.request = dto.request.trim();
    if (dto.member_id !== undefined) changes.memberId = memberId ?? null;
    if (dto.name !== undefined) changes.name = name;
    if (dto.visibility !== undefined) changes.visibility = dto.visibility;
    if (dto.urgent !== undefined) changes.urgent = dto.urgent;
    if (dto.campus !== undefined) changes.campusId = campus?.id ?? null;
    await this.prayerRequests.update(id, changes);
    const updated = Object.assign(row, changes);
    return toPrayerRequestResponse(updated, await this.relatedTo([updated]));
  }

  /** Soft delete: the request disappears from the API. */
  async remove(id: string, principal: Principal): Promise<void> {
    await this.require(id, principal, 'for_no_key_update');
    const now = new Date();
    await this.prayerRequests.update(id, { deletedAt: now, updatedAt: now });
  }

  /**
   * Sets the answer once. The row is locked first (FOR NO KEY UPDATE): of two answers racing, the
   * second waits for the first to commit, then finds it answered (409) and writes nothing.
   */
  async answer(id: string, dto: AnswerPrayerRequestDto, principal: Principal): Promise<PrayerRequestResponse> {
    const answer = dto.answer.trim();
    if (!answer) throw AppError.validation([{ field: 'answer', issue: 'required' }]);
    const row = await this.require(id, principal, 'for_no_key_update');
    if (row.answeredAt) throw new AppError('conflict', { reason: 'the prayer request has already been answered' });
    const now = new Date();
    const changes = { answeredAt: now, answer, updatedAt: now };
    await this.prayerRequests.update(id, changes);
    const response = toPrayerRequestResponse(Object.assign(row, changes), await this.relatedTo([row]));
    await this.outbox.record('prayer_request.answered', response);
    return response;
  }

  private async require(id: string, principal: Principal, lock?: 'for_no_key_update'): Promise<PrayerRequestEntity> {
    const row = await this.prayerRequests.findVisible(id, viewerOf(principal), lock);
    if (!row) throw AppError.notFound('prayer request');
    return row;
  }

  /**
   * member_id (a live member) and campus (key or id) must exist; member_id or name must remain. A
   * member merged into another names the survivor (CONTRACT §17): `memberId` is the one to write,
   * locked FOR KEY SHARE (a merge of it waits for this write and then moves it, or is followed).
   */
  private async checkReferences(dto: { member_id?: string | null; campus?: string | null }, namesSomeone: boolean) {
    const issues: FieldIssue[] = [];
    if (!namesSomeone) issues.push({ field: 'member_id', issue: 'required' }, { field: 'name', issue: 'required' });
    let memberId: string | undefined;
    if (dto.member_id) {
      const uuid = parsePublicId(ID_PREFIX.member, dto.member_id);
      memberId = (uuid && (await this.members.findLiveOrSurvivor(uuid, 'for_key_share'))?.id) || undefined;
      if (!memberId) issues.push({ field: 'member_id', issue: 'not_found' });
    }
    let campus: CampusEntity | undefined;
    if (dto.campus) {
      campus = (await this.campuses.resolveRefs([dto.campus])).get(dto.campus);
      if (!campus) issues.push({ field: 'campus', issue: 'not_found' });
    }
    return { issues, campus, memberId };
  }

  /** The members and campuses of a page, in two queries whatever its size. */
  private async relatedTo(rows: PrayerRequestEntity[]): Promise<Related> {
    const memberIds = [...new Set(rows.map((r) => r.memberId).filter((id): id is string => id !== null))];
    const members = await this.members.liveNames(memberIds);
    return { members: new Map(members.map((m) => [m.id, m])), campuses: await this.campuses.byIdOf(rows) };
  }
}

/** A member_id filter that is not a mem_ id is a 400, as any malformed filter value. */
function assertMemberIds(query: ListQuery): void {
  for (const term of query.filters) {
    if (term.field !== 'member_id') continue;
    const values = Array.isArray(term.value) ? term.value : [term.value];
    if (values.some((v) => parsePublicId(ID_PREFIX.member, v) === null))
      throw AppError.invalidParameter(term.op === 'eq' ? 'member_id' : `member_id[${term.op}]`, 'invalid');
  }
}
