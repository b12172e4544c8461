import type { CreateDonationDto } from '../../modules/donations/dto/create-donation.dto';
import type { DonationMethod } from '../../modules/donations/donation.entity';
import type { Interval } from '../../modules/recurring-gifts/schedule';
import { chargeDate } from '../../modules/recurring-gifts/schedule';

/** The demo church's funds: the general fund, missions, a building campaign, and youth camp fees (not tax-deductible: the camper gets a service). */
export const FUNDS = [
  {
    name: 'Diezmos y ofrendas',
    description: 'Tithes and offerings: the general fund.',
    ledger_code: '4010',
    tax_deductible: true,
  },
  {
    name: 'Misiones',
    description: 'Our missionaries and the yearly mission trip.',
    ledger_code: '4020',
    tax_deductible: true,
  },
  {
    name: 'Fondo de construcción',
    description: 'The new sanctuary: the building campaign.',
    ledger_code: '4030',
    tax_deductible: true,
  },
  {
    name: 'Campamento de jóvenes',
    description: 'Youth camp fees (a service received, not a gift for the statements).',
    ledger_code: '4090',
    tax_deductible: false,
  },
] as const;

export type FundKey = 'general' | 'missions' | 'building' | 'camp';
export const FUND_KEYS: readonly FundKey[] = ['general', 'missions', 'building', 'camp'];

const DAY = 86_400_000;
const WEEKS = 104;
/** Sunday services at 11:00 in Guadalajara (UTC-6 all year since 2022): 17:00 UTC. */
const SERVICE_HOUR_UTC = 17;

/** A gift to record through DonationsService.create: the body with the fund named by its key. */
export interface PlannedGift {
  fund: FundKey;
  dto: Omit<CreateDonationDto, 'fund_id'>;
}

/** A recurring gift and the processor charges it had so far (a card charged by the processor). */
export interface PlannedRecurring {
  donor: string;
  fund: FundKey;
  amount: number;
  interval: Interval;
  startOn: string;
  /** The charge dates up to today (or up to the pause or cancel). */
  charges: string[];
  /** Where it ends up: paused or canceled after its charges, or still active. */
  status: 'active' | 'paused' | 'canceled';
  /** The charge the processor could not make (the card expired), if any. */
  failedOn: string | null;
}

export interface PlannedPledge {
  donor: string;
  amount: number;
  startsOn: string;
  endsOn: string;
}

export interface GivingPlan {
  gifts: PlannedGift[];
  recurring: PlannedRecurring[];
  pledges: PlannedPledge[];
  /** Last Sunday's loose offering, counted by the ushers: a batch committed at once. */
  batch: { description: string; gifts: PlannedGift[] };
}

/**
 * Two years of a church's giving, deterministic for a given `rand`, from the adult members
 * (`mem_` ids): weekly givers (most Sundays, their own amount and habit: cash, check, transfer or
 * online), occasional givers (a few gifts a year, camp fees in July), a Christmas missions
 * offering, a building campaign with yearly pledges given towards month by month, a few recurring
 * card gifts charged by the processor (one paused, one canceled, one with a failed charge), a few
 * gifts in US dollars from supporters abroad, and last Sunday's loose offering as a batch.
 * Amounts are in MXN centavos (USD cents for the dollar gifts).
 */
export class GivingPlanner {
  private readonly sundays: Date[];
  private readonly today = new Date();

  constructor(private readonly rand: () => number) {
    const lastSunday = new Date(
      Date.UTC(
        this.today.getUTCFullYear(),
        this.today.getUTCMonth(),
        this.today.getUTCDate() - this.today.getUTCDay(),
        SERVICE_HOUR_UTC,
      ),
    );
    if (lastSunday > this.today) lastSunday.setTime(lastSunday.getTime() - 7 * DAY);
    this.sundays = Array.from({ length: WEEKS }, (_, i) => new Date(lastSunday.getTime() - (WEEKS - 1 - i) * 7 * DAY));
  }

