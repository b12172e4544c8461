import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError, FieldIssue } from '../../common/errors/app-error';
import { ID_PREFIX, newUuid, parsePublicId } from '../../common/ids/id';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import { isCurrency, isValidAmount } from '../../common/money/currencies';
import { clearedRequiredFields } from '../../common/validation/validation-issues';
import type { RowLock } from '../../database/row-lock';
import { ListTotals } from '../../platform/list-totals/list-totals.service';
import { OutboxService } from '../../platform/outbox/outbox.service';
import { CampusesService } from '../campuses/campuses.service';
import { FundsService } from '../funds/funds.service';
import { MemberLookup } from '../members/member-lookup';
import { DONATION_METHODS, DonationEntity } from './donation.entity';
import { DONATION_LIST, MEMBER_DONATION_LIST } from './donations.list';
import { DonationRefsLoader } from './donation-refs';
import { DonationRefundsService } from './donation-refunds.service';
import { toDonationResponse } from './donations.mapper';
import { DonationsRepository } from './donations.repository';
import type { CreateDonationDto } from './dto/create-donation.dto';
import type { DonationResponse } from './dto/donation.response';
import type { RefundDonationDto } from './dto/refund-donation.dto';
import type { UpdateDonationDto } from './dto/update-donation.dto';
import { ProcessorPayment, uuidOf } from './processor-payment';
import { readReceivedAt } from './received-at';

export type { ProcessorPayment } from './processor-payment';

/** Who names the references: a client (public ids only) or the processor's metadata (public ids or bare uuids). */
type Origin = 'api' | 'processor';

@Injectable()
export class DonationsService {
  constructor(
    private readonly donations: DonationsRepository,
    private readonly refs: DonationRefsLoader,
    private readonly refunds: DonationRefundsService,
    private readonly funds: FundsService,
    private readonly campuses: CampusesService,
    private readonly outbox: OutboxService,
    private readonly totals: ListTotals,
    private readonly members: MemberLookup,
  ) {}

  /**
   * POST /v1/donations. A gift with `batch_id` goes into an open batch as `pending` (no event until
   * the batch is committed); the batch row is locked FOR SHARE so that a concurrent commit either
   * counts it or makes this add a 409, never loses it. Otherwise `succeeded` and `donation.created`.
   */
  async create(dto: CreateDonationDto): Promise<DonationResponse> {
    const issues: FieldIssue[] = [];
    const fund = await this.funds.findByPublicId(dto.fund_id, 'for_key_share');
    if (!fund) issues.push({ field: 'fund_id', issue: 'not_found' });
    else if (!fund.active) issues.push({ field: 'fund_id', issue: 'inactive' });
    const donorIssueAt = issues.length;
    const campusByRef = await this.campuses.resolveRefs(dto.campus ? [dto.campus] : []);
    const campus = dto.campus ? campusByRef.get(dto.campus) : undefined;
    if (dto.campus && !campus) issues.push({ field: 'campus', issue: 'not_found' });
    const receivedAt = readReceivedAt(dto.received_at, issues);
    const batchId = dto.batch_id ? parsePublicId(ID_PREFIX.batch, dto.batch_id) : null;
    const batch = batchId ? await this.donations.lockBatchForAdd(batchId) : null;
    if (dto.batch_id && !batch) issues.push({ field: 'batch_id', issue: 'not_found' });
    // The donor once the batch is held (findDonor locks them): an add that waits for its donor (a
    // merge of them running) holds the batch meanwhile, as one waiting at its INSERT does.
    const donor = dto.donor_id ? await this.findDonor(dto.donor_id, 'api') : null;
    if (dto.donor_id && !donor) issues.splice(donorIssueAt, 0, { field: 'donor_id', issue: 'not_found' });
    if (batch && batch.status === 'open' && batch.currency !== dto.currency)
      issues.push({ field: 'currency', issue: 'currency_mismatch', params: { currency: batch.currency } });
    if (issues.length) throw AppError.validation(issues);
    if (batch?.status === 'committed')
      throw new AppError('conflict', { reason: 'the batch has been committed; gifts cannot be added to it' });

    const now = new Date();
    const donation = this.newDonation({
      amount: dto.amount,
      currency: dto.currency,
      fundId: fund!.id,
      donorId: donor?.id ?? null,
      campusId: campus?.id ?? null,
      method: dto.method ?? 'other',
      checkNumber: dto.check_number ?? null,
      receivedAt: receivedAt ?? now,
      note: dto.note ?? null,
      status: batch ? 'pending' : 'succeeded',
      batchId,
      createdAt: now,
    });
    await this.donations.insert(donation);
    const response = toDonationResponse(donation, {
      funds: new Map([[fund!.id, fund!]]),
      donors: new Map(donor ? [[donor.id, donor]] : []),
      campuses: new Map(campus ? [[campus.id, campus]] : []),
    });
    if (donation.status === 'succeeded') await this.outbox.record('donation.created', response);
    this.totals.invalidate('donations');
    return response;
  }

