import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError, FieldIssue } from '../../common/errors/app-error';
import { ID_PREFIX, isUuid, newUuid, parsePublicId } from '../../common/ids/id';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import { clearedRequiredFields } from '../../common/validation/validation-issues';
import { OutboxService } from '../../platform/outbox/outbox.service';
import { FundsService } from '../funds/funds.service';
import { MemberLookup } from '../members/member-lookup';
import type { CreateRecurringGiftDto } from './dto/create-recurring-gift.dto';
import type { RecurringChargeFailedEvent, RecurringGiftResponse } from './dto/recurring-gift.response';
import type { UpdateRecurringGiftDto } from './dto/update-recurring-gift.dto';
import { RecurringGiftEntity } from './recurring-gift.entity';
import { RECURRING_GIFT_LIST } from './recurring-gifts.list';
import { toChargeFailedEvent, toRecurringGiftResponse } from './recurring-gifts.mapper';
import { RecurringGiftsRepository } from './recurring-gifts.repository';
import { utcDate } from './schedule';

const REQUIRED_ON_PATCH = ['amount', 'currency', 'fund_id', 'interval', 'start_on', 'status'] as const;
const EDITABLE = ['amount', 'currency', 'fundId', 'interval', 'startOn', 'endOn', 'status'] as const;

export interface ChargeFailure {
  /** The processor's reason (e.g. its decline code). */
  reason: string;
  /** The processor's invoice id, if any. */
  invoiceId: string | null;
}

/**
 * Recurring gifts (CONTRACT §12). The processor does the charging; this keeps the schedule and
 * its state. Pause, resume and cancel are PATCHes of `status`. Every write locks the gift row
 * first (FOR NO KEY UPDATE): concurrent changes run one after the other, each on what the previous
 * one committed, so a cancel racing a resume ends canceled with one `recurring.canceled`, or the
 * resume that comes second is 409.
 */
@Injectable()
export class RecurringGiftsService {
  constructor(
    private readonly gifts: RecurringGiftsRepository,
    private readonly funds: FundsService,
    private readonly members: MemberLookup,
    private readonly outbox: OutboxService,
  ) {}

  async create(dto: CreateRecurringGiftDto): Promise<RecurringGiftResponse> {
    const donorId = await this.donorOf(dto.donor_id);
    const issues: FieldIssue[] = [
      ...(donorId ? [] : [{ field: 'donor_id', issue: 'not_found' }]),
      ...(await this.funds.givingIssues(dto.fund_id)),
      ...windowIssues(dto.start_on, dto.end_on ?? null),
    ];
    if (issues.length) throw AppError.validation(issues);
    const now = new Date();
    const gift = Object.assign(new RecurringGiftEntity(), {
      tenantId: TenantContext.current().tenantId,
      id: newUuid(),
      donorId: donorId!,
      fundId: parsePublicId(ID_PREFIX.fund, dto.fund_id)!,
      amount: dto.amount,
      currency: dto.currency,
      interval: dto.interval,
      startOn: dto.start_on,
      endOn: dto.end_on ?? null,
      status: 'active',
      canceledAt: null,
      createdAt: now,
      updatedAt: now,
    } satisfies Partial<RecurringGiftEntity>);
    await this.gifts.insert(gift);
    const response = toRecurringGiftResponse(gift, utcDate(now));
    await this.outbox.record('recurring.created', response);
    return response;
  }

  async get(id: string): Promise<RecurringGiftResponse> {
    return toRecurringGiftResponse(await this.require(id), utcDate(new Date()));
  }

  /** The gifts among `ids` as GET returns them, by id (the changes feed's objects), in one query. */
  async getMany(ids: string[]): Promise<Map<string, RecurringGiftResponse>> {
    const today = utcDate(new Date());
    return new Map((await this.gifts.findMany(ids)).map((gift) => [gift.id, toRecurringGiftResponse(gift, today)]));
  }

  async list(rawQuery: Record<string, unknown>): Promise<ListEnvelope<RecurringGiftResponse>> {
    const page = await this.gifts.list(parseListQuery(rawQuery, RECURRING_GIFT_LIST));
    const today = utcDate(new Date());
    return toEnvelope(page, (gift) => toRecurringGiftResponse(gift, today));
  }

