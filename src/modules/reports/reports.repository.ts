import { Injectable } from '@nestjs/common';
import { tenantScope } from '../../database/tenant-scope';
import { GIVEN_STATUSES } from '../donations/donation.entity';
import type { AttendanceGroup, DateRange, GivingGroup, ReportTimezone } from './report-params';

/** The gifts a giving report counts: the same statuses as statements and pledges (pending, disputed and failed count nothing). */
const COUNTED = `(${GIVEN_STATUSES.map((s) => `'${s}'`).join(', ')})`;

/** `column` (timestamptz) within the range's days in the time zone $tz (both days included). */
const within = (column: string, from: string, to: string, tz: string) =>
  `${column} >= (${from}::date)::timestamp AT TIME ZONE ${tz}::text AND ${column} < (${to}::date + 1)::timestamp AT TIME ZONE ${tz}::text`;

/**
 * Periods are grouped by the instant their local month or ISO week starts (date_trunc in the time
 * zone: half the cost of formatting every row) and formatted once per group: `2026-09`, `2026-W37`.
 */
const TRUNC = (unit: 'month' | 'week', column: string, tz: string) => `date_trunc('${unit}', ${column}, ${tz}::text)`;
const FORMAT = { month: 'YYYY-MM', week: 'IYYY-"W"IW' } as const;
const LABEL = (unit: 'month' | 'week', column: string, tz: string) =>
  `to_char(${column} AT TIME ZONE ${tz}::text, '${FORMAT[unit]}')`;

export interface GivingSqlRow {
  key: string | null;
  name: string | null;
  currency: string;
  count: number;
  amount: string;
  refunded: string;
}

export interface DonorSqlRow {
  donor_id: string;
  first_name: string | null;
  last_name: string | null;
  in_period: boolean;
  before_period: boolean;
  in_previous: boolean;
  gifts: number;
  first_gift_at: Date;
  last_gift_at: Date;
}

export interface AttendanceSqlRow {
  is_total: boolean;
  key: string | null;
  name: string | null;
  starts_at: Date | null;
  records: number;
  unique_people: number;
}

export interface GrowthSqlRow {
  period: string;
  new_members: number;
  left_members: number;
  new_prospects: number;
  conversions: number;
}

export interface GroupSqlRow {
  id: string;
  name: string;
  status: string;
  members: number;
  leaders: number;
  meetings: number;
  attended: number;
}

/** The reports' SQL: one aggregate query per report, over indexes that lead with tenant_id (migration 1764990000000). */
@Injectable()
export class ReportsRepository {
  /**
   * The scope of a report that scans raw rows, with JIT off for its transaction: on these
   * aggregates PostgreSQL compiles ~60 functions for each report and wins nothing back (the
   * attendance report over 750,000 check-ins: 1.04 s with JIT, 0.83 s without).
   */
  private async scan() {
    const scope = tenantScope();
    await scope.manager.query('SET LOCAL jit = off');
    return scope;
  }

  /** The time zone names PostgreSQL knows (read once per process: the view takes tens of milliseconds). */
  private known?: Promise<Set<string>>;

  /**
   * The church's time zone for reports: its statement settings' (the one church-wide time zone
   * setting), else its first campus's that has one, else UTC. A name PostgreSQL does not know (a
   * campus's zone is checked against the runtime's list only) is passed over, never a 500.
   */
  async timezone(): Promise<ReportTimezone> {
    const { manager, tenantId } = tenantScope();
    this.known ??= manager
      .query<{ name: string }[]>('SELECT name FROM pg_timezone_names')
      .then((rows) => new Set(rows.map((r) => r.name)))
      .catch((error: unknown) => {
        this.known = undefined;
        throw error;
      });
    const [[row], known] = await Promise.all([
      manager.query<{ settings: string | null; campuses: string[] | null }[]>(
        `SELECT (SELECT timezone FROM statement_settings WHERE tenant_id = $1) AS settings,
                (SELECT array_agg(timezone ORDER BY created_at, id) FROM campuses WHERE tenant_id = $1 AND timezone IS NOT NULL) AS campuses`,
        [tenantId],
      ),
      this.known,
    ]);
    if (row.settings && known.has(row.settings)) return { timezone: row.settings, source: 'settings' };
    const campus = (row.campuses ?? []).find((name) => known.has(name));
    return campus ? { timezone: campus, source: 'campus' } : { timezone: 'UTC', source: 'default' };
  }

  /**
   * Readies the church's giving rollup (migration 1765000000000) for a report in `timezone`: when it
   * counts days in another zone (the church's zone changed), one rebuild from its donations; then the
   * changes recorded since the last report are folded in. Both under the zone row's lock, in this
   * transaction.
   */
  async foldGivingDays(timezone: string): Promise<void> {
    const { manager, tenantId } = tenantScope();
    const [zone] = await manager.query<{ timezone: string }[]>(
      'SELECT timezone FROM giving_day_zones WHERE tenant_id = $1',
      [tenantId],
    );
    if (zone?.timezone !== timezone) await manager.query('SELECT giving_days_rebuild($1, $2)', [tenantId, timezone]);
    await manager.query('SELECT giving_days_fold($1)', [tenantId]);
  }