  plan(adults: string[]): GivingPlan {
    const donors = this.shuffle(adults);
    const weekly = donors.splice(0, Math.min(15, Math.max(1, Math.round(adults.length * 0.12))));
    const recurring = donors.splice(0, Math.min(5, donors.length));
    const occasional = donors.splice(0, Math.min(40, Math.round(adults.length * 0.25)));
    const gifts: PlannedGift[] = [];
    for (const donor of weekly) gifts.push(...this.weeklyGiver(donor));
    for (const donor of occasional) gifts.push(...this.occasionalGiver(donor));
    gifts.push(...this.christmasOffering(weekly));
    gifts.push(...this.dollarSupporters(occasional));
    const pledgers = weekly.slice(0, Math.min(6, weekly.length));
    const pledges = this.pledges(pledgers);
    gifts.push(...this.campaignGifts(pledges));
    return {
      gifts,
      recurring: recurring.map((donor, i) => this.recurringGift(donor, i)),
      pledges,
      batch: this.looseOffering(occasional),
    };
  }

  /** Most Sundays (not on holiday), about the same amount each time, by their habit; now and then something for missions. */
  private weeklyGiver(donor: string): PlannedGift[] {
    const amount = this.amount(200, 1500, 50);
    const method = this.pick<DonationMethod>(['cash', 'cash', 'check', 'ach', 'online', 'online']);
    const gifts: PlannedGift[] = [];
    let check = 1000 + this.int(8000);
    for (const sunday of this.sundays) {
      if (this.rand() < 0.15) continue;
      const gift = Math.round((amount * (0.9 + this.rand() * 0.2)) / 5000) * 5000;
      gifts.push(this.gift('general', donor, gift, sunday, method, method === 'check' ? String(check++) : null));
      if (this.rand() < 0.06)
        gifts.push(
          this.gift(
            'missions',
            donor,
            this.amount(100, 500, 50),
            sunday,
            method,
            method === 'check' ? String(check++) : null,
          ),
        );
    }
    return gifts;
  }

  /** Two to eight gifts over the two years; camp fees for some in July. */
  private occasionalGiver(donor: string): PlannedGift[] {
    const gifts: PlannedGift[] = [];
    const method = this.pick<DonationMethod>(['cash', 'online', 'card', 'other']);
    for (let n = 2 + this.int(7); n > 0; n--) {
      gifts.push(
        this.gift(
          this.rand() < 0.8 ? 'general' : 'missions',
          donor,
          this.amount(100, 1000, 50),
          this.pick(this.sundays),
          method,
        ),
      );
    }
    const julys = this.sundays.filter((s) => s.getUTCMonth() === 6);
    if (julys.length && this.rand() < 0.3)
      gifts.push(this.gift('camp', donor, 250000, this.pick(julys), 'card', null, 'Inscripción al campamento'));
    return gifts;
  }

  /** The Christmas Sunday offering for missions: most weekly givers add to it. */
  private christmasOffering(weekly: string[]): PlannedGift[] {
    const christmas = this.sundays.filter(
      (s) => s.getUTCMonth() === 11 && s.getUTCDate() >= 18 && s.getUTCDate() <= 24,
    );
    return christmas.flatMap((sunday) =>
      weekly
        .filter(() => this.rand() < 0.6)
        .map((donor) =>
          this.gift('missions', donor, this.amount(500, 3000, 100), sunday, 'cash', null, 'Ofrenda de Navidad'),
        ),
    );
  }

  /** A few supporters in the United States give to missions in dollars (a separate total: sums never mix currencies). */
  private dollarSupporters(occasional: string[]): PlannedGift[] {
    return occasional.slice(0, 2).flatMap((donor) =>
      Array.from({ length: 3 }, () => {
        const gift = this.gift('missions', donor, this.amount(25, 200, 5), this.pick(this.sundays), 'online');
        return { fund: gift.fund, dto: { ...gift.dto, currency: 'USD' } };
      }),
    );
  }

  /** The building campaign: a pledge a year (January to December) from a few weekly givers. */
  private pledges(pledgers: string[]): PlannedPledge[] {
    const year = this.today.getUTCFullYear();
    return pledgers.flatMap((donor) =>
      [year - 1, year].map((y) => ({
        donor,
        amount: this.amount(6000, 24000, 1000),
        startsOn: `${y}-01-01`,
        endsOn: `${y}-12-31`,
      })),
    );
  }

