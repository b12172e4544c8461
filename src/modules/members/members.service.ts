import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError, FieldIssue } from '../../common/errors/app-error';
import { ID_PREFIX, newUuid, parsePublicId } from '../../common/ids/id';
import { DEFAULT_LANGUAGE } from '../../common/i18n/language';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import { clearedRequiredFields } from '../../common/validation/validation-issues';
import type { RowLock } from '../../database/row-lock';
import type { CampusEntity } from '../campuses/campus.entity';
import { CampusesService } from '../campuses/campuses.service';
import { CampusDirectory } from './campus-directory';
import { MemberTagRefs } from './member-tag-refs';
import { memberMerged } from './member-lookup';
import { customFieldIssues, CustomFieldsWrite, setsCustomFields } from '../custom-fields/custom-field-values';
import { CustomFieldsService } from '../custom-fields/custom-fields.service';
import type { TagRef } from '../tags/dto/tag.response';
import { OutboxService } from '../../platform/outbox/outbox.service';
import type { CreateMemberDto } from './dto/create-member.dto';
import type { MemberResponse } from './dto/member.response';
import type { UpdateMemberDto } from './dto/update-member.dto';
import { DEFAULT_HOUSEHOLD_ROLE, MemberEntity } from './member.entity';
import { MEMBER_LIST } from './members.list';
import { toMemberResponse } from './members.mapper';
import { MembersRepository } from './members.repository';
import { listPageEtag, matches } from '../../common/http/conditional-get';
import { NotModified } from '../../common/http/not-modified';
import { ListTotals } from '../../platform/list-totals/list-totals.service';

const REQUIRED_ON_PATCH = ['first_name', 'last_name', 'status', 'active', 'custom_fields'] as const;

@Injectable()
export class MembersService {
  constructor(
    private readonly members: MembersRepository,
    private readonly campuses: CampusesService,
    private readonly campusDirectory: CampusDirectory,
    private readonly memberTags: MemberTagRefs,
    private readonly customFields: CustomFieldsService,
    private readonly outbox: OutboxService,
    private readonly totals: ListTotals,
  ) {}

  async create(dto: CreateMemberDto): Promise<MemberResponse> {
    const campusByRef = await this.campuses.resolveRefs(dto.campus ? [dto.campus] : []);
    const issues = [...campusIssues(dto, campusByRef), ...householdIssues(dto, await this.liveHouseholdsOf([dto]))];
    issues.push(
      ...customFieldIssues(
        dto.custom_fields,
        await this.customFields.definitions(setsCustomFields(dto.custom_fields)),
        'whole',
      ),
    );
    if (issues.length) throw AppError.validation(issues);
    const member = this.newMember(dto, campusByRef);
    await this.members.insert([member]);
    await this.outbox.record('member.created', toMemberResponse(member, byCampusId(campusByRef), DEFAULT_LANGUAGE, []));
    return this.respond(member, campusByRef, []);
  }

  /** Rows already validated one by one; resolves campuses once and inserts the valid rows in one statement. */
  async createMany(
    rows: { index: number; dto: CreateMemberDto }[],
  ): Promise<{ created: { index: number; id: string }[]; rejected: { index: number; errors: FieldIssue[] }[] }> {
    const refs = [...new Set(rows.map((r) => r.dto.campus).filter((c): c is string => typeof c === 'string'))];
    const campusByRef = await this.campuses.resolveRefs(refs);
    const households = await this.liveHouseholdsOf(rows.map((r) => r.dto));
    const definitions = await this.customFields.definitions(rows.some((r) => setsCustomFields(r.dto.custom_fields)));
    const created: { index: number; id: string }[] = [];
    const rejected: { index: number; errors: FieldIssue[] }[] = [];
    const entities: MemberEntity[] = [];
    for (const { index, dto } of rows) {
      const issues = [...campusIssues(dto, campusByRef), ...householdIssues(dto, households)];
      issues.push(...customFieldIssues(dto.custom_fields, definitions, 'whole'));
      if (issues.length) {
        rejected.push({ index, errors: issues });
        continue;
      }
      const member = this.newMember(dto, campusByRef);
      entities.push(member);
      created.push({ index, id: member.id });
    }
    await this.members.insert(entities);
    // Events carry the member as GET shows it, labels in the default language.
    const campuses = byCampusId(campusByRef);
    await this.outbox.recordMany(
      'member.created',
      entities.map((m) => toMemberResponse(m, campuses, DEFAULT_LANGUAGE, [])),
    );
    return { created, rejected };
  }

  /** A member merged into another is a 301 `member_merged` to the survivor (CONTRACT §17). */
  async get(id: string): Promise<MemberResponse> {
    const member = await this.require(id);
    if (member.id !== id) throw memberMerged(member.id);
    return this.respond(member, await this.campusesOf([member]), await this.memberTags.ofOne(member.id));
  }