  /** Giving per group and currency, summed from the daily rollup and the changes not yet folded (foldGivingDays first). */
  async giving(range: DateRange, groupBy: GivingGroup, currency: string | null): Promise<GivingSqlRow[]> {
    const { manager, tenantId } = tenantScope();
    const key = {
      month: `date_trunc('month', r.day::timestamp)`,
      week: `date_trunc('week', r.day::timestamp)`,
      fund: 'r.fund_id',
      campus: 'r.campus_id',
    }[groupBy];
    const label = groupBy === 'month' || groupBy === 'week' ? `to_char(g.key, '${FORMAT[groupBy]}')` : 'g.key::text';
    const names =
      groupBy === 'fund'
        ? 'LEFT JOIN funds n ON n.tenant_id = $1 AND n.id = g.key'
        : groupBy === 'campus'
          ? 'LEFT JOIN campuses n ON n.tenant_id = $1 AND n.id = g.key'
          : '';
    const order =
      groupBy === 'fund' || groupBy === 'campus'
        ? 'n.name NULLS LAST, g.key NULLS LAST, g.currency'
        : 'g.key, g.currency';
    const days = (table: string) =>
      `SELECT day, fund_id, campus_id, currency, count, amount, refunded FROM ${table}
        WHERE tenant_id = $1 AND day BETWEEN $2::date AND $3::date AND ($4::text IS NULL OR currency = $4::text)`;
    return manager.query<GivingSqlRow[]>(
      `WITH g AS (
         SELECT ${key} AS key, r.currency, sum(r.count)::int AS count, sum(r.amount)::text AS amount, sum(r.refunded)::text AS refunded
           FROM (${days('giving_days')} UNION ALL ${days('giving_day_changes')}) r
          GROUP BY 1, 2
         HAVING sum(r.count) > 0
       )
       SELECT ${label} AS key, ${names ? 'n.name' : 'NULL::text'} AS name, g.currency, g.count, g.amount, g.refunded FROM g ${names} ORDER BY ${order}`,
      [tenantId, range.from, range.to, currency],
    );
  }

  /**
   * Each named donor who gave in the range or in the previous one (counted gifts up to the range's
   * end): whether they gave in the range, before it, in the previous period, and their first gift.
   */
  async donors(range: DateRange, previous: DateRange, timezone: string): Promise<DonorSqlRow[]> {
    const { manager, tenantId } = await this.scan();
    return manager.query<DonorSqlRow[]>(
      `WITH b AS (
         SELECT ($2::date)::timestamp AT TIME ZONE $5::text AS p_from, ($3::date)::timestamp AT TIME ZONE $5::text AS f,
                ($4::date + 1)::timestamp AT TIME ZONE $5::text AS t
       ), g AS (
         SELECT d.donor_id,
                bool_or(d.received_at >= b.f) AS in_period,
                bool_or(d.received_at < b.f) AS before_period,
                bool_or(d.received_at >= b.p_from AND d.received_at < b.f) AS in_previous,
                (count(*) FILTER (WHERE d.received_at >= b.f))::int AS gifts,
                min(d.received_at) AS first_gift_at,
                max(d.received_at) AS last_gift_at
           FROM donations d CROSS JOIN b
          WHERE d.tenant_id = $1 AND d.donor_id IS NOT NULL AND d.status IN ${COUNTED} AND d.received_at < b.t
          GROUP BY d.donor_id
       )
       SELECT g.*, m.first_name, m.last_name
         FROM g LEFT JOIN members m ON m.tenant_id = $1 AND m.id = g.donor_id
        WHERE g.in_period OR g.in_previous
        ORDER BY m.last_name, m.first_name, g.donor_id`,
      [tenantId, previous.from, range.from, range.to, timezone],
    );
  }

