import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { SERIES_COLORS } from '../../src/common/charts/svg-chart';
import { ID_PREFIX, parsePublicId } from '../../src/common/ids/id';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import { Call, JsonObject, TestApi } from '../support/api';
import {
  created,
  newBatch,
  newCampus,
  newDonation,
  newEvent,
  newFund,
  newGroup,
  newMembers,
  newProspect,
  newTenant,
  newToken,
  TestTenant,
  TokenPool,
} from '../support/factories';
import { readSvg } from '../support/svg';
import { qs } from '../support/http';

/**
 * Reports (CONTRACT §13): a church seeded through the API (gifts in two currencies with partial and
 * full refunds, a failed, a disputed and a pending gift; attendance over weeks; members, prospects
 * and conversions over months; groups with leaders), every report compared with a direct SQL
 * aggregate written here, the CSV parsed back, week and month boundaries in a non-UTC zone, 400s,
 * the quota, scopes and another church.
 */

const TZ = 'America/Mexico_City'; // UTC−6 all year (no daylight saving since 2022)
const FROM = '2025-01-01';
const TO = '2025-12-31';

type Row = Record<string, unknown>;
interface Report {
  report: string;
  params: Record<string, unknown>;
  generated_at: string;
  rows: Row[];
  totals: unknown;
}

const uuid = (prefix: keyof typeof ID_PREFIX, id: string) => parsePublicId(ID_PREFIX[prefix], id)!;

/** A church's handle: its admin token for seeding, a pool of tokens for the 30-a-minute endpoints. */
class Church {
  private readonly pools: Record<'reports' | 'donations', TokenPool>;
  constructor(
    readonly api: TestApi,
    readonly tenant: TestTenant,
  ) {
    this.pools = {
      reports: new TokenPool(api, tenant, ['read:reports']),
      donations: new TokenPool(api, tenant, ['read:donations', 'write:donations']),
    };
  }

  as(extra: Call = {}): Call {
    return { token: this.tenant.token, tenant: this.tenant.slug, ...extra };
  }

  /** A token of `pool` with at most 25 uses (the reports and donations quotas are 30 a minute per token). */
  pooled(pool: 'reports' | 'donations'): Promise<string> {
    return this.pools[pool].next();
  }

  make(path: string, body: JsonObject, status = 201): Promise<Row> {
    return created<Row>(this.api, this.tenant, path, body, {}, status);
  }

  async donate(body: JsonObject): Promise<string> {
    return (await newDonation(this.api, this.tenant, body, { token: await this.pooled('donations') })).id;
  }

  async report(path: string, params: Record<string, string> = {}, extra: Call = {}) {
    return this.api.get<Report>(`/v1/reports/${path}${qs(params)}`, {
      token: await this.pooled('reports'),
      tenant: this.tenant.slug,
      ...extra,
    });
  }

