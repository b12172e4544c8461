// The baseline's report routes (scenarios 14 and 15, issue 16): the raw SQL aggregate a database
// engineer would write over the table, per request, answering the same JSON as the API:
//   GET /v1/reports/giving?group_by=month&from=…: one GROUP BY over `donations` of the church's
//     counted gifts in the range (succeeded, partially refunded, refunded: GIVEN_STATUSES), per
//     local month (`date_trunc('month', received_at AT TIME ZONE tz)`, formatted once per group)
//     and currency: count, sum of amount, sum of refunded_amount; totals per currency summed in JS;
//   GET /v1/reports/attendance?group_by=week: one GROUP BY over `attendance` in the range, per ISO
//     week (truncated, then formatted): records and count(DISTINCT member_id); and in the same
//     statement the range's records and unique people, as one group per person (a hash aggregate;
//     a count(DISTINCT) over the whole range sorts every row again).
// Until 18:30 UTC on 2026-11-26 both grouped by the formatted text (`to_char` of every row, a sort
// on strings): a weaker reference than the SQL the API runs (bench/README.md, issue 16).
// The church's time zone (statement settings, else the first campus with one, else UTC: what the
// API reads on every request) comes from a per-church map read once, as campuses do in
// server.mjs, so the baseline runs the aggregate and nothing else. Not done here: the rate limiter
// and the reports quota, parameter validation beyond the shape, CSV and SVG.

const COUNTED = `('succeeded', 'partially_refunded', 'refunded')`;
const WITHIN = (column) =>
  `${column} >= ($2::date)::timestamp AT TIME ZONE $4::text AND ${column} < ($3::date + 1)::timestamp AT TIME ZONE $4::text`;

const GIVING_BY_MONTH = `
  SELECT to_char(g.month, 'YYYY-MM') AS period, g.currency, g.count, g.amount, g.refunded
    FROM (SELECT date_trunc('month', d.received_at AT TIME ZONE $4::text) AS month, d.currency,
                 count(*)::int AS count, sum(d.amount)::text AS amount, sum(d.refunded_amount)::text AS refunded
            FROM donations d
           WHERE d.tenant_id = $1 AND ${WITHIN('d.received_at')} AND d.status IN ${COUNTED}
           GROUP BY 1, 2) g
   ORDER BY g.month, g.currency`;

const ATTENDANCE_BY_WEEK = `
  SELECT false AS is_total, to_char(w.week, 'IYYY-"W"IW') AS period, w.records, w.unique_people
    FROM (SELECT date_trunc('week', a.checked_in_at AT TIME ZONE $4::text) AS week, count(*)::int AS records, count(DISTINCT a.member_id)::int AS unique_people
            FROM attendance a
           WHERE a.tenant_id = $1 AND ${WITHIN('a.checked_in_at')}
           GROUP BY 1) w
  UNION ALL
  SELECT true, NULL, coalesce(sum(p.n), 0)::int, count(*)::int
    FROM (SELECT a.member_id, count(*) AS n FROM attendance a WHERE a.tenant_id = $1 AND ${WITHIN('a.checked_in_at')} GROUP BY 1) p
   ORDER BY 1, 2`;

const TIMEZONE = `SELECT (SELECT timezone FROM statement_settings WHERE tenant_id = $1) AS settings,
                         (SELECT array_agg(timezone ORDER BY created_at, id) FROM campuses WHERE tenant_id = $1 AND timezone IS NOT NULL) AS campuses`;

/** Route handlers over the baseline server's parts. */
export function reportRoutes(d) {
  const { authenticate, inTenant, HttpError, send, todayIn, defaultFrom } = d;
  const zones = new Map();

  /** The church's report time zone, read once (the API reads it per request). */
  async function timezoneOf(tenantId) {
    let tz = zones.get(tenantId);
    if (!tz) {
      tz = await inTenant(tenantId, async (client) => {
        const known = new Set((await client.query('SELECT name FROM pg_timezone_names')).rows.map((r) => r.name));
        const row = (await client.query(TIMEZONE, [tenantId])).rows[0];
        if (row.settings && known.has(row.settings)) return { timezone: row.settings, source: 'settings' };
        const campus = (row.campuses ?? []).find((n) => known.has(n));
        return campus ? { timezone: campus, source: 'campus' } : { timezone: 'UTC', source: 'default' };
      });
      zones.set(tenantId, tz);
    }
    return tz;
  }

  function range(url, tz) {
    const from = url.searchParams.get('from');
    const to = url.searchParams.get('to') ?? todayIn(tz.timezone);
    const dateOk = (v) => /^\d{4}-\d{2}-\d{2}$/.test(v);
    if ((from !== null && !dateOk(from)) || !dateOk(to)) throw new HttpError(400, 'invalid_parameter');
    return { from: from ?? defaultFrom(to), to };
  }

  async function giving(req, res, url) {
    const principal = await authenticate(req);
    if ((url.searchParams.get('group_by') ?? 'month') !== 'month') throw new HttpError(400, 'invalid_parameter');
    const tz = await timezoneOf(principal.tenant_id);
    const r = range(url, tz);
    const found = await inTenant(
      principal.tenant_id,
      async (client) => (await client.query(GIVING_BY_MONTH, [principal.tenant_id, r.from, r.to, tz.timezone])).rows,
    );
    const totals = new Map();
    const rows = found.map((x) => {
      const amount = Number(x.amount);
      const refunded = Number(x.refunded);
      const row = { period: x.period, currency: x.currency, count: x.count, amount, refunded, net: amount - refunded };
      const t = totals.get(x.currency) ?? { currency: x.currency, count: 0, amount: 0, refunded: 0, net: 0 };
      t.count += row.count;
      t.amount += amount;
      t.refunded += refunded;
      t.net += row.net;
      totals.set(x.currency, t);
      return row;
    });
    const body = {
      report: 'giving',
      params: { ...r, group_by: 'month', currency: null, timezone: tz.timezone, timezone_source: tz.source },
      generated_at: new Date().toISOString(),
      rows,
      totals: [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
    };
    send(res, 200, JSON.stringify(body));
  }

  async function attendance(req, res, url) {
    const principal = await authenticate(req);
    if ((url.searchParams.get('group_by') ?? 'week') !== 'week') throw new HttpError(400, 'invalid_parameter');
    const tz = await timezoneOf(principal.tenant_id);
    const r = range(url, tz);
    const found = await inTenant(
      principal.tenant_id,
      async (client) => (await client.query(ATTENDANCE_BY_WEEK, [principal.tenant_id, r.from, r.to, tz.timezone])).rows,
    );
    const total = found.find((x) => x.is_total);
    const body = {
      report: 'attendance',
      params: { ...r, group_by: 'week', timezone: tz.timezone, timezone_source: tz.source },
      generated_at: new Date().toISOString(),
      rows: found
        .filter((x) => !x.is_total)
        .map((x) => ({ period: x.period, records: x.records, unique_people: x.unique_people })),
      totals: { records: total?.records ?? 0, unique_people: total?.unique_people ?? 0 },
    };
    send(res, 200, JSON.stringify(body));
  }

  return async (req, res, url) => {
    if (req.method !== 'GET') return false;
    if (url.pathname === '/v1/reports/giving') await giving(req, res, url);
    else if (url.pathname === '/v1/reports/attendance') await attendance(req, res, url);
    else return false;
    return true;
  };
}
