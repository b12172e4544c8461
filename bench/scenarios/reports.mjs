// Scenarios 14, 15 and 16 (issue 16, reports and notifications): the giving report by month over
// the 1,000,000-donation church and the attendance report by week over a year of a 50k church's
// check-ins, each against the raw SQL aggregate in the baseline server (bench/baseline/reports.mjs);
// and a notification to 10,000 members by e-mail and push through the worker against a plain loop
// (bench/baseline/notifications.mjs) sending the same mails and pushes to the same SMTP sink and
// push gateway (bench/lib/sinks.mjs), with every recipient's mails and pushes counted.
import { BIG, churchSlug } from '../lib/seed.mjs';
import { series } from '../lib/measure.mjs';
import { ask, perUnit, summarize, startScript, startWorker, writeServerLog } from '../lib/servers.mjs';
import { startPushGateway, startSmtpSink } from '../lib/sinks.mjs';
import { config, cpuSample, db, log, pidsByName, requireFromDist, sleep } from '../lib/util.mjs';
import { auth, expectOk } from './http.mjs';

const publicId = (prefix, uuid) => `${prefix}_${uuid.replace(/-/g, '')}`;
const uuidOf = (id) => id.replace(/^[a-z]+_/, '').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

/** Values kept between bench invocations. */
async function kept(key, make) {
  const have = await db(
    async (c) => (await c.query('SELECT value FROM bench_seed WHERE key = $1', [key])).rows[0]?.value,
  );
  if (have) return have;
  const value = await make();
  await db((c) =>
    c.query(
      'INSERT INTO bench_seed (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
      [key, JSON.stringify(value)],
    ),
  );
  return value;
}

// ---- 14, 15: reports -----------------------------------------------------------------------------

/**
 * Reports have an endpoint quota of 30 requests a minute per token that no override raises (as
 * POST /v1/donations in scenario 8), so the load rotates over this many `read:reports` tokens per
 * church, made once and kept in bench_seed.
 */
const REPORT_TOKENS = 100;

async function reportTokens(church) {
  return kept(`report_tokens:${church.slug}`, async () => {
    const { generateToken, hashToken } = requireFromDist('platform/auth/token-format.js');
    const values = Array.from({ length: REPORT_TOKENS }, () => generateToken('service'));
    await db((c) =>
      c.query(
        `INSERT INTO api_tokens (tenant_id, id, type, name, scopes, token_hash, token_prefix, last4, user_id, created_by, created_at, expires_at)
         SELECT $1, gen_random_uuid(), 'service', 'reports ' || x.n, '{read:reports}', x.hash, left(x.value, 4), right(x.value, 4), NULL, u.id, now(), now() + interval '1 year'
           FROM unnest($2::text[], $3::bytea[]) WITH ORDINALITY AS x(value, hash, n)
           JOIN users u ON u.tenant_id = $1 AND u.role = 'org_admin'`,
        [church.id, values, values.map((v) => hashToken(v))],
      ),
    );
    return values;
  });
}

/** Both servers answer the report alike: status 200 and the same JSON but for generated_at. */
async function compareReport(ctx, request, what) {
  const bodies = {};
  const out = {};
  for (const server of [ctx.api, ctx.baseline]) {
    const res = await fetch(server.url(request.path), { headers: request.headers });
    const text = await res.text();
    out[server.name] = { status: res.status };
    bodies[server.name] = text;
  }
  expectOk({ ...out, api_body: bodies.api }, what);
  const strip = (t) => JSON.stringify({ ...JSON.parse(t), generated_at: null });
  const same = strip(bodies.api) === strip(bodies.baseline);
  if (!same)
    log(
      `  ${what}: API and baseline reports differ:\n    ${bodies.api.slice(0, 600)}\n    ${bodies.baseline.slice(0, 600)}`,
    );
  return { same, report: JSON.parse(bodies.api) };
}

