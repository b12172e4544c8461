import { Injectable } from '@nestjs/common';
import { ID_PREFIX, IdPrefix, toPublicId } from '../../common/ids/id';
import {
  ATTENDANCE_GROUPS,
  DateRange,
  GIVING_GROUPS,
  GROWTH_GROUPS,
  previousRange,
  readCurrency,
  readGroupBy,
  readQuery,
  readRange,
  ReportTimezone,
} from './report-params';
import { ReportsRepository } from './reports.repository';

type Ref = { id: string; name: string } | null;

export interface Report<Row, Totals> {
  report: string;
  params: Record<string, string | number | null>;
  generated_at: string;
  rows: Row[];
  totals: Totals;
}

export interface GivingRow {
  fund?: Ref;
  campus?: Ref;
  period?: string;
  currency: string;
  count: number;
  amount: number;
  refunded: number;
  net: number;
}

export type GivingTotal = Omit<GivingRow, 'fund' | 'campus' | 'period'>;

export type DonorCategory = 'first_time' | 'recurring' | 'lapsed';

export interface DonorRow {
  donor: { id: string; first_name: string | null; last_name: string | null };
  category: DonorCategory;
  gifts: number;
  first_gift_at: string;
  last_gift_at: string;
}

export interface AttendanceRow {
  event?: { id: string; name: string | null; starts_at: string | null };
  campus?: Ref;
  period?: string;
  records: number;
  unique_people: number;
}

export interface GrowthRow {
  period: string;
  new_members: number;
  new_prospects: number;
  conversions: number;
  net_active: number;
}

export interface GroupRow {
  group: { id: string; name: string };
  status: string;
  members: number;
  leaders: number;
  meetings: number;
  attended: number;
  attendance_rate: number | null;
}

const ref = (prefix: IdPrefix, id: string | null, name: string | null): Ref =>
  id === null ? null : { id: toPublicId(prefix, id), name: name ?? '' };