  /** Pledgers give towards their pledge on the first Sunday of most months; some fall behind. */
  private campaignGifts(pledges: PlannedPledge[]): PlannedGift[] {
    const gifts: PlannedGift[] = [];
    for (const pledge of pledges) {
      const faithfulness = 0.5 + this.rand() * 0.6;
      const monthly = Math.round(pledge.amount / 12 / 100) * 100;
      for (const sunday of this.sundays) {
        const day = sunday.toISOString().slice(0, 10);
        if (sunday.getUTCDate() > 7 || day < pledge.startsOn || day > pledge.endsOn || this.rand() > faithfulness)
          continue;
        gifts.push(this.gift('building', pledge.donor, monthly, sunday, 'ach', null, 'Compromiso de construcción'));
      }
    }
    return gifts;
  }

  /** Monthly or fortnightly card gifts; the third is paused, the fourth canceled (after some charges), the second had a charge fail. */
  private recurringGift(donor: string, index: number): PlannedRecurring {
    const interval: Interval = index % 2 ? 'two_weeks' : 'month';
    const first = this.sundays[this.int(WEEKS / 2)];
    const startOn = new Date(first.getTime() + (1 + this.int(5)) * DAY).toISOString().slice(0, 10);
    const today = this.today.toISOString().slice(0, 10);
    const status = index === 2 ? 'paused' : index === 3 ? 'canceled' : 'active';
    const dates: string[] = [];
    for (let k = 0; chargeDate(startOn, interval, k) < today; k++) dates.push(chargeDate(startOn, interval, k));
    const charges = status === 'active' ? dates : dates.slice(0, Math.max(1, Math.floor(dates.length * 0.6)));
    const failedOn = index === 1 && charges.length > 2 ? charges.splice(charges.length - 2, 1)[0] : null;
    return {
      donor,
      fund: index === 4 ? 'missions' : 'general',
      amount: this.amount(300, 2000, 100),
      interval,
      startOn,
      charges,
      status,
      failedOn,
    };
  }

  /** Last Sunday's loose offering: envelopes (some named) and cash, entered as one batch. */
  private looseOffering(occasional: string[]): GivingPlan['batch'] {
    const sunday = this.sundays[WEEKS - 1];
    const gifts = Array.from({ length: 12 }, (_, i) => {
      const named = i < 5 && occasional[i] !== undefined;
      return this.gift(
        'general',
        named ? occasional[i] : null,
        named ? this.amount(200, 800, 50) : this.amount(20, 200, 10),
        sunday,
        named ? 'check' : 'cash',
        named ? String(300 + i) : null,
      );
    });
    return { description: `Ofrenda suelta del domingo ${sunday.toISOString().slice(0, 10)}`, gifts };
  }

  private gift(
    fund: FundKey,
    donor: string | null,
    amount: number,
    at: Date,
    method: DonationMethod,
    checkNumber: string | null = null,
    note: string | null = null,
  ): PlannedGift {
    // Online and card gifts come in at any time of the week before the service.
    const receivedAt =
      method === 'online' || method === 'card' || method === 'ach'
        ? new Date(at.getTime() - this.int(6 * 24) * 3_600_000)
        : at;
    return {
      fund,
      dto: {
        amount,
        currency: 'MXN',
        donor_id: donor,
        method,
        check_number: checkNumber,
        received_at: receivedAt.toISOString(),
        note,
      },
    };
  }

  /** A random amount from `min` to `max` major units, in steps of `step`, in minor units. */
  private amount(min: number, max: number, step: number): number {
    return (min + step * this.int(Math.floor((max - min) / step) + 1)) * 100;
  }

  private shuffle<T>(list: readonly T[]): T[] {
    const copy = [...list];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy;
  }

  private int(n: number): number {
    return Math.floor(this.rand() * n);
  }

  private pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)];
  }
}

/** `fnd_…` of each demo fund, by key. */
export type FundIds = Record<FundKey, string>;
