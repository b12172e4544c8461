import { Client } from 'pg';
import { ID_PREFIX, parsePublicId } from '../../src/common/ids/id';
import { JsonObject, TestApi } from '../support/api';
import { newCampus, newDonation, newFund, newTenant, TestTenant, TokenPool } from '../support/factories';

/**
 * The giving report's daily rollup (giving_days, issue 16): kept by triggers in the transaction of
 * every gift, refund, edit, batch commit, status change and delete, under races, and rebuilt in the
 * church's new time zone by the first report after the zone changes, with gifts racing the rebuild.
 * After each test the rollup must equal a direct aggregate of the donations table, row for row.
 */

const MEXICO = 'America/Mexico_City'; // UTC−6 all year
const DAY = '2025-03-31T23:30:00-06:00'; // March 31 in Mexico City, April 1 in UTC

interface Church {
  tenant: TestTenant;
  funds: string[];
  campus: string;
}

describe('giving report rollup (giving_days)', () => {
  let api: TestApi;
  let c: Church;
  /** Tokens with quota left (30 gifts or reports a minute per token). */
  let tokens: TokenPool;

  const as = (token = c.tenant.token) => ({ token, tenant: c.tenant.slug });
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    api.db.platform.query<T[]>(text, [c.tenant.id, ...params]);

  async function donate(body: JsonObject): Promise<string> {
    const gift = { method: 'cash', currency: 'MXN', fund_id: c.funds[0], ...body };
    return (await newDonation(api, c.tenant, gift, { token: await tokens.next() })).id;
  }

  async function report(params: Record<string, string>) {
    const res = await api.get<{
      rows: Record<string, unknown>[];
      totals: Record<string, unknown>[];
      params: Record<string, unknown>;
    }>(`/v1/reports/giving?${new URLSearchParams(params).toString()}`, as(await tokens.next()));
    expect(res.status).toBe(200);
    return res.body;
  }

  /** The rollup's rows (folded days plus changes not yet folded) that differ from the donations' aggregate in the zone the rollup records (none when they agree). */
  async function drift(): Promise<unknown[]> {
    return sql(
      `WITH z AS (SELECT timezone FROM giving_day_zones WHERE tenant_id = $1),
       truth AS (
         SELECT (d.received_at AT TIME ZONE z.timezone)::date AS day, d.fund_id, d.campus_id, d.currency,
                count(*)::int AS count, sum(d.amount)::bigint AS amount, sum(d.refunded_amount)::bigint AS refunded
           FROM donations d CROSS JOIN z
          WHERE d.tenant_id = $1 AND d.status IN ('succeeded', 'partially_refunded', 'refunded')
          GROUP BY 1, 2, 3, 4
       ), rollup AS (
         SELECT day, fund_id, campus_id, currency, sum(count)::int AS count, sum(amount)::bigint AS amount, sum(refunded)::bigint AS refunded
           FROM (SELECT day, fund_id, campus_id, currency, count, amount, refunded FROM giving_days WHERE tenant_id = $1
                 UNION ALL SELECT day, fund_id, campus_id, currency, count, amount, refunded FROM giving_day_changes WHERE tenant_id = $1) x
          GROUP BY 1, 2, 3, 4
         HAVING sum(count) <> 0 OR sum(amount) <> 0 OR sum(refunded) <> 0
       )
       SELECT * FROM ((SELECT 'missing' AS side, * FROM truth EXCEPT SELECT 'missing', * FROM rollup)
                UNION ALL (SELECT 'extra', * FROM rollup EXCEPT SELECT 'extra', * FROM truth)) x`,
    );
  }

  const zone = async () =>
    (await sql<{ timezone: string }>('SELECT timezone FROM giving_day_zones WHERE tenant_id = $1'))[0]?.timezone;
  const uuid = (id: string) => parsePublicId(ID_PREFIX.donation, id)!;

  beforeAll(async () => {
    api = await TestApi.start();
    const tenant = await newTenant(api);
    tokens = new TokenPool(api, tenant, ['read:donations', 'write:donations', 'read:reports']);
    expect(
      (
        await api.put('/v1/settings/statements', {
          token: tenant.token,
          tenant: tenant.slug,
          body: { timezone: MEXICO },
        })
      ).status,
    ).toBe(200);
    c = {
      tenant,
      funds: [
        (await newFund(api, tenant, { name: 'General' })).id,
        (await newFund(api, tenant, { name: 'Building' })).id,
      ],
      campus: (await newCampus(api, tenant, { key: 'centro', name: 'Centro', timezone: MEXICO })).id,
    };
  }, 60_000);

  afterEach(async () => {
    expect(await drift()).toEqual([]);
  });

  afterAll(async () => {
    await api?.close();
  });

  it('racing gifts, refunds (two on one gift), fund and campus moves on one fund and day: the rollup equals the donations', async () => {
    const ids = await Promise.all(Array.from({ length: 30 }, (_, i) => donate({ amount: 1000 + i, received_at: DAY })));
    expect((await report({ from: '2025-03-01', to: '2025-04-30', group_by: 'month' })).params.timezone).toBe(MEXICO);
    const refund = (id: string, amount: number) =>
      api.post(`/v1/donations/${id}/refund`, { ...as(), body: { amount } });
    const results = await Promise.all([
      ...ids.slice(0, 8).map((id) => refund(id, 300)),
      refund(ids[8], 900),
      refund(ids[8], 900), // 1008 given: only one of the two fits
      ...ids.slice(10, 15).map((id) => api.patch(`/v1/donations/${id}`, { ...as(), body: { fund_id: c.funds[1] } })),
      ...ids.slice(15, 20).map((id) => api.patch(`/v1/donations/${id}`, { ...as(), body: { campus: 'centro' } })),
      ...ids.slice(20, 23).map((id) => api.patch(`/v1/donations/${id}`, { ...as(), body: { note: 'thanks' } })),
    ]);
    expect(results.slice(0, 8).every((r) => r.status === 200)).toBe(true);
    expect(
      results
        .slice(8, 10)
        .map((r) => r.status)
        .sort(),
    ).toEqual([200, 422]);
    expect(results.slice(10).every((r) => r.status === 200)).toBe(true);
    // What the processor does (no route disputes or fails a gift): a dispute, a failure; and a delete.
    await sql(`UPDATE donations SET status = 'disputed' WHERE tenant_id = $1 AND id = $2`, [uuid(ids[25])]);
    await sql(`UPDATE donations SET status = 'failed' WHERE tenant_id = $1 AND id = $2`, [uuid(ids[26])]);
    await sql(`DELETE FROM donations WHERE tenant_id = $1 AND id = $2`, [uuid(ids[27])]);

    // Local March 31: 27 counted gifts (30 less disputed, failed, deleted), 1000+…+1029 less ids 25–27, refunds 8×300 + 900.
    const [march] = await sql<{ count: number; amount: string; refunded: string }>(
      `SELECT sum(count)::int AS count, sum(amount)::text AS amount, sum(refunded)::text AS refunded
         FROM (SELECT count, amount, refunded FROM giving_days WHERE tenant_id = $1 AND day = '2025-03-31'
               UNION ALL SELECT count, amount, refunded FROM giving_day_changes WHERE tenant_id = $1 AND day = '2025-03-31') x`,
    );
    expect(march).toEqual({
      count: 27,
      amount: String(30 * 1000 + 435 - (25 + 26 + 27) - 3000),
      refunded: String(8 * 300 + 900),
    });
    const byFund = await report({ from: '2025-03-31', to: '2025-03-31', group_by: 'fund' });
    expect(byFund.rows.map((r) => r.count as number).sort((a, b) => a - b)).toEqual([5, 22]);
  });

  it('a batch’s gifts count when it is committed, all in one statement', async () => {
    const batch = await api.post<{ id: string }>('/v1/batches', {
      ...as(),
      body: { description: 'Sunday', currency: 'MXN' },
    });
    expect(batch.status).toBe(201);
    for (const amount of [100, 200, 300])
      await donate({ amount, batch_id: batch.body.id, received_at: '2025-05-04T11:00:00-06:00', fund_id: c.funds[1] });
    const may = () =>
      sql<{ count: number }>(
        `SELECT COALESCE(sum(count), 0)::int AS count FROM (SELECT count FROM giving_days WHERE tenant_id = $1 AND day = '2025-05-04'
           UNION ALL SELECT count FROM giving_day_changes WHERE tenant_id = $1 AND day = '2025-05-04') x`,
      );
    expect(await may()).toEqual([{ count: 0 }]);
    expect((await api.post(`/v1/batches/${batch.body.id}/commit`, { ...as(), body: {} })).status).toBe(200);
    expect(await may()).toEqual([{ count: 3 }]);
  });

  it('a bulk load of 5,000 gifts in one statement records one change per day and fund; the next report folds every change into the days', async () => {
    const changes = async () =>
      (await sql<{ n: number }>('SELECT count(*)::int AS n FROM giving_day_changes WHERE tenant_id = $1'))[0].n;
    const before = await changes();
    await sql(
      `INSERT INTO donations (tenant_id, id, amount, currency, fund_id, method, received_at, status, refunded_amount, created_at, updated_at)
       SELECT $1, gen_random_uuid(), 100 + i % 7, 'MXN', (ARRAY[$2, $3]::uuid[])[1 + i % 2], 'cash', '2024-06-01T12:00:00Z'::timestamptz + (i % 10) * interval '1 day', 'succeeded', 0, now(), now()
         FROM generate_series(1, 5000) i`,
      [parsePublicId(ID_PREFIX.fund, c.funds[0]), parsePublicId(ID_PREFIX.fund, c.funds[1])],
    );
    expect((await changes()) - before).toBe(10); // 10 days, each day's gifts in one fund (i % 10 decides the fund too)
    const totals = await report({ from: '2024-06-01', to: '2024-06-30', group_by: 'month' });
    const amount = 5000 * 100 + 714 * (0 + 1 + 2 + 3 + 4 + 5 + 6) + 1 + 2; // i % 7 over 1…5000: 714 whole cycles, then 4999 and 5000
    expect(totals.totals).toEqual([{ currency: 'MXN', count: 5000, amount, refunded: 0, net: amount }]);
    expect(await changes()).toBe(0);
    const [june] = await sql<{ rows: number; count: number }>(
      `SELECT count(*)::int AS rows, sum(count)::int AS count FROM giving_days WHERE tenant_id = $1 AND day BETWEEN '2024-06-01' AND '2024-06-30'`,
    );
    expect(june).toEqual({ rows: 10, count: 5000 });
  });

  it('two transactions writing gifts to two funds in opposite orders both commit (recording a change locks no rollup row)', async () => {
    const [a, b] = [parsePublicId(ID_PREFIX.fund, c.funds[0])!, parsePublicId(ID_PREFIX.fund, c.funds[1])!];
    const clients = [
      new Client({ connectionString: process.env.DATABASE_URL }),
      new Client({ connectionString: process.env.DATABASE_URL }),
    ];
    await Promise.all(clients.map((client) => client.connect()));
    const gift = (client: Client, fund: string) =>
      client.query(
        `INSERT INTO donations (tenant_id, id, amount, currency, fund_id, method, received_at, status, refunded_amount, created_at, updated_at)
         VALUES ($1, gen_random_uuid(), 500, 'MXN', $2, 'cash', '2025-08-03T15:00:00Z', 'succeeded', 0, now(), now())`,
        [c.tenant.id, fund],
      );
    try {
      await Promise.all(clients.map((client) => client.query("BEGIN; SET LOCAL lock_timeout = '5s'")));
      await gift(clients[0], a);
      await gift(clients[1], b);
      // Each now writes the other's day and fund: with an upsert into giving_days, each would wait for the other's row.
      await Promise.all([gift(clients[0], b), gift(clients[1], a)]);
      await Promise.all(clients.map((client) => client.query('COMMIT')));
    } finally {
      await Promise.all(clients.map((client) => client.end()));
    }
    const august = await report({ from: '2025-08-03', to: '2025-08-03', group_by: 'fund' });
    expect(august.rows.map((r) => r.count)).toEqual([2, 2]);
  });

  it('the church’s zone changes: the next report rebuilds the days in the new zone, and gifts racing the rebuild count once', async () => {
    const inMarch = async () =>
      (await report({ from: '2025-03-01', to: '2025-04-30', group_by: 'month' })).rows.map((r) => [r.period, r.count]);
    expect(await inMarch()).toEqual([['2025-03', 27]]);
    expect(await zone()).toBe(MEXICO);

    expect((await api.put('/v1/settings/statements', { ...as(), body: { timezone: 'UTC' } })).status).toBe(200);
    // Reports (each would rebuild) racing new gifts at the same instant.
    const [, , ...gifts] = await Promise.all([
      report({ from: '2025-03-01', to: '2025-04-30', group_by: 'month' }),
      report({ from: '2025-01-01', to: '2025-12-31', group_by: 'week' }),
      ...Array.from({ length: 20 }, () => donate({ amount: 50, received_at: DAY })),
    ]);
    expect(gifts).toHaveLength(20);
    expect(await zone()).toBe('UTC');
    // 23:30 in Mexico City on March 31 is April 1 in UTC.
    expect(await inMarch()).toEqual([['2025-04', 47]]);
  });

  it('another church’s gifts never reach this church’s rollup, and a church’s transaction sees only its own rows (row-level security)', async () => {
    const other = await newTenant(api);
    const fund = await newFund(api, other, { name: 'General' });
    await newDonation(api, other, {
      amount: 123456,
      currency: 'MXN',
      fund_id: fund.id,
      method: 'cash',
      received_at: DAY,
    });
    const mine = await sql<{ n: number }>(
      'SELECT count(*)::int AS n FROM giving_days WHERE tenant_id = $1 AND amount >= 123456',
    );
    expect(mine).toEqual([{ n: 0 }]);
    const seen = await api.db.runInTenant({ tenantId: c.tenant.id, actor: { kind: 'cli' }, lang: 'en' }, async () => {
      const { TenantContext } = await import('../../src/common/context/tenant-context');
      return TenantContext.current().manager.query<{ n: number }[]>(
        'SELECT count(*)::int AS n FROM giving_days WHERE tenant_id <> $1',
        [c.tenant.id],
      );
    });
    expect(seen).toEqual([{ n: 0 }]);
  });
});