  /**
   * Changes the fields sent. `status`: `paused` pauses, `active` resumes, `canceled` cancels and
   * raises `recurring.canceled` (instead of `recurring.updated`). A canceled gift takes no change
   * at all (409). Nothing changes, and nothing is raised, when the body changes nothing.
   */
  async update(id: string, dto: UpdateRecurringGiftDto): Promise<RecurringGiftResponse> {
    const cleared = clearedRequiredFields(dto, REQUIRED_ON_PATCH);
    if (cleared.length) throw AppError.validation(cleared);
    const gift = await this.require(id, 'for_no_key_update');
    if (gift.status === 'canceled') {
      throw new AppError('conflict', { reason: 'the recurring gift is canceled and cannot change; create a new one' }, [
        { field: 'status', issue: 'invalid' },
      ]);
    }
    const now = new Date();
    const next: Partial<RecurringGiftEntity> = {};
    if (dto.amount !== undefined) next.amount = dto.amount;
    if (dto.currency !== undefined) next.currency = dto.currency;
    if (dto.fund_id !== undefined) next.fundId = parsePublicId(ID_PREFIX.fund, dto.fund_id) ?? dto.fund_id;
    if (dto.interval !== undefined) next.interval = dto.interval;
    if (dto.start_on !== undefined) next.startOn = dto.start_on;
    if (dto.end_on !== undefined) next.endOn = dto.end_on;
    if (dto.status !== undefined) next.status = dto.status;
    const changes: Partial<RecurringGiftEntity> = Object.fromEntries(
      EDITABLE.filter((key) => key in next && next[key] !== gift[key]).map((key) => [key, next[key]]),
    );
    const issues = [
      ...('fundId' in changes ? await this.funds.givingIssues(dto.fund_id!) : []),
      ...windowIssues(changes.startOn ?? gift.startOn, changes.endOn !== undefined ? changes.endOn : gift.endOn),
    ];
    if (issues.length) throw AppError.validation(issues);
    if (Object.keys(changes).length === 0) return toRecurringGiftResponse(gift, utcDate(now));

    changes.updatedAt = now;
    if (changes.status === 'canceled') changes.canceledAt = now;
    if (!(await this.gifts.update(gift.id, changes))) throw AppError.notFound('recurring gift');
    const before = toRecurringGiftResponse(gift, utcDate(now));
    const response = toRecurringGiftResponse(Object.assign(gift, changes), utcDate(now));
    if (changes.status === 'canceled') await this.outbox.record('recurring.canceled', response);
    else await this.outbox.recordUpdate('recurring.updated', before, response);
    return response;
  }

  /**
   * For the payment processor: a charge of the gift failed. Raises `recurring.charge_failed` with
   * the gift as GET returns it plus `failure: {reason, invoice_id, at}` and returns that object;
   * null (nothing raised) when the church has no such gift. `recurringGiftId` is the `rcg_` id (as
   * the processor's metadata carries it) or the uuid. The gift itself does not change.
   */
  async chargeFailed(recurringGiftId: string, failure: ChargeFailure): Promise<RecurringChargeFailedEvent | null> {
    const gift = await this.findByRef(recurringGiftId);
    if (!gift) return null;
    const at = new Date();
    const event = toChargeFailedEvent(toRecurringGiftResponse(gift, utcDate(at)), { ...failure, at });
    await this.outbox.record('recurring.charge_failed', event);
    return event;
  }

  private findByRef(ref: string): Promise<RecurringGiftEntity | null> {
    const uuid = isUuid(ref) ? ref : parsePublicId(ID_PREFIX.recurringGift, ref);
    return uuid ? this.gifts.find(uuid) : Promise.resolve(null);
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

  private async require(id: string, lock?: 'for_no_key_update'): Promise<RecurringGiftEntity> {
    const gift = await this.gifts.find(id, lock);
    if (!gift) throw AppError.notFound('recurring gift');
    return gift;
  }
}

/** end_on, when there is one, is on or after start_on. */
function windowIssues(startOn: string, endOn: string | null): FieldIssue[] {
  return endOn !== null && endOn < startOn
    ? [{ field: 'end_on', issue: 'before_start', params: { start: startOn } }]
    : [];
}