  /** Check-in records and unique people per group, and (is_total) over the whole range, in one query. */
  async attendance(range: DateRange, timezone: string, groupBy: AttendanceGroup): Promise<AttendanceSqlRow[]> {
    const { manager, tenantId } = await this.scan();
    const key = { event: 'a.event_id', campus: 'e.campus_id', week: TRUNC('week', 'a.checked_in_at', '$4') }[groupBy];
    const label = groupBy === 'week' ? LABEL('week', 'g.key', '$4') : 'g.key::text';
    const join = groupBy === 'campus' ? 'JOIN events e ON e.tenant_id = a.tenant_id AND e.id = a.event_id' : '';
    const names =
      groupBy === 'event'
        ? {
            select: 'n.name, n.starts_at',
            join: 'LEFT JOIN events n ON n.tenant_id = $1 AND n.id = g.key',
            order: 'n.starts_at, n.name, g.key',
          }
        : groupBy === 'campus'
          ? {
              select: 'n.name, NULL::timestamptz AS starts_at',
              join: 'LEFT JOIN campuses n ON n.tenant_id = $1 AND n.id = g.key',
              order: 'n.name NULLS LAST, g.key NULLS LAST',
            }
          : { select: 'NULL::text AS name, NULL::timestamptz AS starts_at', join: '', order: 'g.key' };
    return manager.query<AttendanceSqlRow[]>(
      // The range's unique people by a hash aggregate per person (a second count(DISTINCT) over the
      // whole range, as GROUPING SETS would do, sorts every check-in again).
      `WITH g AS (
         SELECT false AS is_total, ${key} AS key, count(*)::int AS records, count(DISTINCT a.member_id)::int AS unique_people
           FROM attendance a ${join}
          WHERE a.tenant_id = $1 AND ${within('a.checked_in_at', '$2', '$3', '$4')}
          GROUP BY 2
         UNION ALL
         SELECT true, NULL, COALESCE(sum(p.n), 0)::int, count(*)::int
           FROM (SELECT a.member_id, count(*) AS n FROM attendance a WHERE a.tenant_id = $1 AND ${within('a.checked_in_at', '$2', '$3', '$4')} GROUP BY 1) p
       )
       SELECT g.is_total, ${label} AS key, ${names.select}, g.records, g.unique_people FROM g ${names.join} ORDER BY g.is_total, ${names.order}`,
      [tenantId, range.from, range.to, timezone],
    );
  }

  /** Per month of the range: members created, members deleted, prospects created (live ones) and conversions. */
  async growth(range: DateRange, timezone: string): Promise<GrowthSqlRow[]> {
    const { manager, tenantId } = await this.scan();
    return manager.query<GrowthSqlRow[]>(
      `SELECT ${LABEL('month', 'period', '$4')} AS period, sum(nm)::int AS new_members, sum(lm)::int AS left_members, sum(np)::int AS new_prospects, sum(cv)::int AS conversions
         FROM (
           SELECT ${TRUNC('month', 'created_at', '$4')} AS period, 1 AS nm, 0 AS lm, 0 AS np, 0 AS cv
             FROM members WHERE tenant_id = $1 AND ${within('created_at', '$2', '$3', '$4')}
           UNION ALL
           SELECT ${TRUNC('month', 'deleted_at', '$4')}, 0, 1, 0, 0
             FROM members WHERE tenant_id = $1 AND deleted_at IS NOT NULL AND ${within('deleted_at', '$2', '$3', '$4')}
           UNION ALL
           SELECT ${TRUNC('month', 'created_at', '$4')}, 0, 0, 1, 0
             FROM prospects WHERE tenant_id = $1 AND deleted_at IS NULL AND ${within('created_at', '$2', '$3', '$4')}
           UNION ALL
           SELECT ${TRUNC('month', 'converted_at', '$4')}, 0, 0, 0, 1
             FROM prospects WHERE tenant_id = $1 AND converted_at IS NOT NULL AND ${within('converted_at', '$2', '$3', '$4')}
         ) x
        GROUP BY x.period ORDER BY x.period`,
      [tenantId, range.from, range.to, timezone],
    );
  }

  /**
   * Per live group: its members and leaders, and over its last 8 meetings (the last 8 past,
   * not canceled events at which any of its current members checked in) the number of meetings and
   * the check-ins of its current members at them.
   */
  async groups(): Promise<GroupSqlRow[]> {
    const { manager, tenantId } = await this.scan();
    return manager.query<GroupSqlRow[]>(
      `WITH gr AS (
         SELECT id, name, status FROM groups WHERE tenant_id = $1 AND deleted_at IS NULL
       ), gm AS (
         SELECT m.group_id, m.member_id, m.group_role FROM group_members m JOIN gr ON gr.id = m.group_id WHERE m.tenant_id = $1
       ), met AS (
         SELECT gm.group_id, a.event_id, e.starts_at, count(*)::int AS present,
                row_number() OVER (PARTITION BY gm.group_id ORDER BY e.starts_at DESC, a.event_id DESC) AS rn
           FROM gm
           JOIN attendance a ON a.tenant_id = $1 AND a.member_id = gm.member_id
           JOIN events e ON e.tenant_id = $1 AND e.id = a.event_id AND e.deleted_at IS NULL AND e.status = 'scheduled' AND e.starts_at <= now()
          GROUP BY gm.group_id, a.event_id, e.starts_at
       ), last AS (
         SELECT group_id, count(*)::int AS meetings, sum(present)::int AS attended FROM met WHERE rn <= 8 GROUP BY group_id
       ), size AS (
         SELECT group_id, count(*)::int AS members, (count(*) FILTER (WHERE group_role = 'leader'))::int AS leaders FROM gm GROUP BY group_id
       )
       SELECT gr.id, gr.name, gr.status, COALESCE(size.members, 0) AS members, COALESCE(size.leaders, 0) AS leaders,
              COALESCE(last.meetings, 0) AS meetings, COALESCE(last.attended, 0) AS attended
         FROM gr LEFT JOIN size ON size.group_id = gr.id LEFT JOIN last ON last.group_id = gr.id
        ORDER BY gr.name, gr.id`,
      [tenantId],
    );
  }
}