  /**
   * A payment the processor reports (its webhook): a `succeeded` donation with `processor_id` and
   * `donation.created`. The same processorId again, even concurrently, returns the donation it
   * made and raises nothing (unique index). An unknown fund or currency, or an amount out of range,
   * is a 422 naming the intent's field; an unknown donor makes an anonymous gift.
   */
  async recordProcessorPayment(payment: ProcessorPayment): Promise<DonationResponse> {
    const existing = await this.donations.findByProcessorId(payment.processorId);
    if (existing) return this.refs.respond(existing);
    const currency = typeof payment.currency === 'string' ? payment.currency.toUpperCase() : '';
    const issues: FieldIssue[] = [];
    if (!isValidAmount(payment.amount))
      issues.push({ field: 'amount', issue: 'out_of_range', params: { min: 1, max: 100_000_000 } });
    if (!isCurrency(currency)) issues.push({ field: 'currency', issue: 'invalid' });
    const fundUuid = uuidOf(ID_PREFIX.fund, payment.fundId, true);
    const fund = fundUuid ? await this.funds.findById(fundUuid, 'for_key_share') : null;
    if (!fund) issues.push({ field: 'metadata.fund_id', issue: 'not_found' });
    if (issues.length) throw AppError.validation(issues);
    const donor = payment.donorId ? await this.findDonor(payment.donorId, 'processor') : null;
    // A recurring gift the church does not have is left out (the money is recorded all the same).
    const giftId = uuidOf(ID_PREFIX.recurringGift, payment.recurringGiftId, true);
    const recurringGiftId = giftId && (await this.donations.hasRecurringGift(giftId)) ? giftId : null;
    const now = new Date();
    const donation = this.newDonation({
      amount: payment.amount,
      currency,
      fundId: fund!.id,
      donorId: donor?.id ?? null,
      campusId: null,
      method: DONATION_METHODS.includes(payment.method) ? payment.method : 'other',
      checkNumber: null,
      // Never later than now: the processor's clock is not ours (and the table refuses a gift received after it is entered).
      receivedAt:
        payment.receivedAt instanceof Date && payment.receivedAt.getTime() < now.getTime() ? payment.receivedAt : now,
      note: null,
      status: 'succeeded',
      batchId: null,
      recurringGiftId,
      processorId: payment.processorId,
      createdAt: now,
    });
    if (!(await this.donations.insert(donation))) {
      // Recorded meanwhile by a concurrent delivery of the same payment (which raised the event).
      return this.refs.respond((await this.donations.findByProcessorId(payment.processorId))!);
    }
    const response = await this.refs.respond(donation);
    await this.outbox.record('donation.created', response);
    this.totals.invalidate('donations');
    return response;
  }

  async get(id: string): Promise<DonationResponse> {
    return this.refs.respond(await this.require(id));
  }

  /**
   * The donations among `ids` as GET returns them, by id (the changes feed's objects): four queries
   * (the donations, then their funds, donors and campuses as a page reads them).
   */
  async getMany(ids: string[]): Promise<Map<string, DonationResponse>> {
    const rows = await this.donations.findManyByIds(ids);
    const refs = await this.refs.of(rows);
    return new Map(rows.map((d) => [d.id, toDonationResponse(d, refs)]));
  }

  async list(rawQuery: Record<string, unknown>): Promise<ListEnvelope<DonationResponse>> {
    return this.page(parseListQuery(rawQuery, DONATION_LIST));
  }

  /** GET /v1/members/{id}/donations: 404 for a member the church does not have, a 301 to the survivor's list for a merged one. */
  async listForMember(memberId: string, rawQuery: Record<string, unknown>): Promise<ListEnvelope<DonationResponse>> {
    const query = parseListQuery(rawQuery, MEMBER_DONATION_LIST);
    await this.members.requireLiveForRead(memberId, 'donations');
    query.filters.push({ field: 'donor_id', op: 'eq', value: `${ID_PREFIX.member}_${memberId.replace(/-/g, '')}` });
    return this.page(query);
  }