  /** The live members among `ids` as GET returns them, by id (the changes feed's objects). */
  async getMany(ids: string[]): Promise<Map<string, MemberResponse>> {
    const members = await this.members.findLiveMany(ids);
    const [campuses, tags] = await Promise.all([this.campusesOf(members), this.memberTags.of(ids)]);
    const { lang } = TenantContext.current();
    return new Map(members.map((m) => [m.id, toMemberResponse(m, campuses, lang, tags.get(m.id) ?? [])]));
  }

  /**
   * A page of members. With Redis, the ETag comes from the church's list version and the request,
   * so a matching If-None-Match is answered (304) before any query.
   */
  async list(
    rawQuery: Record<string, unknown>,
    ifNoneMatch?: string,
  ): Promise<{ etag: string | null; body: ListEnvelope<MemberResponse> }> {
    const spec = await this.customFields.memberListSpec(MEMBER_LIST, rawQuery);
    const query = parseListQuery(rawQuery, spec);
    await this.memberTags.resolveTagFilter(query);
    const { lang, tenantId } = TenantContext.current();
    const state = await this.totals.open('members', query);
    const etag = state ? listPageEtag(tenantId, ['members'], state.version, lang, query) : null;
    if (etag && matches(ifNoneMatch, etag)) throw new NotModified(etag);
    const page = await this.members.list(query, state, spec);
    const campuses = state
      ? await this.campusDirectory.campusesOf(page.rows, state.version)
      : await this.campusesOf(page.rows);
    const tagIds = new Map(
      page.rows.map((m) => [m.id, (page.computed?.get(m.id)?.tag_ids as string[] | undefined) ?? []]),
    );
    const tags = await this.memberTags.ofPage(tagIds, state?.version);
    return { etag, body: toEnvelope(page, (m) => toMemberResponse(m, campuses, lang, tags.get(m.id) ?? [])) };
  }

  /** `write`: PATCH merges custom_fields key by key (`partial`); PUT replaces them (`whole`: required fields must be there). */
  async update(id: string, dto: UpdateMemberDto, write: CustomFieldsWrite = 'partial'): Promise<MemberResponse> {
    const campusByRef = await this.campuses.resolveRefs(dto.campus ? [dto.campus] : []);
    const issues = [
      ...clearedRequiredFields(dto, REQUIRED_ON_PATCH),
      ...campusIssues(dto, campusByRef),
      ...householdIssues(dto, await this.liveHouseholdsOf([dto])),
    ];
    // The definitions before the member: a definition delete locks the definition, then members.
    if (dto.custom_fields)
      issues.push(
        ...customFieldIssues(
          dto.custom_fields,
          await this.customFields.definitions(setsCustomFields(dto.custom_fields)),
          write,
        ),
      );
    if (issues.length) throw AppError.validation(issues);
    const member = await this.require(id, 'for_no_key_update');
    const changes = this.changesFrom(dto, campusByRef);
    if (write === 'partial' && changes.customFields)
      changes.customFields = { ...member.customFields, ...changes.customFields };
    // Another household: role `other`; the same one keeps the role; none clears it.
    if (changes.householdId !== undefined)
      changes.householdRole = !changes.householdId
        ? null
        : changes.householdId === member.householdId
          ? member.householdRole
          : DEFAULT_HOUSEHOLD_ROLE;
    await this.save(member.id, changes);
    const updated = { ...member, ...changes };
    const campuses = await this.campusesOf([member, updated]);
    const tags = await this.memberTags.ofOne(member.id);
    await this.outbox.recordUpdate(
      'member.updated',
      toMemberResponse(member, campuses, DEFAULT_LANGUAGE, tags),
      toMemberResponse(updated, campuses, DEFAULT_LANGUAGE, tags),
    );
    return toMemberResponse(updated, campuses, TenantContext.current().lang, tags);
  }

  /** PUT: the body replaces the member; omitted optional fields are cleared or reset to defaults. */
  async replace(id: string, dto: CreateMemberDto): Promise<MemberResponse> {
    // DTO instances carry every declared field (undefined when absent): only sent values override the defaults.
    const sent = Object.fromEntries(Object.entries(dto).filter(([, value]) => value !== undefined));
    const full: UpdateMemberDto = {
      email: null,
      phone: null,
      birthdate: null,
      gender: null,
      status: 'visitor',
      campus: null,
      active: true,
      household_id: null,
      address: null,
      custom_fields: {},
      ...sent,
    };
    return this.update(id, full, 'whole');
  }

  async remove(id: string): Promise<void> {
    const member = await this.require(id, 'for_no_key_update');
    const now = new Date();
    if (!(await this.members.update(member.id, { deletedAt: now, updatedAt: now }))) throw AppError.notFound('member');
    await this.outbox.record(
      'member.deleted',
      toMemberResponse(
        Object.assign(member, { updatedAt: now }),
        await this.campusesOf([member]),
        DEFAULT_LANGUAGE,
        await this.memberTags.ofOne(member.id),
      ),
    );
  }