function p50Row(id, title, api, base, notes = {}) {
  const ratio = api.p50_ms / base.p50_ms;
  const row = {
    id,
    title,
    project: {
      rps: api.rps,
      p50_ms: api.p50_ms,
      p99_ms: api.p99_ms,
      cpu_us_per_req: api.cpu_us_per_req,
      db_us_per_req: api.db_us_per_req,
    },
    baseline: {
      rps: base.rps,
      p50_ms: base.p50_ms,
      p99_ms: base.p99_ms,
      cpu_us_per_req: base.cpu_us_per_req,
      db_us_per_req: base.db_us_per_req,
    },
    metric: 'p50',
    ratio,
    target: { op: '<=', value: 1.0 },
    pass: ratio <= 1.0,
    ...notes,
  };
  // A refused API request fails the row; the baseline's pool never refuses, but a request queued
  // behind 31 others may pass the load generator's 30 s time-out (an error, no latency): noted.
  const refused = { api: api.non2xx + api.errors, base: base.non2xx + base.errors };
  if (refused.api) row.pass = false;
  if (refused.api || refused.base)
    row.title += ` (refused or timed out: API ${refused.api} of ${api.requests + refused.api}, baseline ${refused.base} of ${base.requests + refused.base})`;
  if (notes.same_body === false) {
    row.pass = false;
    row.title += ' (the two reports differ)';
  }
  return row;
}

const isoDay = (d) => d.toISOString().slice(0, 10);

/**
 * A report over ~1,000,000 rows takes seconds of PostgreSQL CPU, and 32 connections on 2 cores make
 * each request wait for the 31 others: a 10 s run would see few answers or none. Runs at 32
 * connections last at least this long; after each, the servers' backends are left to finish what
 * the load generator left in flight (else it would slow the other side's run).
 */
const REPORT_RUN_SECONDS = 30;
const LIGHT_CONNECTIONS = 4;

async function settle() {
  await db(async (c) => {
    const busy = `SELECT count(*)::int AS n FROM pg_stat_activity
                   WHERE datname = current_database() AND application_name LIKE 'church-%' AND application_name <> 'church-bench-probe' AND state NOT IN ('idle')`;
    await sleep(250);
    for (let i = 0; i < 1200 && (await c.query(busy)).rows[0].n > 0; i++) await sleep(100);
  });
}

/** The pair at 32 connections (the row), then an info pair at 4 (the API's pool never waits 10 s for a connection there). */
async function reportSeries(ctx, id, requests) {
  const heavy = await series(
    [
      { key: `${id}:api`, server: ctx.api, requests, connections: 32, before: settle },
      { key: `${id}:baseline`, server: ctx.baseline, requests, connections: 32, before: settle },
    ],
    { seconds: Math.max(config.duration, REPORT_RUN_SECONDS) },
  );
  await settle();
  const light = await series([
    {
      key: `${id}:c${LIGHT_CONNECTIONS}:api`,
      server: ctx.api,
      requests,
      connections: LIGHT_CONNECTIONS,
      before: settle,
    },
    {
      key: `${id}:c${LIGHT_CONNECTIONS}:baseline`,
      server: ctx.baseline,
      requests,
      connections: LIGHT_CONNECTIONS,
      before: settle,
    },
  ]);
  await settle();
  return {
    api: heavy[`${id}:api`],
    base: heavy[`${id}:baseline`],
    lightApi: light[`${id}:c${LIGHT_CONNECTIONS}:api`],
    lightBase: light[`${id}:c${LIGHT_CONNECTIONS}:baseline`],
  };
}

function lightRow(id, r) {
  const row = p50Row(id, `the same at ${LIGHT_CONNECTIONS} conns (info)`, r.lightApi, r.lightBase);
  row.target = null;
  row.pass = null;
  return row;
}

export async function scenario14(ctx) {
  const church = ctx.fixtures.churches[BIG];
  const tokens = await reportTokens(church);
  const from = new Date();
  from.setUTCFullYear(from.getUTCFullYear() - 5);
  const path = `/v1/reports/giving?group_by=month&from=${isoDay(from)}`;
  const requests = tokens.map((token) => ({ method: 'GET', path, headers: auth(church, token) }));
  const { same, report } = await compareReport(ctx, requests[0], 'scenario 14');
  const gifts = report.totals.reduce((s, t) => s + t.count, 0);
  const span = await db(
    async (c) =>
      (
        await c.query(
          `SELECT count(*)::int AS n, to_char(min(received_at), 'YYYY-MM') AS first, to_char(max(received_at), 'YYYY-MM') AS last FROM donations WHERE tenant_id = $1`,
          [church.id],
        )
      ).rows[0],
  );
  log(
    `  scenario 14: ${report.rows.length} rows, ${gifts.toLocaleString('en')} counted gifts of ${span.n.toLocaleString('en')} (${span.first} to ${span.last}); same body: ${same}`,
  );
  const r = await reportSeries(ctx, '14', requests);
  return [
    p50Row(
      '14',
      `GET /v1/reports/giving?group_by=month&from=<5 years ago>, ${span.n.toLocaleString('en')} donations (the seed's span ${span.first} to ${span.last}: 3 years), ${gifts.toLocaleString('en')} counted in ${report.rows.length} rows (month × currency), 32 conns (${Math.max(config.duration, REPORT_RUN_SECONDS)} s runs): API p50 / raw GROUP BY p50`,
      r.api,
      r.base,
      { same_body: same },
    ),
    lightRow('14', r),
  ];
}

