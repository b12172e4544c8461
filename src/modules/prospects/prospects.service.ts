import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError, FieldIssue } from '../../common/errors/app-error';
import { ID_PREFIX, newUuid, parsePublicId, toPublicId } from '../../common/ids/id';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import { clearedRequiredFields } from '../../common/validation/validation-issues';
import type { RowLock } from '../../database/row-lock';
import { UsersService } from '../../platform/users/users.service';
import { OutboxService } from '../../platform/outbox/outbox.service';
import type { CampusEntity } from '../campuses/campus.entity';
import { CampusesService } from '../campuses/campuses.service';
import type { CreateMemberDto } from '../members/dto/create-member.dto';
import { MembersService } from '../members/members.service';
import type { ConvertProspectDto } from './dto/convert-prospect.dto';
import type { CreateProspectDto } from './dto/create-prospect.dto';
import type { ProspectResponse } from './dto/prospect.response';
import type { UpdateProspectDto } from './dto/update-prospect.dto';
import { ProspectEntity } from './prospect.entity';
import { PROSPECT_LIST } from './prospects.list';
import { toProspectResponse } from './prospects.mapper';
import { ProspectsRepository } from './prospects.repository';

const REQUIRED_ON_PATCH = ['first_name', 'last_name', 'stage'] as const;
/** The member fields a convert body may not clear (null), as a member PATCH may not. */
const REQUIRED_MEMBER_FIELDS = ['first_name', 'last_name', 'status', 'active', 'custom_fields'] as const;

/** What a body's references resolved to: campuses by key or id, the assignee's uuid. */
interface References {
  campusByRef: Map<string, CampusEntity>;
  assigneeId: string | null;
  issues: FieldIssue[];
}

@Injectable()
export class ProspectsService {
  constructor(
    private readonly prospects: ProspectsRepository,
    private readonly campuses: CampusesService,
    private readonly users: UsersService,
    private readonly members: MembersService,
    private readonly outbox: OutboxService,
  ) {}