  /** PATCH: fund, campus, note and check number only (the DTO refuses anything else); money is never edited. */
  async update(id: string, dto: UpdateDonationDto): Promise<DonationResponse> {
    const cleared = clearedRequiredFields(dto, ['fund_id']);
    if (cleared.length) throw AppError.validation(cleared);
    const issues: FieldIssue[] = [];
    const fund = dto.fund_id ? await this.funds.findByPublicId(dto.fund_id, 'for_key_share') : null;
    if (dto.fund_id && !fund) issues.push({ field: 'fund_id', issue: 'not_found' });
    else if (fund && !fund.active) issues.push({ field: 'fund_id', issue: 'inactive' });
    const campusByRef = await this.campuses.resolveRefs(dto.campus ? [dto.campus] : []);
    if (dto.campus && !campusByRef.has(dto.campus)) issues.push({ field: 'campus', issue: 'not_found' });
    if (issues.length) throw AppError.validation(issues);
    const donation = await this.require(id, 'for_no_key_update');
    const changes: Partial<DonationEntity> = { updatedAt: new Date() };
    if (fund) changes.fundId = fund.id;
    if (dto.campus !== undefined) changes.campusId = dto.campus ? campusByRef.get(dto.campus)!.id : null;
    if (dto.note !== undefined) changes.note = dto.note;
    if (dto.check_number !== undefined) changes.checkNumber = dto.check_number;
    await this.donations.update(donation.id, changes);
    this.totals.invalidate('donations');
    return this.refs.respond(Object.assign(donation, changes));
  }

  /** POST /v1/donations/{id}/refund (see DonationRefundsService). */
  refund(id: string, dto: RefundDonationDto): Promise<DonationResponse> {
    return this.refunds.refund(id, dto);
  }

  /** The processor's refund (`charge.refunded`) of its payment `processorId` (see DonationRefundsService). */
  refundByProcessor(
    processorId: string,
    refund: { amount: number; processorRefundId?: string | null },
  ): Promise<DonationResponse | null> {
    return this.refunds.refundByProcessor(processorId, refund);
  }

  /**
   * The processor's dispute (`charge.dispute.created`) of the donation it made with `processorId`:
   * status `disputed` (it counts for nothing until resolved) and `donation.disputed` with the
   * dispute; null when no donation has that id.
   */
  async disputeByProcessor(
    processorId: string,
    dispute: { reason?: string | null; status?: string | null; amount?: number | null },
  ): Promise<DonationResponse | null> {
    const donation = await this.donations.findByProcessorId(processorId, 'for_no_key_update');
    if (!donation) return null;
    const changes: Partial<DonationEntity> = {
      status: 'disputed',
      dispute: {
        reason: dispute.reason ?? null,
        status: dispute.status ?? null,
        amount: typeof dispute.amount === 'number' ? Math.trunc(dispute.amount) : null,
      },
      updatedAt: new Date(),
    };
    await this.donations.update(donation.id, changes);
    const response = await this.refs.respond(Object.assign(donation, changes));
    await this.outbox.record('donation.disputed', response);
    this.totals.invalidate('donations');
    return response;
  }

  /**
   * For the batch commit (BatchesService, which holds the batch's lock): makes the batch's
   * pending donations succeeded and raises their `donation.created`, in the caller's transaction.
   */
  async succeedBatch(batchId: string): Promise<number> {
    const ids = await this.donations.succeedPendingOfBatch(batchId, new Date());
    if (ids.length === 0) return 0;
    const rows = await this.donations.findManyByIds(ids);
    const refs = await this.refs.of(rows);
    const objects = rows.map((d) => toDonationResponse(d, refs));
    await this.outbox.recordMany('donation.created', objects);
    this.totals.invalidate('donations');
    return ids.length;
  }

  /** Count and total (minor units, the batch's currency) of each batch's donations, in one query. */
  batchSums(batchIds: string[]): Promise<Map<string, { count: number; total: number }>> {
    return this.donations.batchSums(batchIds);
  }

  private async page(query: ReturnType<typeof parseListQuery>): Promise<ListEnvelope<DonationResponse>> {
    const state = await this.totals.open('donations', query);
    const page = await this.donations.list(query, state);
    const refs = await this.refs.of(page.rows);
    return toEnvelope(page, (d) => toDonationResponse(d, refs));
  }

  private newDonation(fields: Omit<Partial<DonationEntity>, 'createdAt'> & { createdAt: Date }): DonationEntity {
    return Object.assign(new DonationEntity(), {
      tenantId: TenantContext.current().tenantId,
      id: newUuid(),
      recurringGiftId: null,
      processorId: null,
      refundedAmount: 0,
      dispute: null,
      ...fields,
      updatedAt: fields.createdAt,
    });
  }

  /**
   * A live member named by a `mem_` id (a processor's metadata may hold the bare uuid); a member
   * merged into another names the survivor (CONTRACT §17). Locked FOR KEY SHARE, as the gift's
   * foreign key locks it anyway: a merge running meanwhile is waited for, then followed, so the
   * gift never lands on a member merged away.
   */
  private async findDonor(ref: string, origin: Origin) {
    const uuid = uuidOf(ID_PREFIX.member, ref, origin === 'processor');
    return uuid ? this.members.findLiveOrSurvivor(uuid, 'for_key_share') : null;
  }

  private async require(id: string, lock?: RowLock): Promise<DonationEntity> {
    const donation = await this.donations.findById(id, lock);
    if (!donation) throw AppError.notFound('donation');
    return donation;
  }
}