const WEEKLY = 'Bench weekly service';

/**
 * A year of Sunday services in the church, 52 events at 10:00 in its first campus's time zone, the
 * last one the Sunday before this week, and their attendance: members in the church's order, every
 * fourth attending 80% of the Sundays and the others 13% (~15,000 a week of ~49,500 live members).
 * Made once (skipped when the events are there).
 */
async function attendanceYear(church) {
  return db(async (c) => {
    const have = (
      await c.query(`SELECT count(*)::int AS n FROM events WHERE tenant_id = $1 AND name LIKE $2`, [
        church.id,
        `${WEEKLY} %`,
      ])
    ).rows[0].n;
    if (have === 0) {
      const started = Date.now();
      await c.query('BEGIN');
      const campus = (
        await c.query('SELECT id, timezone FROM campuses WHERE tenant_id = $1 ORDER BY created_at, id LIMIT 1', [
          church.id,
        ])
      ).rows[0];
      await c.query(
        `INSERT INTO events (tenant_id, id, name, campus_id, timezone, starts_at, ends_at, created_at, updated_at)
         SELECT $1, gen_random_uuid(), $2 || ' ' || to_char(s.day, 'YYYY-MM-DD'), $3, $4,
                (s.day + time '10:00') AT TIME ZONE $4, (s.day + time '11:30') AT TIME ZONE $4,
                (s.day + time '10:00') AT TIME ZONE $4 - interval '7 days', (s.day + time '10:00') AT TIME ZONE $4 - interval '7 days'
           FROM (SELECT date_trunc('week', now() AT TIME ZONE $4)::date - 1 - 7 * k AS day FROM generate_series(0, 51) AS k) s`,
        [church.id, WEEKLY, campus.id, campus.timezone],
      );
      await c.query(
        `INSERT INTO attendance (tenant_id, id, event_id, member_id, kind, checked_in_at, created_at, updated_at)
         SELECT $1, gen_random_uuid(), e.id, m.id, CASE WHEN m.n % 20 = 0 THEN 'volunteer' ELSE 'regular' END,
                e.starts_at + (abs(hashint4(m.n * 7 + e.k)) % 35 - 20) * interval '1 minute',
                e.starts_at, e.starts_at
           FROM (SELECT id, starts_at, row_number() OVER (ORDER BY starts_at)::int AS k FROM events WHERE tenant_id = $1 AND name LIKE $2) e
           JOIN (SELECT id, row_number() OVER (ORDER BY id)::int AS n FROM members WHERE tenant_id = $1 AND deleted_at IS NULL) m
             ON abs(hashint4(m.n * 131 + e.k * 7919)) % 100 < CASE WHEN m.n % 4 = 0 THEN 80 ELSE 13 END`,
        [church.id, `${WEEKLY} %`],
      );
      await c.query('COMMIT');
      await c.query('VACUUM (ANALYZE) attendance, events');
      log(`  scenario 15: inserted a year of weekly services and their attendance (${Date.now() - started} ms)`);
    }
    return (
      await c.query(
        `SELECT count(DISTINCT e.id)::int AS events, count(*)::int AS records, count(DISTINCT a.member_id)::int AS people
           FROM attendance a JOIN events e ON e.tenant_id = a.tenant_id AND e.id = a.event_id WHERE a.tenant_id = $1 AND e.name LIKE $2`,
        [church.id, `${WEEKLY} %`],
      )
    ).rows[0];
  });
}

