import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError, FieldIssue } from '../../common/errors/app-error';
import { ID_PREFIX, newUuid, parsePublicId } from '../../common/ids/id';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import { clearedRequiredFields } from '../../common/validation/validation-issues';
import type { RowLock } from '../../database/row-lock';
import { FundsService } from '../funds/funds.service';
import { MemberLookup } from '../members/member-lookup';
import type { CreatePledgeDto } from './dto/create-pledge.dto';
import type { PledgeResponse } from './dto/pledge.response';
import type { UpdatePledgeDto } from './dto/update-pledge.dto';
import { PledgeEntity } from './pledge.entity';
import { PLEDGE_LIST } from './pledges.list';
import { toPledgeResponse } from './pledges.mapper';
import { PledgesRepository } from './pledges.repository';

const REQUIRED_ON_PATCH = ['fund_id', 'amount', 'currency', 'starts_on', 'ends_on'] as const;

/**
 * Pledges (CONTRACT §12): a donor's promise to give `amount` to a fund within a window. `given`
 * and `remaining` are computed when read, from the donations (never stored, so a refund or a
 * batch commit shows at once); a page's pledges are computed in one query. No webhook events.
 */
@Injectable()
export class PledgesService {
  constructor(
    private readonly pledges: PledgesRepository,
    private readonly funds: FundsService,
    private readonly members: MemberLookup,
  ) {}

  async create(dto: CreatePledgeDto): Promise<PledgeResponse> {
    const donorId = await this.donorOf(dto.donor_id);
    const issues: FieldIssue[] = [
      ...(donorId ? [] : [{ field: 'donor_id', issue: 'not_found' }]),
      ...(await this.funds.givingIssues(dto.fund_id)),
      ...windowIssues(dto.starts_on, dto.ends_on),
    ];
    if (issues.length) throw AppError.validation(issues);
    const now = new Date();
    const pledge = Object.assign(new PledgeEntity(), {
      tenantId: TenantContext.current().tenantId,
      id: newUuid(),
      donorId: donorId!,
      fundId: parsePublicId(ID_PREFIX.fund, dto.fund_id)!,
      amount: dto.amount,
      currency: dto.currency,
      startsOn: dto.starts_on,
      endsOn: dto.ends_on,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    } satisfies Partial<PledgeEntity>);
    await this.pledges.insert(pledge);
    return this.respond(pledge);
  }

  async get(id: string): Promise<PledgeResponse> {
    return this.respond(await this.require(id));
  }

  /** The live pledges among `ids` as GET returns them, by id (the changes feed's objects), with `given`: two queries. */
  async getMany(ids: string[]): Promise<Map<string, PledgeResponse>> {
    const pledges = await this.pledges.findLiveMany(ids);
    const given = await this.pledges.givenOf(pledges.map((p) => p.id));
    return new Map(pledges.map((p) => [p.id, toPledgeResponse(p, given.get(p.id) ?? 0)]));
  }

  /** A page of pledges with `given` for all of them in one query. */
  async list(rawQuery: Record<string, unknown>): Promise<ListEnvelope<PledgeResponse>> {
    const page = await this.pledges.list(parseListQuery(rawQuery, PLEDGE_LIST));
    const given = await this.pledges.givenOf(page.rows.map((p) => p.id));
    return toEnvelope(page, (p) => toPledgeResponse(p, given.get(p.id) ?? 0));
  }

  async update(id: string, dto: UpdatePledgeDto): Promise<PledgeResponse> {
    const cleared = clearedRequiredFields(dto, REQUIRED_ON_PATCH);
    if (cleared.length) throw AppError.validation(cleared);
    const pledge = await this.require(id, 'for_no_key_update');
    const changes: Partial<PledgeEntity> = { updatedAt: new Date() };
    if (dto.fund_id !== undefined) changes.fundId = parsePublicId(ID_PREFIX.fund, dto.fund_id) ?? undefined;
    if (dto.amount !== undefined) changes.amount = dto.amount;
    if (dto.currency !== undefined) changes.currency = dto.currency;
    if (dto.starts_on !== undefined) changes.startsOn = dto.starts_on;
    if (dto.ends_on !== undefined) changes.endsOn = dto.ends_on;
    // A fund that stays the same is not checked again (an archived fund keeps its pledges).
    const fundChanged = dto.fund_id !== undefined && changes.fundId !== pledge.fundId;
    const issues = [
      ...(fundChanged ? await this.funds.givingIssues(dto.fund_id!) : []),
      ...windowIssues(changes.startsOn ?? pledge.startsOn, changes.endsOn ?? pledge.endsOn),
    ];
    if (issues.length) throw AppError.validation(issues);
    if (!(await this.pledges.update(id, changes))) throw AppError.notFound('pledge');
    return this.respond(Object.assign(pledge, changes));
  }

  /** Soft delete: the pledge disappears from the API (the donations stay as they are). */
  async remove(id: string): Promise<void> {
    await this.require(id, 'for_no_key_update');
    const now = new Date();
    if (!(await this.pledges.update(id, { deletedAt: now, updatedAt: now }))) throw AppError.notFound('pledge');
  }

  /**
   * The donor, a live member of the church, or null. A member merged into another names the survivor
   * (CONTRACT §17), locked FOR KEY SHARE: a merge of it waits for this write (and then moves it), or
   * has committed and is followed.
   */
  private async donorOf(ref: string): Promise<string | null> {
    const named = parsePublicId(ID_PREFIX.member, ref);
    return named ? ((await this.members.findLiveOrSurvivor(named, 'for_key_share'))?.id ?? null) : null;
  }

  private async require(id: string, lock?: RowLock): Promise<PledgeEntity> {
    const pledge = await this.pledges.findLive(id, lock);
    if (!pledge) throw AppError.notFound('pledge');
    return pledge;
  }

  private async respond(pledge: PledgeEntity): Promise<PledgeResponse> {
    const given = await this.pledges.givenOf([pledge.id]);
    return toPledgeResponse(pledge, given.get(pledge.id) ?? 0);
  }
}

/** ends_on is on or after starts_on. */
function windowIssues(startsOn: string, endsOn: string): FieldIssue[] {
  return endsOn < startsOn ? [{ field: 'ends_on', issue: 'before_start', params: { start: startsOn } }] : [];
}
