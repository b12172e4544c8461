import { Injectable } from '@nestjs/common';
import { ID_PREFIX, parsePublicId } from '../../common/ids/id';
import { BatchesService } from '../../modules/batches/batches.service';
import { DonationsService } from '../../modules/donations/donations.service';
import { FundsService } from '../../modules/funds/funds.service';
import { PledgesService } from '../../modules/pledges/pledges.service';
import { RecurringGiftsService } from '../../modules/recurring-gifts/recurring-gifts.service';
import { CliSupport } from '../cli-support';
import { random } from './seed-demo.data';
import { FUND_KEYS, FUNDS, FundIds, GivingPlanner, PlannedGift, PlannedRecurring } from './seed-demo.giving';

/** Gifts per transaction, and transactions at once (each on its own pooled connection). */
const CHUNK = 200;
const PARALLEL = 4;

export interface GivingSummary {
  funds: number;
  donations: number;
  recurring_gifts: number;
  pledges: number;
  batches: number;
}

/**
 * Writes the demo church's giving (GivingPlanner) through the giving modules' services, so that
 * their rules, events and row-level security apply as they do for the API: funds (made once, a
 * second run reuses them), donations, recurring gifts with their processor charges, pledges, and a
 * batch committed at once.
 */
@Injectable()
export class GivingSeeder {
  constructor(
    private readonly cli: CliSupport,
    private readonly funds: FundsService,
    private readonly donations: DonationsService,
    private readonly batches: BatchesService,
    private readonly recurringGifts: RecurringGiftsService,
    private readonly pledges: PledgesService,
  ) {}

  async seed(
    slug: string,
    adults: string[],
    progress: (label: string, done: number, total: number) => void,
  ): Promise<GivingSummary> {
    const plan = new GivingPlanner(random(7)).plan(adults);
    const fundIds = await this.cli.inTenant(slug, () => this.ensureFunds());

    const chunks: number[] = [];
    for (let start = 0; start < plan.gifts.length; start += CHUNK) chunks.push(start);
    let done = 0;
    const created: string[] = new Array<string>(plan.gifts.length);
    const work = async () => {
      for (let start = chunks.shift(); start !== undefined; start = chunks.shift()) {
        const gifts = plan.gifts.slice(start, start + CHUNK);
        const ids = await this.cli.inTenant(slug, () => this.give(gifts, fundIds));
        ids.forEach((id, i) => (created[start + i] = id));
        progress('donations', (done += gifts.length), plan.gifts.length);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, work));
    process.stderr.write('\n');

    let charges = 0;
    for (const gift of plan.recurring) charges += await this.cli.inTenant(slug, () => this.recurring(gift, fundIds));
    for (const pledge of plan.pledges) {
      await this.cli.inTenant(slug, () =>
        this.pledges.create({
          donor_id: pledge.donor,
          fund_id: fundIds.building,
          amount: pledge.amount,
          currency: 'MXN',
          starts_on: pledge.startsOn,
          ends_on: pledge.endsOn,
        }),
      );
    }
    const batchGifts = await this.cli.inTenant(slug, () => this.looseOffering(plan.batch, fundIds));
    // A camp fee given back: the camper could not go (a refund, deducted from the net given).
    const camp = plan.gifts.findIndex((g) => g.fund === 'camp');
    if (camp >= 0)
      await this.cli.inTenant(slug, () => this.donations.refund(parsePublicId(ID_PREFIX.donation, created[camp])!, {}));

    return {
      funds: FUNDS.length,
      donations: created.length + charges + batchGifts,
      recurring_gifts: plan.recurring.length,
      pledges: plan.pledges.length,
      batches: 1,
    };
  }

  /** The demo funds, each made once (by name; a second run reuses them). */
  private async ensureFunds(): Promise<FundIds> {
    const existing = new Map((await this.funds.list({ limit: '250' })).data.map((f) => [f.name, f.id]));
    const ids = {} as FundIds;
    for (const [i, fund] of FUNDS.entries())
      ids[FUND_KEYS[i]] = existing.get(fund.name) ?? (await this.funds.create({ ...fund })).id;
    return ids;
  }

  /** The gifts, in order (their ids in the same order). */
  private async give(gifts: PlannedGift[], fundIds: FundIds): Promise<string[]> {
    const ids: string[] = [];
    for (const gift of gifts) ids.push((await this.donations.create({ ...gift.dto, fund_id: fundIds[gift.fund] })).id);
    return ids;
  }

  /** The gift, each charge the processor made (a card donation with recurring_gift_id), its failed charge, and its pause or cancel. */
  private async recurring(plan: PlannedRecurring, fundIds: FundIds): Promise<number> {
    const gift = await this.recurringGifts.create({
      donor_id: plan.donor,
      fund_id: fundIds[plan.fund],
      amount: plan.amount,
      currency: 'MXN',
      interval: plan.interval,
      start_on: plan.startOn,
    });
    const hex = gift.id.slice(4);
    for (const [k, date] of plan.charges.entries()) {
      await this.donations.recordProcessorPayment({
        processorId: `pi_demo_${hex}_${k}`,
        amount: plan.amount,
        currency: 'MXN',
        fundId: fundIds[plan.fund],
        donorId: plan.donor,
        recurringGiftId: gift.id,
        method: 'card',
        receivedAt: new Date(`${date}T14:00:00Z`),
      });
    }
    if (plan.failedOn)
      await this.recurringGifts.chargeFailed(gift.id, { reason: 'expired_card', invoiceId: `in_demo_${hex}` });
    if (plan.status !== 'active')
      await this.recurringGifts.update(parsePublicId(ID_PREFIX.recurringGift, gift.id)!, { status: plan.status });
    return plan.charges.length;
  }

  /** The ushers' batch: its gifts entered (pending), the expected total checked, committed. */
  private async looseOffering(batch: { description: string; gifts: PlannedGift[] }, fundIds: FundIds): Promise<number> {
    const total = batch.gifts.reduce((sum, g) => sum + g.dto.amount, 0);
    const created = await this.batches.create({
      description: batch.description,
      currency: 'MXN',
      expected_total: total,
    });
    for (const gift of batch.gifts)
      await this.donations.create({ ...gift.dto, fund_id: fundIds[gift.fund], batch_id: created.id });
    await this.batches.commit(parsePublicId(ID_PREFIX.batch, created.id)!);
    return batch.gifts.length;
  }
}