export async function scenario15(ctx) {
  const church = ctx.fixtures.churches[churchSlug(0)];
  const year = await attendanceYear(church);
  const tokens = await reportTokens(church);
  const path = '/v1/reports/attendance?group_by=week';
  const requests = tokens.map((token) => ({ method: 'GET', path, headers: auth(church, token) }));
  const { same, report } = await compareReport(ctx, requests[0], 'scenario 15');
  log(
    `  scenario 15: ${year.events} services, ${year.records.toLocaleString('en')} records in all; the report (${report.params.from} to ${report.params.to}): ${report.rows.length} weeks, ${report.totals.records.toLocaleString('en')} records, ${report.totals.unique_people.toLocaleString('en')} people; same body: ${same}`,
  );
  const r = await reportSeries(ctx, '15', requests);
  return [
    p50Row(
      '15',
      `GET /v1/reports/attendance?group_by=week on a 50k church, a year of weekly services (${year.events} events, ${year.records.toLocaleString('en')} records; the default range ${report.params.from} to ${report.params.to} holds ${report.rows.length} weeks, ${report.totals.records.toLocaleString('en')} records, ${report.totals.unique_people.toLocaleString('en')} people), 32 conns (${Math.max(config.duration, REPORT_RUN_SECONDS)} s runs): API p50 / raw GROUP BY p50`,
      r.api,
      r.base,
      { same_body: same },
    ),
    lightRow('15', r),
  ];
}

// ---- 16: notifications ---------------------------------------------------------------------------

const AUDIENCE = 10_000;
const NOTIFY_GROUP = 'Bench notification audience (10,000)';
const NOTICE = {
  title: 'Servicio especial este domingo',
  body: 'Este domingo tendremos un servicio especial de acción de gracias a las 10:00, seguido de una comida en el salón. Trae a tu familia y a tus amigos; habrá actividades para los niños.',
};

/** A group of 10,000 live members of the church (every fourth in id order), each with one push token; made once in SQL. */
async function audienceGroup(ctx, church) {
  const found = await db(
    async (c) =>
      (
        await c.query('SELECT id FROM groups WHERE tenant_id = $1 AND name = $2 AND deleted_at IS NULL', [
          church.id,
          NOTIFY_GROUP,
        ])
      ).rows[0],
  );
  let groupId = found?.id;
  if (!groupId) {
    const res = await fetch(ctx.api.url('/v1/groups'), {
      method: 'POST',
      headers: { ...auth(church, church.tokens[0]), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: NOTIFY_GROUP, campus: 'central' }),
    });
    const body = await res.json();
    if (res.status !== 201)
      throw new Error(`scenario 16: POST /v1/groups answered ${res.status}: ${JSON.stringify(body)}`);
    groupId = uuidOf(body.id);
    await db(async (c) => {
      await c.query(
        `INSERT INTO group_members (tenant_id, id, group_id, member_id, group_role, joined_at, created_at, updated_at)
         SELECT $1, gen_random_uuid(), $2, m.id, 'member', now(), now(), now()
           FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM members WHERE tenant_id = $1 AND deleted_at IS NULL) m
          WHERE m.n % 4 = 1 AND m.n <= 4 * $3`,
        [church.id, groupId, AUDIENCE],
      );
      await c.query('ANALYZE group_members');
    });
  }
  await db(async (c) => {
    await c.query(
      `INSERT INTO member_push_tokens (tenant_id, id, member_id, token, platform, created_at, updated_at)
       SELECT g.tenant_id, gen_random_uuid(), g.member_id, 'bench-fcm-' || replace(g.member_id::text, '-', ''), CASE WHEN hashtext(g.member_id::text) % 2 = 0 THEN 'ios' ELSE 'android' END, now(), now()
         FROM group_members g WHERE g.tenant_id = $1 AND g.group_id = $2
       ON CONFLICT (tenant_id, token) DO NOTHING`,
      [church.id, groupId],
    );
  });
  return groupId;
}

/** What each recipient should get: members per address and tokens, from the database. */
async function expected(church, groupId) {
  return db(async (c) => {
    const rows = (
      await c.query(
        `SELECT lower(m.email) AS email, (SELECT array_agg(p.token) FROM member_push_tokens p WHERE p.tenant_id = m.tenant_id AND p.member_id = m.id) AS tokens
           FROM group_members g JOIN members m ON m.tenant_id = g.tenant_id AND m.id = g.member_id AND m.deleted_at IS NULL
          WHERE g.tenant_id = $1 AND g.group_id = $2`,
        [church.id, groupId],
      )
    ).rows;
    const mails = new Map();
    const pushes = new Map();
    for (const r of rows) {
      if (r.email) mails.set(r.email, (mails.get(r.email) ?? 0) + 1);
      for (const t of r.tokens ?? []) pushes.set(t, (pushes.get(t) ?? 0) + 1);
    }
    return { recipients: rows.length, mails, pushes };
  });
}