/** Today's date (YYYY-MM-DD) in the time zone; UTC's if the runtime does not know the zone. */
export function todayIn(timezone: string, now = new Date()): string {
  try {
    return new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}

/** The reports of CONTRACT §13: parameters checked, one aggregate query each, rows and totals shaped. */
@Injectable()
export class ReportsService {
  constructor(private readonly repo: ReportsRepository) {}

  private async dates(query: Record<string, string | undefined>): Promise<{ tz: ReportTimezone; range: DateRange }> {
    const tz = await this.repo.timezone();
    return { tz, range: readRange(query, todayIn(tz.timezone)) };
  }

  private envelope<Row, Totals>(
    report: string,
    params: Record<string, string | number | null>,
    rows: Row[],
    totals: Totals,
  ): Report<Row, Totals> {
    return { report, params, generated_at: new Date().toISOString(), rows, totals };
  }

  async giving(raw: Record<string, unknown>): Promise<Report<GivingRow, GivingTotal[]>> {
    const query = readQuery(raw, ['from', 'to', 'group_by', 'currency']);
    const groupBy = readGroupBy(query.group_by, GIVING_GROUPS, 'month');
    const currency = readCurrency(query.currency);
    const { tz, range } = await this.dates(query);
    await this.repo.foldGivingDays(tz.timezone);
    const found = await this.repo.giving(range, groupBy, currency);
    const totals = new Map<string, GivingTotal>();
    const rows = found.map((r): GivingRow => {
      const amount = Number(r.amount);
      const refunded = Number(r.refunded);
      const money = { currency: r.currency, count: r.count, amount, refunded, net: amount - refunded };
      const total = totals.get(r.currency) ?? { currency: r.currency, count: 0, amount: 0, refunded: 0, net: 0 };
      total.count += money.count;
      total.amount += amount;
      total.refunded += refunded;
      total.net += money.net;
      totals.set(r.currency, total);
      if (groupBy === 'fund') return { fund: ref(ID_PREFIX.fund, r.key, r.name), ...money };
      if (groupBy === 'campus') return { campus: ref(ID_PREFIX.campus, r.key, r.name), ...money };
      return { period: r.key!, ...money };
    });
    const sortedTotals = [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency));
    return this.envelope(
      'giving',
      { ...range, group_by: groupBy, currency, timezone: tz.timezone, timezone_source: tz.source },
      rows,
      sortedTotals,
    );
  }

  async donors(raw: Record<string, unknown>): Promise<Report<DonorRow, Record<DonorCategory, number>>> {
    const query = readQuery(raw, ['from', 'to']);
    const { tz, range } = await this.dates(query);
    const previous = previousRange(range);
    const found = await this.repo.donors(range, previous, tz.timezone);
    const totals: Record<DonorCategory, number> = { first_time: 0, recurring: 0, lapsed: 0 };
    const rows = found.map((r): DonorRow => {
      const category: DonorCategory = !r.in_period ? 'lapsed' : r.before_period ? 'recurring' : 'first_time';
      totals[category] += 1;
      return {
        donor: { id: toPublicId(ID_PREFIX.member, r.donor_id), first_name: r.first_name, last_name: r.last_name },
        category,
        gifts: r.gifts,
        first_gift_at: r.first_gift_at.toISOString(),
        last_gift_at: r.last_gift_at.toISOString(),
      };
    });
    return this.envelope(
      'giving_donors',
      {
        ...range,
        previous_from: previous.from,
        previous_to: previous.to,
        timezone: tz.timezone,
        timezone_source: tz.source,
      },
      rows,
      totals,
    );
  }

  async attendance(
    raw: Record<string, unknown>,
  ): Promise<Report<AttendanceRow, { records: number; unique_people: number }>> {
    const query = readQuery(raw, ['from', 'to', 'group_by']);
    const groupBy = readGroupBy(query.group_by, ATTENDANCE_GROUPS, 'week');
    const { tz, range } = await this.dates(query);
    const found = await this.repo.attendance(range, tz.timezone, groupBy);
    const total = found.find((r) => r.is_total);
    const rows = found
      .filter((r) => !r.is_total)
      .map((r): AttendanceRow => {
        const counts = { records: r.records, unique_people: r.unique_people };
        if (groupBy === 'event')
          return {
            event: {
              id: toPublicId(ID_PREFIX.event, r.key!),
              name: r.name,
              starts_at: r.starts_at?.toISOString() ?? null,
            },
            ...counts,
          };
        if (groupBy === 'campus') return { campus: ref(ID_PREFIX.campus, r.key, r.name), ...counts };
        return { period: r.key!, ...counts };
      });
    return this.envelope(
      'attendance',
      { ...range, group_by: groupBy, timezone: tz.timezone, timezone_source: tz.source },
      rows,
      {
        records: total?.records ?? 0,
        unique_people: total?.unique_people ?? 0,
      },
    );
  }

  async growth(raw: Record<string, unknown>): Promise<Report<GrowthRow, Omit<GrowthRow, 'period'>>> {
    const query = readQuery(raw, ['from', 'to', 'group_by']);
    const groupBy = readGroupBy(query.group_by, GROWTH_GROUPS, 'month');
    const { tz, range } = await this.dates(query);
    const found = await this.repo.growth(range, tz.timezone);
    const totals = { new_members: 0, new_prospects: 0, conversions: 0, net_active: 0 };
    const rows = found.map((r): GrowthRow => {
      const row = {
        period: r.period,
        new_members: r.new_members,
        new_prospects: r.new_prospects,
        conversions: r.conversions,
        net_active: r.new_members - r.left_members,
      };
      totals.new_members += row.new_members;
      totals.new_prospects += row.new_prospects;
      totals.conversions += row.conversions;
      totals.net_active += row.net_active;
      return row;
    });
    return this.envelope(
      'growth',
      { ...range, group_by: groupBy, timezone: tz.timezone, timezone_source: tz.source },
      rows,
      totals,
    );
  }

  async groups(
    raw: Record<string, unknown>,
  ): Promise<Report<GroupRow, { groups: number; members: number; leaders: number }>> {
    readQuery(raw, []);
    const found = await this.repo.groups();
    const totals = { groups: found.length, members: 0, leaders: 0 };
    const rows = found.map((r): GroupRow => {
      totals.members += r.members;
      totals.leaders += r.leaders;
      const possible = r.members * r.meetings;
      return {
        group: { id: toPublicId(ID_PREFIX.group, r.id), name: r.name },
        status: r.status,
        members: r.members,
        leaders: r.leaders,
        meetings: r.meetings,
        attended: r.attended,
        attendance_rate: possible === 0 ? null : Math.round((r.attended * 10_000) / possible) / 10_000,
      };
    });
    return this.envelope('groups', { last_meetings: 8 }, rows, totals);
  }
}