  async ok(path: string, params: Record<string, string> = {}): Promise<Report> {
    const res = await this.report(path, params);
    if (res.status !== 200) throw new Error(`GET /v1/reports/${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** The report as CSV, through plain supertest (the JSON schema check of TestApi does not apply to CSV). */
  async csv(path: string, params: Record<string, string> = {}) {
    return request(this.api.app.getHttpServer())
      .get(`/v1/reports/${path}${qs(params)}`)
      .set('Authorization', `Bearer ${await this.pooled('reports')}`)
      .set('X-Tenant', this.tenant.slug)
      .set('Accept', 'text/csv')
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => done(null, text));
      });
  }

  sql<T = Row>(text: string, params: unknown[] = []): Promise<T[]> {
    return this.api.db.platform.query(text, [this.tenant.id, ...params]);
  }
}

/** JSON rows as the CSV shows them: nested objects flattened to `<key>_<field>`, every cell a string, null empty. */
function flatten(rows: Row[], columns: string[]): Record<string, string>[] {
  return rows.map((row) => {
    const flat: Record<string, string | number | boolean | null | undefined> = {};
    for (const [key, value] of Object.entries(row)) {
      if (value !== null && typeof value === 'object')
        for (const [field, inner] of Object.entries(value as Record<string, string | null>))
          flat[`${key}_${field}`] = inner;
      else flat[key] = value as string | number | boolean | null;
    }
    return Object.fromEntries(
      columns.map((c) => [c, flat[c] === null || flat[c] === undefined ? '' : String(flat[c])]),
    );
  });
}

describe('reports', () => {
  let api: TestApi;
  let c: Church;
  let other: Church;
  const m: string[] = [];
  const funds: Record<string, string> = {};
  const campuses: Record<string, string> = {};
  const events: string[] = [];
  const groups: Record<string, string> = {};

  beforeAll(async () => {
    api = await TestApi.start();
    c = new Church(api, await newTenant(api));
    other = new Church(api, await newTenant(api));

    expect((await api.put('/v1/settings/statements', c.as({ body: { timezone: TZ } }))).status).toBe(200);
    campuses.north = (await newCampus(api, c.tenant, { key: 'north', name: 'North', timezone: TZ })).id;
    campuses.south = (await newCampus(api, c.tenant, { key: 'south', name: 'South' })).id;
    funds.general = (await newFund(api, c.tenant, { name: 'General' })).id;
    funds.missions = (await newFund(api, c.tenant, { name: 'Missions, "abroad"' })).id;
    m.push(
      ...(await newMembers(
        api,
        c.tenant,
        Array.from({ length: 9 }, (_, i) => ({ first_name: `Person ${i}`, last_name: i % 2 ? 'Díaz' : 'Ortiz, Jr.' })),
      )),
    );

    // Giving: two currencies, refunds partial and full, a failed, a disputed, a pending (open batch) and an anonymous gift.
    const gift = (
      amount: number,
      currency: string,
      fund: string,
      donor: string | null,
      received_at: string,
      campus?: string,
    ) =>
      c.donate({
        amount,
        currency,
        fund_id: funds[fund],
        donor_id: donor,
        received_at,
        method: 'cash',
        ...(campus ? { campus } : {}),
      });
    await gift(10000, 'MXN', 'general', m[1], '2025-03-02T12:00:00-06:00', 'north');
    await gift(25000, 'MXN', 'missions', m[2], '2025-03-15T10:00:00-06:00', 'south');
    await gift(5000, 'USD', 'general', m[3], '2025-04-01T09:00:00-06:00');
    await gift(7000, 'USD', 'missions', m[1], '2025-04-20T09:00:00-06:00', 'north');
    const partly = await gift(20000, 'MXN', 'general', m[4], '2025-05-04T11:00:00-06:00', 'north');
    const fully = await gift(3000, 'USD', 'general', m[2], '2025-05-11T11:00:00-06:00');
    const failed = await gift(9900, 'MXN', 'general', m[7], '2025-06-01T11:00:00-06:00');
    const disputed = await gift(4400, 'USD', 'general', m[7], '2025-06-02T11:00:00-06:00');
    await gift(500, 'MXN', 'general', null, '2025-06-03T11:00:00-06:00');
    // Sunday 2025-09-14 at 23:30 in Mexico City is Monday 05:30 UTC: local ISO week 2025-W37, UTC week W38.
    await gift(1234, 'MXN', 'general', m[5], '2025-09-14T23:30:00-06:00', 'south');
    // September 30 at 23:30 local is October 1 in UTC: local month 2025-09.
    await gift(4321, 'MXN', 'missions', m[5], '2025-09-30T23:30:00-06:00');
    // Before the range: m1 gave in 2024 (recurring in 2025), m6 only in 2024 (lapsed).
    await gift(1000, 'MXN', 'general', m[1], '2024-05-01T11:00:00-06:00');
    await gift(2000, 'MXN', 'general', m[6], '2024-11-10T11:00:00-06:00');
    expect((await api.post(`/v1/donations/${partly}/refund`, c.as({ body: { amount: 5000 } }))).status).toBe(200);
    expect((await api.post(`/v1/donations/${fully}/refund`, c.as({ body: {} }))).status).toBe(200);
    // No route fails or disputes a gift by hand (the processor does): write those states.
    await c.sql(`UPDATE donations SET status = 'failed' WHERE tenant_id = $1 AND id = $2`, [uuid('donation', failed)]);
    await c.sql(`UPDATE donations SET status = 'disputed' WHERE tenant_id = $1 AND id = $2`, [
      uuid('donation', disputed),
    ]);
    const batch = (await newBatch(api, c.tenant, { description: 'Sunday', currency: 'MXN' })).id;
    await c.donate({
      amount: 777,
      currency: 'MXN',
      fund_id: funds.general,
      batch_id: batch,
      received_at: '2025-07-06T11:00:00-06:00',
    });
    // Another church's gift in the same days.
    const otherFund = (await newFund(api, other.tenant, { name: 'General' })).id;
    await other.donate({
      amount: 99999,
      currency: 'MXN',
      fund_id: otherFund,
      received_at: '2025-03-02T12:00:00-06:00',
    });

    // Attendance over weeks; one check-in at 23:30 local on a Sunday.
    const event = async (name: string, starts_at: string, campus?: string) => {
      const ends = new Date(Date.parse(starts_at) + 3_600_000).toISOString();
      const id = (await newEvent(api, c.tenant, { name, starts_at, ends_at: ends, ...(campus ? { campus } : {}) })).id;
      events.push(id);
      return id;
    };
    const attend = (member: string, event_id: string, checked_in_at: string) =>
      c.make('/v1/attendance', { member_id: member, event_id, checked_in_at });
    const e1 = await event('Service 1', '2025-09-07T10:00:00-06:00', 'north');
    const e2 = await event('Service 2', '2025-09-14T10:00:00-06:00', 'north');
    const e3 = await event('Youth night', '2025-09-14T19:00:00-06:00', 'south');
    const e4 = await event('Service 3', '2025-09-21T10:00:00-06:00');
    for (const member of [m[1], m[2], m[3]]) await attend(member, e1, '2025-09-07T09:55:00-06:00');
    for (const member of [m[1], m[2]]) await attend(member, e2, '2025-09-14T09:50:00-06:00');
    await attend(m[1], e3, '2025-09-14T19:00:00-06:00');
    await attend(m[4], e3, '2025-09-14T23:30:00-06:00');
    await attend(m[2], e4, '2025-09-21T10:05:00-06:00');
    // Nine weekly events in October–November for m5 (m4 at the first): more than 8 meetings for the Beta group.
    for (let i = 0; i < 9; i++) {
      const day = new Date(Date.UTC(2025, 9, 5 + 7 * i, 16)).toISOString();
      const id = await event(`Prayer ${i}`, day, 'south');
      await attend(m[5], id, day);
      if (i === 0) await attend(m[4], id, day);
    }

    // Groups with leaders; a closed one.
    groups.alpha = (await newGroup(api, c.tenant, { name: 'Alpha' })).id;
    groups.beta = (await newGroup(api, c.tenant, { name: 'Beta' })).id;
    groups.gamma = (await newGroup(api, c.tenant, { name: 'Gamma' })).id;
    const join = async (group: string, member: string, group_role: string) =>
      expect((await api.put(`/v1/groups/${group}/members/${member}`, c.as({ body: { group_role } }))).status).toBe(200);
    await join(groups.alpha, m[1], 'leader');
    await join(groups.alpha, m[2], 'member');
    await join(groups.alpha, m[3], 'member');
    await join(groups.beta, m[4], 'leader');
    await join(groups.beta, m[5], 'leader');
    await c.make(`/v1/groups/${groups.gamma}/close`, {}, 200);

    // Growth: members and prospects over months (their timestamps written), a conversion, a member who left.
    const months = ['2025-01-10', '2025-01-20', '2025-02-05', '2025-03-03', '2025-03-31T23:30:00-06:00'];
    for (const [i, day] of months.entries()) {
      const at = day.includes('T') ? day : `${day}T12:00:00-06:00`;
      await c.sql('UPDATE members SET created_at = $2 WHERE tenant_id = $1 AND id = $3', [at, uuid('member', m[i])]);
    }
    expect((await api.delete(`/v1/members/${m[8]}`, c.as())).status).toBe(204);
    await c.sql('UPDATE members SET created_at = $2, deleted_at = $3 WHERE tenant_id = $1 AND id = $4', [
      '2025-01-15T12:00:00Z',
      '2025-02-15T12:00:00Z',
      uuid('member', m[8]),
    ]);
    const prospects: string[] = [];
    for (let i = 0; i < 3; i++)
      prospects.push((await newProspect(api, c.tenant, { first_name: `Prospect ${i}`, last_name: 'Ruiz' })).id);
    const converted = await c.make(`/v1/prospects/${prospects[0]}/convert`, {}, 200);
    await c.sql('UPDATE prospects SET created_at = $2 WHERE tenant_id = $1 AND id = ANY($3::uuid[])', [
      '2025-01-12T12:00:00Z',
      prospects.slice(0, 2).map((p) => uuid('prospect', p)),
    ]);
    await c.sql('UPDATE prospects SET created_at = $2 WHERE tenant_id = $1 AND id = $3', [
      '2025-02-12T12:00:00Z',
      uuid('prospect', prospects[2]),
    ]);
    await c.sql('UPDATE prospects SET converted_at = $2 WHERE tenant_id = $1 AND id = $3', [
      '2025-02-20T12:00:00Z',
      uuid('prospect', prospects[0]),
    ]);
    await c.sql('UPDATE members SET created_at = $2 WHERE tenant_id = $1 AND id = $3', [
      '2025-02-20T12:00:00Z',
      uuid('member', converted.member_id as string),
    ]);
  }, 120_000);

  afterAll(async () => {
    await api?.close();
  });

  describe('giving', () => {
    /** The expected rows, by a direct SQL aggregate over the donations table (independent of the report's query). */
    const expected = async (key: string, join = '') =>
      c.sql<{
        key: string | null;
        name: string | null;
        currency: string;
        count: number;
        amount: string;
        refunded: string;
      }>(
        `SELECT ${key} AS key, ${join ? 'x.name' : 'NULL'} AS name, d.currency, count(*)::int AS count, sum(d.amount)::text AS amount, sum(d.refunded_amount)::text AS refunded
           FROM donations d ${join}
          WHERE d.tenant_id = $1 AND d.status NOT IN ('pending', 'failed', 'disputed')
            AND (d.received_at AT TIME ZONE '${TZ}')::date BETWEEN $2::date AND $3::date
          GROUP BY 1, 2, 3`,
        [FROM, TO],
      );
    const money = (r: { currency: string; count: number; amount: string; refunded: string }) => ({
      currency: r.currency,
      count: r.count,
      amount: Number(r.amount),
      refunded: Number(r.refunded),
      net: Number(r.amount) - Number(r.refunded),
    });
    const sortRows = (rows: Row[]) => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

    it('by month: rows and per-currency totals equal the SQL aggregate; failed, disputed and pending gifts left out; params say the time zone', async () => {
      const report = await c.ok('giving', { from: FROM, to: TO, group_by: 'month' });
      const sql = await expected(`to_char(date_trunc('month', d.received_at AT TIME ZONE '${TZ}'), 'YYYY-MM')`);
      expect(sortRows(report.rows)).toEqual(sortRows(sql.map((r) => ({ period: r.key, ...money(r) }))));
      expect(report.report).toBe('giving');
      expect(report.params).toEqual({
        from: FROM,
        to: TO,
        group_by: 'month',
        currency: null,
        timezone: TZ,
        timezone_source: 'settings',
      });
      expect(Date.parse(report.generated_at)).not.toBeNaN();
      const totals = await c.sql<{ currency: string; count: number; amount: string; refunded: string }>(
        `SELECT currency, count(*)::int AS count, sum(amount)::text AS amount, sum(refunded_amount)::text AS refunded FROM donations
          WHERE tenant_id = $1 AND status IN ('succeeded', 'partially_refunded', 'refunded') AND received_at >= $2::timestamptz AND received_at < $3::timestamptz
          GROUP BY currency ORDER BY currency`,
        ['2025-01-01T00:00:00-06:00', '2026-01-01T00:00:00-06:00'],
      );
      expect(report.totals).toEqual(totals.map(money));
      // By hand: MXN 10000 + 25000 + 20000 (5000 refunded) + 500 + 1234 + 4321; USD 5000 + 7000 + 3000 (fully refunded).
      expect(report.totals).toEqual([
        { currency: 'MXN', count: 6, amount: 61055, refunded: 5000, net: 56055 },
        { currency: 'USD', count: 3, amount: 15000, refunded: 3000, net: 12000 },
      ]);
      // September 30 at 23:30 local (October 1 in UTC) is in September.
      expect(report.rows.find((r) => r.period === '2025-09')).toMatchObject({
        currency: 'MXN',
        count: 2,
        amount: 5555,
      });
      expect(report.rows.find((r) => r.period === '2025-10')).toBeUndefined();
    });

    it('by ISO week in the church’s zone: a gift at 23:30 on a Sunday lands in that local week', async () => {
      const report = await c.ok('giving', { from: FROM, to: TO, group_by: 'week' });
      const sql = await expected(
        `to_char(d.received_at AT TIME ZONE '${TZ}', 'IYYY') || '-W' || to_char(d.received_at AT TIME ZONE '${TZ}', 'IW')`,
      );
      expect(sortRows(report.rows)).toEqual(sortRows(sql.map((r) => ({ period: r.key, ...money(r) }))));
      expect(report.rows.find((r) => r.period === '2025-W37')).toEqual({
        period: '2025-W37',
        currency: 'MXN',
        count: 1,
        amount: 1234,
        refunded: 0,
        net: 1234,
      });
      expect(report.rows.find((r) => r.period === '2025-W38')).toBeUndefined();
    });

    it('by fund and by campus (null for gifts without one), names included; currency limits the report', async () => {
      const byFund = await c.ok('giving', { from: FROM, to: TO, group_by: 'fund' });
      const fundSql = await expected(
        `'fnd_' || replace(d.fund_id::text, '-', '')`,
        'JOIN funds x ON x.tenant_id = d.tenant_id AND x.id = d.fund_id',
      );
      expect(sortRows(byFund.rows)).toEqual(
        sortRows(fundSql.map((r) => ({ fund: { id: r.key, name: r.name }, ...money(r) }))),
      );
      expect(byFund.rows.map((r) => (r.fund as Row).id)).toEqual(
        expect.arrayContaining([funds.general, funds.missions]),
      );

      const byCampus = await c.ok('giving', { from: FROM, to: TO, group_by: 'campus' });
      const campusSql = await expected(
        `'cmp_' || replace(d.campus_id::text, '-', '')`,
        'LEFT JOIN campuses x ON x.tenant_id = d.tenant_id AND x.id = d.campus_id',
      );
      expect(sortRows(byCampus.rows)).toEqual(
        sortRows(campusSql.map((r) => ({ campus: r.key === null ? null : { id: r.key, name: r.name }, ...money(r) }))),
      );
      expect(byCampus.rows.some((r) => r.campus === null)).toBe(true);

      const usd = await c.ok('giving', { from: FROM, to: TO, group_by: 'fund', currency: 'USD' });
      expect(usd.rows.every((r) => r.currency === 'USD')).toBe(true);
      expect(usd.totals).toEqual([{ currency: 'USD', count: 3, amount: 15000, refunded: 3000, net: 12000 }]);
    });

    it('as CSV (Accept: text/csv): a header row and the same rows as the JSON, nested objects flattened, quoting kept', async () => {
      for (const group_by of ['fund', 'campus', 'month', 'week']) {
        const json = await c.ok('giving', { from: FROM, to: TO, group_by });
        const res = await c.csv('giving', { from: FROM, to: TO, group_by });
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
        const text = res.body as string;
        const records: Record<string, string>[] = parse(text, { columns: true });
        const columns = text.split('\r\n')[0].split(',');
        const key =
          group_by === 'fund'
            ? ['fund_id', 'fund_name']
            : group_by === 'campus'
              ? ['campus_id', 'campus_name']
              : ['period'];
        expect(columns).toEqual([...key, 'currency', 'count', 'amount', 'refunded', 'net']);
        expect(records).toEqual(flatten(json.rows, columns));
      }
      const text = (await c.csv('giving', { from: FROM, to: TO, group_by: 'fund' })).body as string;
      expect(text).toContain('"Missions, ""abroad"""');
    });
  });

  describe('donors', () => {
    it('first-time, recurring and lapsed donors, as a direct SQL computation says', async () => {
      const report = await c.ok('giving/donors', { from: FROM, to: TO });
      expect(report.params).toMatchObject({
        from: FROM,
        to: TO,
        previous_from: '2024-01-02',
        previous_to: '2024-12-31',
        timezone: TZ,
      });
      const sql = await c.sql<{ id: string; category: string; gifts: number }>(
        `WITH d AS (SELECT donor_id, (received_at AT TIME ZONE '${TZ}')::date AS day FROM donations
                     WHERE tenant_id = $1 AND donor_id IS NOT NULL AND status IN ('succeeded', 'partially_refunded', 'refunded'))
         SELECT 'mem_' || replace(donor_id::text, '-', '') AS id,
                CASE WHEN count(*) FILTER (WHERE day BETWEEN $2 AND $3) = 0 THEN 'lapsed'
                     WHEN count(*) FILTER (WHERE day < $2) > 0 THEN 'recurring' ELSE 'first_time' END AS category,
                (count(*) FILTER (WHERE day BETWEEN $2 AND $3))::int AS gifts
           FROM d WHERE day <= $3 GROUP BY donor_id
          HAVING count(*) FILTER (WHERE day BETWEEN $2 AND $3) > 0 OR count(*) FILTER (WHERE day BETWEEN $4 AND $5) > 0`,
        [FROM, TO, '2024-01-02', '2024-12-31'],
      );
      const got = report.rows.map((r) => ({ id: (r.donor as Row).id, category: r.category, gifts: r.gifts }));
      const byId = (a: { id: unknown }, b: { id: unknown }) => String(a.id).localeCompare(String(b.id));
      expect(got.sort(byId)).toEqual(sql.sort(byId));
      const category = Object.fromEntries(got.map((r) => [r.id, r.category]));
      expect(category).toEqual({
        [m[1]]: 'recurring',
        [m[2]]: 'first_time',
        [m[3]]: 'first_time',
        [m[4]]: 'first_time',
        [m[5]]: 'first_time',
        [m[6]]: 'lapsed',
      });
      expect(report.totals).toEqual({ first_time: 4, recurring: 1, lapsed: 1 });

      const res = await c.csv('giving/donors', { from: FROM, to: TO });
      const columns = [
        'donor_id',
        'donor_first_name',
        'donor_last_name',
        'category',
        'gifts',
        'first_gift_at',
        'last_gift_at',
      ];
      expect(parse(res.body as string, { columns: true })).toEqual(flatten(report.rows, columns));
    });
  });

  describe('attendance', () => {
    const expected = (key: string, join = '', name = 'NULL') =>
      c.sql<{ key: string | null; name: string | null; records: number; unique_people: number }>(
        `SELECT ${key} AS key, ${name} AS name, count(*)::int AS records, count(DISTINCT a.member_id)::int AS unique_people
           FROM attendance a ${join}
          WHERE a.tenant_id = $1 AND (a.checked_in_at AT TIME ZONE '${TZ}')::date BETWEEN $2::date AND $3::date
          GROUP BY 1, 2`,
        [FROM, TO],
      );
    const sortRows = (rows: Row[]) => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

    it('by week, event and campus: records and unique people equal the SQL aggregate; a 23:30 Sunday check-in stays in its local week', async () => {
      const byWeek = await c.ok('attendance', { from: FROM, to: TO, group_by: 'week' });
      const weeks = await expected(
        `to_char(a.checked_in_at AT TIME ZONE '${TZ}', 'IYYY') || '-W' || to_char(a.checked_in_at AT TIME ZONE '${TZ}', 'IW')`,
      );
      expect(sortRows(byWeek.rows)).toEqual(
        sortRows(weeks.map((r) => ({ period: r.key, records: r.records, unique_people: r.unique_people }))),
      );
      expect(byWeek.rows.find((r) => r.period === '2025-W37')).toEqual({
        period: '2025-W37',
        records: 4,
        unique_people: 3,
      });
      const [all] = await c.sql<{ records: number; unique_people: number }>(
        `SELECT count(*)::int AS records, count(DISTINCT member_id)::int AS unique_people FROM attendance WHERE tenant_id = $1`,
      );
      expect(byWeek.totals).toEqual(all);
      expect(byWeek.params).toEqual({
        from: FROM,
        to: TO,
        group_by: 'week',
        timezone: TZ,
        timezone_source: 'settings',
      });

      const byEvent = await c.ok('attendance', { from: FROM, to: TO, group_by: 'event' });
      const perEvent = await expected(
        `'evt_' || replace(a.event_id::text, '-', '')`,
        'JOIN events e ON e.tenant_id = a.tenant_id AND e.id = a.event_id',
        'e.name',
      );
      expect(
        sortRows(byEvent.rows.map((r) => ({ ...r, event: { id: (r.event as Row).id, name: (r.event as Row).name } }))),
      ).toEqual(
        sortRows(
          perEvent.map((r) => ({
            event: { id: r.key, name: r.name },
            records: r.records,
            unique_people: r.unique_people,
          })),
        ),
      );
      expect(byEvent.rows.find((r) => (r.event as Row).id === events[0])).toEqual({
        event: { id: events[0], name: 'Service 1', starts_at: '2025-09-07T16:00:00.000Z' },
        records: 3,
        unique_people: 3,
      });

      const byCampus = await c.ok('attendance', { from: FROM, to: TO, group_by: 'campus' });
      const perCampus = await expected(
        `'cmp_' || replace(e.campus_id::text, '-', '')`,
        'JOIN events e ON e.tenant_id = a.tenant_id AND e.id = a.event_id LEFT JOIN campuses x ON x.tenant_id = e.tenant_id AND x.id = e.campus_id',
        'x.name',
      );
      expect(sortRows(byCampus.rows)).toEqual(
        sortRows(
          perCampus.map((r) => ({
            campus: r.key === null ? null : { id: r.key, name: r.name },
            records: r.records,
            unique_people: r.unique_people,
          })),
        ),
      );

      for (const [group_by, report, columns] of [
        ['week', byWeek, ['period', 'records', 'unique_people']],
        ['event', byEvent, ['event_id', 'event_name', 'event_starts_at', 'records', 'unique_people']],
        ['campus', byCampus, ['campus_id', 'campus_name', 'records', 'unique_people']],
      ] as const) {
        const res = await c.csv('attendance', { from: FROM, to: TO, group_by });
        expect((res.body as string).split('\r\n')[0]).toBe(columns.join(','));
        expect(parse(res.body as string, { columns: true })).toEqual(flatten(report.rows, [...columns]));
      }
    });
  });

  describe('growth', () => {
    it('new members, new prospects, conversions and net active per local month, as the SQL counts them', async () => {
      const report = await c.ok('growth', { from: FROM, to: TO });
      const month = (column: string) => `to_char(${column} AT TIME ZONE '${TZ}', 'YYYY-MM')`;
      const inRange = (column: string) => `(${column} AT TIME ZONE '${TZ}')::date BETWEEN $2::date AND $3::date`;
      const count = async (table: string, column: string, where = 'true') =>
        new Map(
          (
            await c.sql<{ period: string; n: number }>(
              `SELECT ${month(column)} AS period, count(*)::int AS n FROM ${table} WHERE tenant_id = $1 AND ${where} AND ${inRange(column)} GROUP BY 1`,
              [FROM, TO],
            )
          ).map((r) => [r.period, r.n]),
        );
      const created = await count('members', 'created_at');
      const left = await count('members', 'deleted_at', 'deleted_at IS NOT NULL');
      const prospects = await count('prospects', 'created_at', 'deleted_at IS NULL');
      const conversions = await count('prospects', 'converted_at', 'converted_at IS NOT NULL');
      const periods = [
        ...new Set([...created.keys(), ...left.keys(), ...prospects.keys(), ...conversions.keys()]),
      ].sort();
      const rows = periods.map((period) => ({
        period,
        new_members: created.get(period) ?? 0,
        new_prospects: prospects.get(period) ?? 0,
        conversions: conversions.get(period) ?? 0,
        net_active: (created.get(period) ?? 0) - (left.get(period) ?? 0),
      }));
      expect(report.rows).toEqual(rows);
      // By hand: January m0, m1, m8 (left in February); February m2 and the converted prospect's member; March m3 and m4 (March 31 at 23:30 local).
      expect(report.rows).toEqual([
        { period: '2025-01', new_members: 3, new_prospects: 2, conversions: 0, net_active: 3 },
        { period: '2025-02', new_members: 2, new_prospects: 1, conversions: 1, net_active: 1 },
        { period: '2025-03', new_members: 2, new_prospects: 0, conversions: 0, net_active: 2 },
      ]);
      expect(report.totals).toEqual({ new_members: 7, new_prospects: 3, conversions: 1, net_active: 6 });
      const res = await c.csv('growth', { from: FROM, to: TO });
      expect(parse(res.body as string, { columns: true })).toEqual(
        flatten(report.rows, ['period', 'new_members', 'new_prospects', 'conversions', 'net_active']),
      );
    });
  });

  describe('groups', () => {
    it('members, leaders, status and the attendance rate over the last 8 meetings, as the SQL computes them', async () => {
      const report = await c.ok('groups');
      const sql = await c.sql<{
        id: string;
        name: string;
        status: string;
        members: number;
        leaders: number;
        meetings: number;
        attended: number;
      }>(
        `SELECT 'grp_' || replace(g.id::text, '-', '') AS id, g.name, g.status,
                (SELECT count(*)::int FROM group_members gm WHERE gm.tenant_id = g.tenant_id AND gm.group_id = g.id) AS members,
                (SELECT count(*)::int FROM group_members gm WHERE gm.tenant_id = g.tenant_id AND gm.group_id = g.id AND gm.group_role = 'leader') AS leaders,
                (SELECT count(*)::int FROM (${lastMeetings}) l) AS meetings,
                (SELECT COALESCE(sum(l.n), 0)::int FROM (${lastMeetings}) l) AS attended
           FROM groups g WHERE g.tenant_id = $1 AND g.deleted_at IS NULL ORDER BY g.name`,
      );
      expect(report.rows).toEqual(
        sql.map((r) => ({
          group: { id: r.id, name: r.name },
          status: r.status,
          members: r.members,
          leaders: r.leaders,
          meetings: r.meetings,
          attended: r.attended,
          attendance_rate:
            r.members * r.meetings === 0 ? null : Math.round((r.attended * 10000) / (r.members * r.meetings)) / 10000,
        })),
      );
      // By hand: Alpha met at the 4 September events (3 + 2 + 1 + 1 check-ins of 3 members); Beta's last 8 of its 10 meetings are m5's alone.
      const by: Record<string, Row> = Object.fromEntries(report.rows.map((r) => [(r.group as Row).name as string, r]));
      expect(by.Alpha).toMatchObject({
        members: 3,
        leaders: 1,
        meetings: 4,
        attended: 7,
        attendance_rate: 0.5833,
        status: 'open',
      });
      expect(by.Beta).toMatchObject({ members: 2, leaders: 2, meetings: 8, attended: 8, attendance_rate: 0.5 });
      expect(by.Gamma).toMatchObject({ members: 0, leaders: 0, meetings: 0, attendance_rate: null, status: 'closed' });
      expect(report.totals).toEqual({ groups: 3, members: 5, leaders: 3 });
      const res = await c.csv('groups');
      expect(parse(res.body as string, { columns: true })).toEqual(
        flatten(report.rows, [
          'group_id',
          'group_name',
          'status',
          'members',
          'leaders',
          'meetings',
          'attended',
          'attendance_rate',
        ]),
      );
    });
  });

  describe('parameters, media types, time zone sources', () => {
    const problem = async (path: string, params: Record<string, string>, status = 400) => {
      const res = await c.report(path, params, { lang: 'en' });
      expect({ path, params, status: res.status }).toEqual({ path, params, status });
      return res.body as unknown as Problem;
    };

    it('400 invalid_parameter: unknown group_by, from after to, a bad date, an unknown currency or parameter, a repeated parameter', async () => {
      expect(await problem('giving', { group_by: 'year' })).toMatchObject({
        code: 'invalid_parameter',
        errors: [{ field: 'group_by', issue: 'one_of' }],
      });
      expect(await problem('attendance', { group_by: 'fund' })).toMatchObject({
        code: 'invalid_parameter',
        errors: [{ field: 'group_by', issue: 'one_of' }],
      });
      expect(await problem('growth', { group_by: 'week' })).toMatchObject({ code: 'invalid_parameter' });
      for (const path of ['giving', 'giving/donors', 'attendance', 'growth']) {
        expect(await problem(path, { from: '2025-06-01', to: '2025-05-31' })).toMatchObject({
          code: 'invalid_parameter',
          errors: [{ field: 'to', issue: 'before_start' }],
        });
      }
      expect(await problem('giving', { from: '2025-02-30' })).toMatchObject({
        errors: [{ field: 'from', issue: 'invalid_format' }],
      });
      expect(await problem('giving', { to: '0001-01-01' })).toMatchObject({
        errors: [{ field: 'to', issue: 'out_of_range' }],
      });
      expect(await problem('giving', { currency: 'XXX' })).toMatchObject({
        errors: [{ field: 'currency', issue: 'one_of' }],
      });
      expect(await problem('giving', { sort: 'amount' })).toMatchObject({
        errors: [{ field: 'sort', issue: 'unknown_field' }],
      });
      expect(await problem('groups', { from: FROM })).toMatchObject({
        errors: [{ field: 'from', issue: 'unknown_field' }],
      });
      const repeated = await c.api.get<Problem>('/v1/reports/giving?from=2025-01-01&from=2025-02-01', {
        token: await c.pooled('reports'),
        tenant: c.tenant.slug,
      });
      expect(repeated.status).toBe(400);
      expect(repeated.body.errors).toEqual([expect.objectContaining({ field: 'from', issue: 'invalid_type' })]);
    });

    it('defaults: the last 12 calendar months up to today in the church’s zone, grouped by month (giving, growth) or week (attendance)', async () => {
      const report = await c.ok('giving');
      const today = new Date(Date.now() - 6 * 3_600_000).toISOString().slice(0, 10);
      expect(report.params.to).toBe(today);
      const [y, mo] = today.split('-').map(Number);
      const back = new Date(Date.UTC(y, mo - 1 - 11, 1)).toISOString().slice(0, 10);
      expect(report.params).toMatchObject({ from: back, group_by: 'month' });
      expect((await c.ok('attendance')).params.group_by).toBe('week');
      expect((await c.ok('growth')).params.group_by).toBe('month');
    });

    it('Accept: image/svg+xml answers a chart that parses as XML: one bar per row and series, axis and legend words in the request’s language', async () => {
      const svg = async (path: string, params: Record<string, string>, lang?: string) => {
        const req = request(api.app.getHttpServer())
          .get(`/v1/reports/${path}${qs(params)}`)
          .set('Authorization', `Bearer ${await c.pooled('reports')}`)
          .set('X-Tenant', c.tenant.slug)
          .set('Accept', 'image/svg+xml');
        if (lang) req.set('Accept-Language', lang);
        const res = await req.buffer(true).parse((r, done) => {
          let text = '';
          r.setEncoding('utf8');
          r.on('data', (chunk: string) => (text += chunk));
          r.on('end', () => done(null, text));
        });
        expect([res.status, res.headers['content-type']]).toEqual([200, 'image/svg+xml; charset=utf-8']);
        expect(res.headers.vary).toMatch(/Accept(,|$)/);
        const { texts, filled } = readSvg(res.body as string);
        return { texts, bars: (color: string) => filled(color) - 1 }; // less the legend mark
      };
      // Giving by month: one bar per row of each currency, the months as categories, in Spanish by default.
      const report = await c.ok('giving', { from: FROM, to: TO, group_by: 'month' });
      const chart = await svg('giving', { from: FROM, to: TO, group_by: 'month' });
      const currencies = [...new Set(report.rows.map((r) => r.currency as string))];
      currencies.forEach((currency, i) =>
        expect([currency, chart.bars(SERIES_COLORS[i])]).toEqual([
          currency,
          report.rows.filter((r) => r.currency === currency).length,
        ]),
      );
      // Two currencies: a panel each, its value axis named with its currency (MXN's bars would dwarf USD's on one axis).
      expect(currencies).toHaveLength(2);
      for (const label of [
        'Mes',
        ...currencies.map((cur) => `Neto (${cur})`),
        ...currencies,
        ...report.rows.map((r) => r.period as string),
      ])
        expect(chart.texts).toContain(label);
      const usd = await svg('giving', { from: FROM, to: TO, group_by: 'month', currency: 'USD' });
      expect(usd.texts).toContain('Neto');
      // Growth in English: the four series named in the legend.
      const growth = await svg('growth', { from: FROM, to: TO }, 'en');
      for (const label of ['Month', 'New members', 'New prospects', 'Conversions', 'Net active'])
        expect(growth.texts).toContain(label);
      // Groups: members and leaders per group.
      const groups = await c.ok('groups');
      const groupsChart = await svg('groups', {}, 'pt');
      expect(groupsChart.bars(SERIES_COLORS[0])).toBe(groups.rows.length);
      for (const label of ['Membros', 'Líderes', ...groups.rows.map((r) => (r.group as { name: string }).name)])
        expect(groupsChart.texts).toContain(label);
      for (const path of ['giving/donors', 'attendance'])
        expect((await svg(path, { from: FROM, to: TO })).texts.length).toBeGreaterThan(3);
    });

    it('an Accept naming nothing the API makes is 406 not_acceptable; a browser-like Accept gets JSON', async () => {
      for (const path of ['giving', 'giving/donors', 'attendance', 'growth', 'groups']) {
        const res = await c.report(path, {}, { lang: 'en', headers: { Accept: 'image/png' } });
        expect({ path, status: res.status, code: (res.body as unknown as Problem).code }).toEqual({
          path,
          status: 406,
          code: 'not_acceptable',
        });
      }
      const es = await c.report('giving', {}, { headers: { Accept: 'text/html' } });
      expect((es.body as unknown as Problem).title).toBe('No aceptable');
      const browser = await c.report(
        'giving',
        {},
        { headers: { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } },
      );
      expect(browser.status).toBe(200);
      expect(browser.headers['content-type']).toMatch(/^application\/json/);
      expect(browser.headers.vary).toMatch(/Accept(,|$)/);
    });

    it('a CSV answer has an ETag; the same If-None-Match is a 304', async () => {
      const first = await c.csv('growth', { from: FROM, to: TO });
      expect(first.headers.etag).toEqual(expect.any(String));
      const again = await request(api.app.getHttpServer())
        .get(`/v1/reports/growth${qs({ from: FROM, to: TO })}`)
        .set('Authorization', `Bearer ${await c.pooled('reports')}`)
        .set('X-Tenant', c.tenant.slug)
        .set('Accept', 'text/csv')
        .set('If-None-Match', String(first.headers.etag));
      expect(again.status).toBe(304);
    });

    it('the time zone: the first campus’s when the church has no setting (or one PostgreSQL does not know), else UTC', async () => {
      const plain = await other.ok('giving');
      expect(plain.params).toMatchObject({ timezone: 'UTC', timezone_source: 'default' });
      await newCampus(api, other.tenant, { key: 'east', name: 'East', timezone: 'America/Bogota' });
      expect((await other.ok('giving')).params).toMatchObject({
        timezone: 'America/Bogota',
        timezone_source: 'campus',
      });
      // A zone name PostgreSQL does not know (written past the API's checks) is passed over: never a 500.
      await other.sql(`INSERT INTO statement_settings (tenant_id, timezone) VALUES ($1, 'Mars/Olympus')`);
      expect((await other.ok('attendance')).params).toMatchObject({
        timezone: 'America/Bogota',
        timezone_source: 'campus',
      });
    });
  });

  describe('access', () => {
    it('another church’s token is 403; another church’s data is never counted', async () => {
      for (const path of ['giving', 'giving/donors', 'attendance', 'growth', 'groups']) {
        const res = await api.get<Problem>(`/v1/reports/${path}`, {
          token: await other.pooled('reports'),
          tenant: c.tenant.slug,
        });
        expect({ path, status: res.status, code: res.body.code }).toEqual({
          path,
          status: 403,
          code: 'tenant_forbidden',
        });
      }
      const theirs = await other.ok('giving', { from: FROM, to: TO });
      expect(theirs.totals).toEqual([{ currency: 'MXN', count: 1, amount: 99999, refunded: 0, net: 99999 }]);
      expect((await other.ok('attendance', { from: FROM, to: TO })).totals).toEqual({ records: 0, unique_people: 0 });
      expect((await other.ok('groups')).rows).toEqual([]);
    });

    it('read:reports is needed (403 scope_insufficient naming it); a finance or staff role may hold it', async () => {
      const { token } = await newToken(api, c.tenant, ['read:donations', 'read:members'], 'finance');
      for (const path of ['giving', 'giving/donors', 'attendance', 'growth', 'groups']) {
        const res = await api.get<Problem>(`/v1/reports/${path}`, { token, tenant: c.tenant.slug, lang: 'en' });
        expect({ path, status: res.status, code: res.body.code }).toEqual({
          path,
          status: 403,
          code: 'scope_insufficient',
        });
        expect(res.body.detail).toContain('read:reports');
      }
      const staff = await newToken(api, c.tenant, ['read:reports'], 'staff');
      expect((await api.get('/v1/reports/attendance', { token: staff.token, tenant: c.tenant.slug })).status).toBe(200);
    });

    it('30 reports a minute per token: the 31st is 429 with Retry-After', async () => {
      const { token } = await newToken(api, c.tenant, ['read:reports'], 'finance');
      // All at once: the quota's window is the clock's minute, and 31 reports one after another on a
      // loaded machine could straddle its end. The limiter decides before a report waits its turn.
      const answers = await Promise.all(
        Array.from({ length: 31 }, () => api.get<Problem>('/v1/reports/groups', { token, tenant: c.tenant.slug })),
      );
      expect(answers.filter((r) => r.status === 200)).toHaveLength(30);
      const res = answers.find((r) => r.status !== 200)!;
      expect(res.status).toBe(429);
      expect(res.body.code).toBe('rate_limited');
      expect(res.headers['retry-after']).toEqual(expect.any(String));
    });
  });
});

/** A group's last 8 meetings (past, not canceled events at which a current member checked in) with its members' check-ins there, for `g`. */
const lastMeetings = `
  SELECT a.event_id, count(*) AS n FROM attendance a
    JOIN group_members gm ON gm.tenant_id = a.tenant_id AND gm.member_id = a.member_id AND gm.group_id = g.id
    JOIN events e ON e.tenant_id = a.tenant_id AND e.id = a.event_id
   WHERE a.tenant_id = g.tenant_id AND e.deleted_at IS NULL AND e.status = 'scheduled' AND e.starts_at <= now()
   GROUP BY a.event_id, e.starts_at ORDER BY e.starts_at DESC, a.event_id DESC LIMIT 8`;