/** Received against expected, per address and token: duplicates (more than expected) and missing (fewer). */
function tally(want, smtp, push) {
  const out = { duplicates: 0, missing: 0, mails: smtp.received.total, pushes: push.received.total };
  for (const [want_, got] of [
    [want.mails, smtp.received.counts],
    [want.pushes, push.received.counts],
  ]) {
    for (const [key, n] of want_) {
      const g = got.get(key) ?? 0;
      if (g > n) out.duplicates += g - n;
      if (g < n) out.missing += n - g;
    }
    for (const [key, g] of got) if (!want_.has(key)) out.duplicates += g;
  }
  return out;
}

async function clearNotifications(church) {
  await db(async (c) => {
    for (const table of ['notification_deliveries', 'notification_recipients', 'notifications'])
      await c.query(`DELETE FROM ${table} WHERE tenant_id = $1`, [church.id]);
    await c.query(`DELETE FROM background_jobs WHERE tenant_id = $1 AND kind = 'notifications'`, [church.id]);
    await c.query('VACUUM (ANALYZE) notification_deliveries, notification_recipients, notifications');
  });
}

/** One API send: POST /v1/notifications to the group, GET every 200 ms until sent. Seconds from the row's created_at to sent_at. */
async function apiSend(ctx, worker, church, groupId) {
  await clearNotifications(church);
  const headers = { ...auth(church, church.tokens[0]), 'Content-Type': 'application/json', 'Accept-Language': 'es' };
  const pids = async () => ({
    proc: [worker.pid],
    db: [...(await ctx.api.backendPids())],
    redis: pidsByName('redis-server'),
  });
  const p0 = await pids();
  const before = { proc: cpuSample(p0.proc), db: cpuSample(p0.db), redis: cpuSample(p0.redis) };
  const res = await fetch(ctx.api.url('/v1/notifications'), {
    method: 'POST',
    headers,
    body: JSON.stringify({ ...NOTICE, channels: ['email', 'push'], audience: { group_id: publicId('grp', groupId) } }),
  });
  const created = await res.json();
  if (res.status !== 202 && res.status !== 201)
    throw new Error(`scenario 16: POST /v1/notifications answered ${res.status}: ${JSON.stringify(created)}`);
  const deadline = Date.now() + 10 * 60_000;
  let n = created;
  while (n.status !== 'sent') {
    if (Date.now() > deadline)
      throw new Error(`scenario 16: notification ${created.id} not sent after 10 minutes (${JSON.stringify(n)})`);
    if (worker.exited) throw new Error(`scenario 16: the worker exited:\n${worker.output}`);
    await sleep(200);
    n = await (await fetch(ctx.api.url(`/v1/notifications/${created.id}`), { headers })).json();
  }
  const p1 = await pids();
  const after = {
    proc: cpuSample(p1.proc),
    db: cpuSample([...new Set([...p0.db, ...p1.db])]),
    redis: cpuSample(p1.redis),
  };
  const row = await db(
    async (c) =>
      (
        await c.query(
          'SELECT recipients, counts, extract(epoch FROM sent_at - created_at)::float8 AS seconds FROM notifications WHERE tenant_id = $1 AND id = $2',
          [church.id, uuidOf(created.id)],
        )
      ).rows[0],
  );
  return perUnit('recipients', { recipients: row.recipients, seconds: row.seconds, counts: row.counts }, before, after);
}

async function baselineSend(script, church, groupId, sinks) {
  const pids = { proc: [script.child.pid], db: [script.backendPid], redis: pidsByName('redis-server') };
  const before = { proc: cpuSample(pids.proc), db: cpuSample(pids.db), redis: cpuSample(pids.redis) };
  const reply = await ask(
    script,
    {
      cmd: 'run',
      tenantId: church.id,
      groupId,
      smtpUrl: sinks.smtp.url,
      pushUrl: sinks.push.url,
      ...NOTICE,
      language: 'es',
    },
    (m) => (m.recipients !== undefined || m.error ? m : undefined),
  );
  if (reply.error) throw new Error(`scenario 16: the baseline failed: ${reply.error}`);
  const after = { proc: cpuSample(pids.proc), db: cpuSample(pids.db), redis: cpuSample(pids.redis) };
  return perUnit('recipients', reply, before, after);
}