  private newMember(dto: CreateMemberDto, campusByRef: Map<string, CampusEntity>): MemberEntity {
    const now = new Date();
    return Object.assign(new MemberEntity(), {
      tenantId: TenantContext.current().tenantId,
      id: newUuid(),
      firstName: dto.first_name.trim(),
      lastName: dto.last_name.trim(),
      email: dto.email ?? null,
      phone: dto.phone ?? null,
      birthdate: dto.birthdate ?? null,
      gender: dto.gender ?? null,
      status: dto.status ?? 'visitor',
      campusId: dto.campus ? campusByRef.get(dto.campus)!.id : null,
      active: dto.active ?? true,
      householdId: dto.household_id ? parsePublicId(ID_PREFIX.household, dto.household_id) : null,
      householdRole: dto.household_id ? DEFAULT_HOUSEHOLD_ROLE : null,
      address: dto.address ? { ...dto.address } : null,
      customFields: dto.custom_fields ?? {},
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
  }

  private changesFrom(dto: UpdateMemberDto, campusByRef: Map<string, CampusEntity>): Partial<MemberEntity> {
    const changes: Partial<MemberEntity> = { updatedAt: new Date() };
    if (dto.first_name !== undefined) changes.firstName = dto.first_name.trim();
    if (dto.last_name !== undefined) changes.lastName = dto.last_name.trim();
    if (dto.email !== undefined) changes.email = dto.email;
    if (dto.phone !== undefined) changes.phone = dto.phone;
    if (dto.birthdate !== undefined) changes.birthdate = dto.birthdate;
    if (dto.gender !== undefined) changes.gender = dto.gender;
    if (dto.status !== undefined) changes.status = dto.status;
    if (dto.campus !== undefined) changes.campusId = dto.campus ? campusByRef.get(dto.campus)!.id : null;
    if (dto.active !== undefined) changes.active = dto.active;
    if (dto.household_id !== undefined)
      changes.householdId = dto.household_id ? parsePublicId(ID_PREFIX.household, dto.household_id) : null;
    if (dto.address !== undefined) changes.address = dto.address ? { ...dto.address } : null;
    if (dto.custom_fields !== undefined) changes.customFields = dto.custom_fields;
    return changes;
  }

  /** `member.updated` for members another resource changed in this transaction (households), as GET shows them. */
  async recordUpdated(changed: { before: MemberEntity; after: MemberEntity }[]): Promise<void> {
    const campuses = await this.campusesOf(changed.map((c) => c.after));
    const tags = await this.memberTags.of(changed.map((c) => c.after.id));
    const respond = (m: MemberEntity) => toMemberResponse(m, campuses, DEFAULT_LANGUAGE, tags.get(m.id) ?? []);
    await this.outbox.recordUpdates(
      'member.updated',
      changed.map((c) => ({ before: respond(c.before), after: respond(c.after) })),
    );
  }

  /** The live households the bodies name, locked FOR KEY SHARE (a concurrent household delete waits, or has happened). */
  private liveHouseholdsOf(dtos: { household_id?: string | null }[]): Promise<Set<string>> {
    const ids = dtos
      .map((d) => (d.household_id ? parsePublicId(ID_PREFIX.household, d.household_id) : null))
      .filter((id): id is string => id !== null);
    return this.members.liveHouseholds([...new Set(ids)]);
  }

  private async save(id: string, changes: Partial<MemberEntity>): Promise<void> {
    if (!(await this.members.update(id, changes))) throw AppError.notFound('member');
  }

  /**
   * Writes lock the member before reading it (FOR NO KEY UPDATE, what their UPDATE takes anyway):
   * concurrent writes of one member run one after the other, each on what the previous one
   * committed, so the event it records is the member as written; one that waited for a delete
   * finds nothing (404). An id merged into another member names the survivor (CONTRACT §17): the
   * answer's id tells which; one that waited for a merge follows it.
   */
  private async require(id: string, lock?: RowLock): Promise<MemberEntity> {
    const member = await this.members.findLiveOrSurvivor(id, lock);
    if (!member) throw AppError.notFound('member');
    return member;
  }

  private campusesOf(members: MemberEntity[]): Promise<Map<string, CampusEntity>> {
    return this.campuses.byIdOf(members);
  }

  private respond(member: MemberEntity, campusByRef: Map<string, CampusEntity>, tags: TagRef[]): MemberResponse {
    return toMemberResponse(member, byCampusId(campusByRef), TenantContext.current().lang, tags);
  }
}

/** Campuses resolved by reference (key or id), re-keyed by id for the mapper. */
function byCampusId(campusByRef: Map<string, CampusEntity>): Map<string, CampusEntity> {
  return new Map([...campusByRef.values()].map((c) => [c.id, c]));
}

function householdIssues(dto: { household_id?: string | null }, liveHouseholds: Set<string>): FieldIssue[] {
  const id = dto.household_id ? parsePublicId(ID_PREFIX.household, dto.household_id) : null;
  return id && !liveHouseholds.has(id) ? [{ field: 'household_id', issue: 'not_found' }] : [];
}

function campusIssues(dto: { campus?: string | null }, campusByRef: Map<string, CampusEntity>): FieldIssue[] {
  return dto.campus && !campusByRef.has(dto.campus) ? [{ field: 'campus', issue: 'not_found' }] : [];
}
