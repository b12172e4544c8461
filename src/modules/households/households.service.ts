import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError, FieldIssue } from '../../common/errors/app-error';
import { ID_PREFIX, newUuid, parsePublicId } from '../../common/ids/id';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import { clearedRequiredFields } from '../../common/validation/validation-issues';
import type { RowLock } from '../../database/row-lock';
import { MemberHouseholdsService } from '../members/member-households.service';
import { MemberLookup } from '../members/member-lookup';
import type { AddHouseholdMemberDto } from './dto/add-household-member.dto';
import type { CreateHouseholdDto } from './dto/create-household.dto';
import type { HouseholdResponse } from './dto/household.response';
import type { UpdateHouseholdDto } from './dto/update-household.dto';
import { HouseholdEntity } from './household.entity';
import { HOUSEHOLD_LIST } from './households.list';
import { Roster, toHouseholdResponse } from './households.mapper';
import { HouseholdsRepository } from './households.repository';

/**
 * Households and who is in them. Membership lives on the member (household_id, household_role),
 * so a member is in at most one household; moves go through MemberHouseholdsService, which locks
 * the member and raises `member.updated`. Locks are taken household first, then member.
 */
@Injectable()
export class HouseholdsService {
  constructor(
    private readonly households: HouseholdsRepository,
    private readonly members: MemberHouseholdsService,
    private readonly lookup: MemberLookup,
  ) {}

  async create(dto: CreateHouseholdDto): Promise<HouseholdResponse> {
    const contact = await this.contactOf(dto);
    if (contact.issues.length) throw AppError.validation(contact.issues);
    const now = new Date();
    const household = Object.assign(new HouseholdEntity(), {
      tenantId: TenantContext.current().tenantId,
      id: newUuid(),
      name: dto.name.trim(),
      address: dto.address ? { ...dto.address } : null,
      primaryContactId: contact.id ?? null,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
    await this.households.insert(household);
    return this.respond(household);
  }

  async get(id: string): Promise<HouseholdResponse> {
    return this.respond(await this.require(id));
  }

  /** The live households among `ids` as GET returns them, by id (the changes feed's objects): two queries. */
  async getMany(ids: string[]): Promise<Map<string, HouseholdResponse>> {
    const households = await this.households.findLiveMany(ids);
    const roster = await this.rosterOf(households);
    return new Map(households.map((h) => [h.id, toHouseholdResponse(h, roster)]));
  }

  /** A page of households with their members: one query for the page, one for every member on it. */
  async list(rawQuery: Record<string, unknown>): Promise<ListEnvelope<HouseholdResponse>> {
    const page = await this.households.list(parseListQuery(rawQuery, HOUSEHOLD_LIST));
    const roster = await this.rosterOf(page.rows);
    return toEnvelope(page, (h) => toHouseholdResponse(h, roster));
  }

  async update(id: string, dto: UpdateHouseholdDto): Promise<HouseholdResponse> {
    const contact = await this.contactOf(dto);
    const issues = [...clearedRequiredFields(dto, ['name']), ...contact.issues];
    if (issues.length) throw AppError.validation(issues);
    const household = await this.require(id, 'for_no_key_update');
    const changes: Partial<HouseholdEntity> = { updatedAt: new Date() };
    if (dto.name !== undefined) changes.name = dto.name.trim();
    if (dto.address !== undefined) changes.address = dto.address ? { ...dto.address } : null;
    if (contact.id !== undefined) changes.primaryContactId = contact.id;
    await this.households.update(id, changes);
    return this.respond(Object.assign(household, changes));
  }

  /** Soft delete; its members leave it (household_id and household_role null, `member.updated` each). */
  async remove(id: string): Promise<void> {
    // FOR UPDATE: members joining it (who lock it FOR KEY SHARE) wait, then find no household.
    await this.require(id, 'pessimistic_write');
    const now = new Date();
    await this.households.update(id, { deletedAt: now, updatedAt: now });
    await this.members.detachAll(id);
  }

  /** Puts a member in the household, moving them out of any other one; answers the household. */
  async addMember(id: string, dto: AddHouseholdMemberDto): Promise<HouseholdResponse> {
    const household = await this.require(id, 'for_key_share');
    const memberId = parsePublicId(ID_PREFIX.member, dto.member_id)!;
    if (!(await this.members.join(memberId, id, dto.household_role)))
      throw AppError.validation([{ field: 'member_id', issue: 'not_found' }]);
    return this.respond(household);
  }

  async removeMember(id: string, memberId: string): Promise<void> {
    await this.require(id, 'for_key_share');
    // Locked as the update will: a merge running meanwhile is waited for and followed.
    const member = (await this.lookup.liveOrSurvivorIds([memberId], 'for_no_key_update')).get(memberId) ?? memberId;
    if (!(await this.members.leave(member, id))) throw AppError.notFound('household member');
  }

  private async require(id: string, lock?: RowLock): Promise<HouseholdEntity> {
    const household = await this.households.findLive(id, lock);
    if (!household) throw AppError.notFound('household');
    return household;
  }

  /**
   * The primary contact the body names (undefined when it names none, null when it clears it), or its
   * issue. A member merged into another names the survivor (CONTRACT §17), locked FOR KEY SHARE.
   */
  private async contactOf(dto: {
    primary_contact_id?: string | null;
  }): Promise<{ id: string | null | undefined; issues: FieldIssue[] }> {
    if (dto.primary_contact_id === undefined) return { id: undefined, issues: [] };
    if (!dto.primary_contact_id) return { id: null, issues: [] };
    const named = parsePublicId(ID_PREFIX.member, dto.primary_contact_id);
    const id = named && (await this.lookup.liveOrSurvivorIds([named], 'for_key_share')).get(named);
    return id ? { id, issues: [] } : { id: undefined, issues: [{ field: 'primary_contact_id', issue: 'not_found' }] };
  }

  private rosterOf(households: HouseholdEntity[]): Promise<Roster> {
    const contacts = households.map((h) => h.primaryContactId).filter((id): id is string => id !== null);
    return this.members
      .roster(
        households.map((h) => h.id),
        [...new Set(contacts)],
      )
      .then((members) => new Roster(members));
  }

  private async respond(household: HouseholdEntity): Promise<HouseholdResponse> {
    return toHouseholdResponse(household, await this.rosterOf([household]));
  }
}