export async function scenario16(ctx) {
  const church = ctx.fixtures.churches[churchSlug(0)];
  await settle();
  const groupId = await audienceGroup(ctx, church);
  const want = await expected(church, groupId);
  const sinks = { smtp: await startSmtpSink(), push: await startPushGateway() };
  const worker = await startWorker({ SMTP_URL: sinks.smtp.url, PUSH_GATEWAY_URL: sinks.push.url });
  const script = startScript('notifications-baseline', 'baseline/notifications.mjs', {
    DATABASE_URL: config.databaseUrl,
  });
  const wantMails = [...want.mails.values()].reduce((s, n) => s + n, 0);
  const wantPushes = [...want.pushes.values()].reduce((s, n) => s + n, 0);
  const seen = { api: { duplicates: 0, missing: 0 }, baseline: { duplicates: 0, missing: 0 } };
  try {
    script.backendPid = (await ask(script, null, (m) => (m.ready ? m : undefined))).backendPid;
    const api = [];
    const base = [];
    // An uncounted run of each first (code warm, SMTP pools open), then alternating.
    for (let r = 0; r <= config.runs; r++) {
      const label = r === 0 ? 'warm-up' : `run ${r}/${config.runs}`;
      sinks.smtp.received.reset();
      sinks.push.received.reset();
      const a = await apiSend(ctx, worker, church, groupId);
      await sleep(500); // a late delivery would show as a duplicate of the next run otherwise
      const ta = tally(want, sinks.smtp, sinks.push);
      log(
        `  ${label} 16:api: ${a.recipients} recipients in ${a.seconds.toFixed(2)} s, ${a.rps.toFixed(0)}/s; ${ta.mails} mails, ${ta.pushes} pushes, ${ta.duplicates} duplicate, ${ta.missing} missing; counts ${JSON.stringify(a.counts)}; ${a.cpu_us_per_req.toFixed(0)} µs worker CPU, ${a.db_us_per_req.toFixed(0)} µs PostgreSQL per recipient`,
      );
      sinks.smtp.received.reset();
      sinks.push.received.reset();
      const b = await baselineSend(script, church, groupId, sinks);
      await sleep(500);
      const tb = tally(want, sinks.smtp, sinks.push);
      log(
        `  ${label} 16:baseline: ${b.recipients} recipients in ${b.seconds.toFixed(2)} s, ${b.rps.toFixed(0)}/s; ${tb.mails} mails, ${tb.pushes} pushes, ${tb.duplicates} duplicate, ${tb.missing} missing; ${b.cpu_us_per_req.toFixed(0)} µs script CPU, ${b.db_us_per_req.toFixed(0)} µs PostgreSQL per recipient`,
      );
      for (const [side, t] of [
        ['api', ta],
        ['baseline', tb],
      ]) {
        seen[side].duplicates += t.duplicates;
        seen[side].missing += t.missing;
      }
      if (r > 0) {
        api.push(a);
        base.push(b);
      }
    }
    const p = summarize('recipients', api);
    const b = summarize('recipients', base);
    const ratio = p.rps / b.rps;
    return [
      {
        id: '16',
        title: `a notification to ${p.recipients.toLocaleString('en')} members (a group of a 50k church), e-mail and push (${wantMails.toLocaleString('en')} with an address, ${wantPushes.toLocaleString('en')} push tokens): API (POST, worker fan-out, polled until sent) vs a plain loop, same SMTP server and push gateway (recipients/s)`,
        metric: 'recipients/s',
        project: p,
        baseline: b,
        ratio,
        target: { op: '>=', value: 0.5 },
        pass: ratio >= 0.5,
      },
      {
        id: '16',
        title: `each recipient's mails and pushes counted at the SMTP server and the gateway over all ${config.runs + 1} runs of each side (missing: API ${seen.api.missing}, loop ${seen.baseline.missing})`,
        metric: 'count',
        project: { lost: seen.api.missing, duplicates: seen.api.duplicates },
        baseline: { lost: seen.baseline.missing, duplicates: seen.baseline.duplicates },
        ratio: null,
        target: { op: '==', value: 0 },
        pass: seen.api.duplicates === 0 && seen.api.missing === 0,
      },
    ];
  } finally {
    script.child.send({ cmd: 'stop' });
    await new Promise((r) => (script.exited ? r() : script.child.once('exit', r)));
    await worker.stop();
    writeServerLog(worker);
    await sinks.smtp.close();
    await sinks.push.close();
    await clearNotifications(church);
  }
}