  async create(dto: CreateProspectDto): Promise<ProspectResponse> {
    const refs = await this.resolve(dto);
    if (refs.issues.length) throw AppError.validation(refs.issues);
    const now = new Date();
    const prospect = Object.assign(new ProspectEntity(), {
      tenantId: TenantContext.current().tenantId,
      id: newUuid(),
      firstName: dto.first_name.trim(),
      lastName: dto.last_name.trim(),
      email: dto.email ?? null,
      phone: dto.phone ?? null,
      campusId: dto.campus ? refs.campusByRef.get(dto.campus)!.id : null,
      source: dto.source ?? null,
      stage: dto.stage ?? 'new',
      assignedTo: refs.assigneeId,
      followUpOn: dto.follow_up_on ?? null,
      notes: dto.notes ?? null,
      convertedAt: null,
      memberId: null,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
    await this.prospects.insert(prospect);
    const response = toProspectResponse(prospect, byCampusId(refs.campusByRef));
    await this.outbox.record('prospect.created', response);
    return response;
  }

  async get(id: string): Promise<ProspectResponse> {
    const prospect = await this.require(id);
    return toProspectResponse(prospect, await this.campusesOf([prospect]));
  }

  /** The live prospects among `ids` as GET returns them, by id (the changes feed's objects): two queries. */
  async getMany(ids: string[]): Promise<Map<string, ProspectResponse>> {
    const prospects = await this.prospects.findLiveMany(ids);
    const campuses = await this.campusesOf(prospects);
    return new Map(prospects.map((p) => [p.id, toProspectResponse(p, campuses)]));
  }

  /** A page of prospects; their campuses in one query. */
  async list(rawQuery: Record<string, unknown>): Promise<ListEnvelope<ProspectResponse>> {
    const page = await this.prospects.list(parseListQuery(rawQuery, PROSPECT_LIST));
    const campuses = await this.campusesOf(page.rows);
    return toEnvelope(page, (p) => toProspectResponse(p, campuses));
  }

  /** Moves the prospect along the pipeline (any stage but `converted`); a converted prospect keeps its stage (409). */
  async update(id: string, dto: UpdateProspectDto): Promise<ProspectResponse> {
    const refs = await this.resolve(dto);
    const issues = [...clearedRequiredFields(dto, REQUIRED_ON_PATCH), ...refs.issues];
    if (issues.length) throw AppError.validation(issues);
    // Locked as convert locks it: a PATCH racing a convert runs after it and sees the converted stage.
    const prospect = await this.require(id, 'for_no_key_update');
    if (dto.stage !== undefined && prospect.stage === 'converted') {
      throw new AppError('conflict', { reason: 'the prospect has been converted; its stage cannot change' }, [
        { field: 'stage', issue: 'invalid' },
      ]);
    }
    const changes: Partial<ProspectEntity> = { updatedAt: new Date() };
    if (dto.first_name !== undefined) changes.firstName = dto.first_name.trim();
    if (dto.last_name !== undefined) changes.lastName = dto.last_name.trim();
    if (dto.email !== undefined) changes.email = dto.email;
    if (dto.phone !== undefined) changes.phone = dto.phone;
    if (dto.campus !== undefined) changes.campusId = dto.campus ? refs.campusByRef.get(dto.campus)!.id : null;
    if (dto.source !== undefined) changes.source = dto.source;
    if (dto.stage !== undefined) changes.stage = dto.stage;
    if (dto.assigned_to !== undefined) changes.assignedTo = refs.assigneeId;
    if (dto.follow_up_on !== undefined) changes.followUpOn = dto.follow_up_on;
    if (dto.notes !== undefined) changes.notes = dto.notes;
    await this.save(id, changes);
    const updated = Object.assign(prospect, changes);
    return toProspectResponse(updated, await this.campusesOf([updated]));
  }

  async remove(id: string): Promise<void> {
    await this.require(id, 'for_no_key_update');
    const now = new Date();
    await this.save(id, { deletedAt: now, updatedAt: now });
  }

  /**
   * Creates the member (through MembersService: its validation, defaults and `member.created`),
   * marks the prospect converted and raises `prospect.converted`, all in the request's transaction.
   * The prospect is locked first, so of two concurrent converts the second waits for the first to
   * commit and then finds it converted (409): one member, one event.
   */
  async convert(id: string, overrides: ConvertProspectDto): Promise<ProspectResponse> {
    const cleared = clearedRequiredFields(overrides, REQUIRED_MEMBER_FIELDS);
    if (cleared.length) throw AppError.validation(cleared);
    const prospect = await this.require(id, 'for_no_key_update');
    if (prospect.stage === 'converted') {
      const into = prospect.memberId ? ` into member ${toPublicId(ID_PREFIX.member, prospect.memberId)}` : '';
      throw new AppError('conflict', { reason: `the prospect has already been converted${into}` });
    }
    // DTO instances carry every declared field (undefined when absent): only the sent ones override.
    const sent: Partial<CreateMemberDto> = Object.fromEntries(
      Object.entries(overrides).filter(([, value]) => value !== undefined),
    );
    const member = await this.members.create({
      first_name: prospect.firstName,
      last_name: prospect.lastName,
      email: prospect.email,
      phone: prospect.phone,
      campus: prospect.campusId ? toPublicId(ID_PREFIX.campus, prospect.campusId) : null,
      ...sent,
    });
    const now = new Date();
    const changes: Partial<ProspectEntity> = {
      stage: 'converted',
      convertedAt: now,
      memberId: parsePublicId(ID_PREFIX.member, member.id),
      updatedAt: now,
    };
    await this.save(id, changes);
    const response = toProspectResponse(Object.assign(prospect, changes), await this.campusesOf([prospect]));
    await this.outbox.record('prospect.converted', response);
    return response;
  }

  /** The campus and assignee a body names; an unknown one is a 422 issue on its field. */
  private async resolve(dto: { campus?: string | null; assigned_to?: string | null }): Promise<References> {
    const issues: FieldIssue[] = [];
    const campusByRef = await this.campuses.resolveRefs(dto.campus ? [dto.campus] : []);
    if (dto.campus && !campusByRef.has(dto.campus)) issues.push({ field: 'campus', issue: 'not_found' });
    let assigneeId: string | null = null;
    if (dto.assigned_to) {
      assigneeId = parsePublicId(ID_PREFIX.user, dto.assigned_to);
      if (!assigneeId || !(await this.users.findById(assigneeId)))
        issues.push({ field: 'assigned_to', issue: 'not_found' });
    }
    return { campusByRef, assigneeId, issues };
  }

  private async save(id: string, changes: Partial<ProspectEntity>): Promise<void> {
    if (!(await this.prospects.update(id, changes))) throw AppError.notFound('prospect');
  }

  private async require(id: string, lock?: RowLock): Promise<ProspectEntity> {
    const prospect = await this.prospects.findLive(id, lock);
    if (!prospect) throw AppError.notFound('prospect');
    return prospect;
  }

  private campusesOf(prospects: ProspectEntity[]): Promise<Map<string, CampusEntity>> {
    return this.campuses.byIdOf(prospects);
  }
}

/** Campuses resolved by reference (key or id), re-keyed by id for the mapper. */
function byCampusId(campusByRef: Map<string, CampusEntity>): Map<string, CampusEntity> {
  return new Map([...campusByRef.values()].map((c) => [c.id, c]));
}
