// Scenarios 8, 9 and 10 (issue 13, giving): recording donations with an Idempotency-Key, a fund's
// donations since a date on the church with 1,000,000 of them, and a year's statements (PDFs);
// API (and its worker) against baseline.
import { randomUUID } from 'node:crypto';
import { BIG, churchSlug, DONOR_POOL, FUNDS } from '../lib/seed.mjs';
import { captureDonationListSql } from '../lib/explain.mjs';
import { series } from '../lib/measure.mjs';
import { ask, perUnit, summarize, startScript, startWorker, writeServerLog } from '../lib/servers.mjs';
import { config, cpuSample, db, log, pidsByName, requireFromDist, requireFromRepo, sleep } from '../lib/util.mjs';
import { auth, expectOk, explainList, probe, ratioRow } from './http.mjs';

const { Queue } = requireFromRepo('bullmq');

const publicId = (prefix, uuid) => `${prefix}_${uuid.replace(/-/g, '')}`;

// ---- 8 ----------------------------------------------------------------------------------------

const CAMPUS_KEYS = ['central', 'north', 'south', 'east', 'west'];
const METHODS = ['card', 'online', 'ach', 'cash', 'check'];

/** The first `count` churches' (the 20's) ids, funds (by name) and a slice of their donors, for the bodies of scenarios 8 and 20. */
export async function givingChurches(ctx, count = config.churches) {
  const churches = [];
  for (let i = 0; i < count; i++) churches.push(ctx.fixtures.churches[churchSlug(i)]);
  return db(async (c) => {
    for (const church of churches) {
      church.funds = (
        await c.query('SELECT id, name FROM funds WHERE tenant_id = $1 ORDER BY created_at', [church.id])
      ).rows;
      church.donors = (
        await c.query('SELECT id FROM members WHERE tenant_id = $1 AND deleted_at IS NULL ORDER BY id LIMIT $2', [
          church.id,
          Math.min(DONOR_POOL.church, 200),
        ])
      ).rows.map((r) => r.id);
    }
    return churches;
  });
}

/**
 * What scenario 8 leaves behind, removed before and after it: the donations made after the seed,
 * the churches' events, deliveries, endpoints, idempotency records and audit rows (the seed makes
 * none), and the delivery jobs the API enqueued (no worker runs during the HTTP scenarios).
 */
export async function clearGiving(churches) {
  const ids = churches.map((c) => c.id);
  await db(async (c) => {
    const seededAt = (
      await c.query(`SELECT (value #>> '{}')::timestamptz AS at FROM bench_seed WHERE key = 'seeded_at'`)
    ).rows[0].at;
    await c.query('DELETE FROM donations WHERE tenant_id = ANY($1::uuid[]) AND created_at > $2', [ids, seededAt]);
    for (const table of [
      'webhook_attempts',
      'webhook_deliveries',
      'webhook_events',
      'webhook_endpoints',
      'idempotency_keys',
      'audit_log',
    ]) {
      await c.query(`DELETE FROM ${table} WHERE tenant_id = ANY($1::uuid[])`, [ids]);
    }
    await c.query('VACUUM (ANALYZE) donations, webhook_deliveries, webhook_events, idempotency_keys, audit_log');
  });
  const queue = new Queue('webhook-deliveries', {
    connection: { url: config.redisUrl, maxRetriesPerRequest: 1 },
    prefix: 'bench',
  });
  queue.on('error', () => undefined);
  try {
    await queue.obliterate({ force: true });
  } finally {
    await queue.close();
  }
}

/** One enabled endpoint per church subscribed to donation.created (an accounting integration): each gift makes one delivery row. */
export async function createEndpoints(churches, url = 'https://ledger.example.org/hooks/giving') {
  const { SecretBox } = requireFromDist('common/crypto/secret-box.js');
  const { newUuid } = requireFromDist('common/ids/id.js');
  const box = new SecretBox(Buffer.from(config.encryptionKey, 'base64'));
  await db(async (c) => {
    for (const church of churches) {
      await c.query(
        `INSERT INTO webhook_endpoints (tenant_id, id, url, description, events, secret_sealed) VALUES ($1, $2, $4, 'accounting', '{donation.created,donation.refunded}', $3)`,
        [church.id, newUuid(), box.seal(`whsec_bench${'0'.repeat(26)}`), url],
      );
    }
  });
}

/**
 * Donation tokens used per church: 300 in all, so that at up to ~300 gifts/s over the ~30 s a
 * minute's window can hold of API runs no token reaches the 30/min quota. More would cost the API
 * more `last_used_at` writes (one per token and minute) than a real integration pays.
 */
const TOKENS_USED = 15;

/**
 * A kiosk or online-giving integration: each (church, donation token) posts its own gift, varied
 * over the three tax-deductible funds, 200 donors, the five campuses and five methods; no
 * received_at (now). A fresh Idempotency-Key every time (the load generator makes it).
 */
function donationRequests(churches) {
  const requests = [];
  for (const church of churches)
    for (const token of church.givingTokens.slice(0, TOKENS_USED))
      requests.push(donationRequest(church, token, requests.length));
  return requests;
}

/** The `n`th gift of scenario 8's rotation, by `church` with `token`. */
export function donationRequest(church, token, n) {
  const method = METHODS[n % METHODS.length];
  const body = {
    amount: 500 + ((n * 2_731) % 50_000),
    currency: 'USD',
    fund_id: publicId('fnd', church.funds[n % 3].id),
    donor_id: publicId('mem', church.donors[(n * 7) % church.donors.length]),
    campus: CAMPUS_KEYS[n % CAMPUS_KEYS.length],
    method,
    ...(method === 'check' ? { check_number: String(1000 + n) } : {}),
  };
  return {
    method: 'POST',
    path: '/v1/donations',
    headers: { ...auth(church, token), 'Content-Type': 'application/json' },
    body,
    idempotencyKey: true,
  };
}

/** What each side wrote for its probe: the donation, its event, the deliveries and the idempotency record. */
async function writesOf(church, donationPublicId) {
  const id = donationPublicId.replace(/^don_/, '').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
  return db(async (c) => {
    const one = async (sql, params) => (await c.query(sql, params)).rows[0].n;
    return {
      donations: await one('SELECT count(*)::int AS n FROM donations WHERE tenant_id = $1 AND id = $2', [
        church.id,
        id,
      ]),
      events: await one(
        `SELECT count(*)::int AS n FROM webhook_events WHERE tenant_id = $1 AND type = 'donation.created' AND payload #>> '{data,object,id}' = $2`,
        [church.id, donationPublicId],
      ),
      deliveries: await one(
        `SELECT count(*)::int AS n FROM webhook_deliveries d JOIN webhook_events e ON e.tenant_id = d.tenant_id AND e.id = d.event_id WHERE d.tenant_id = $1 AND e.payload #>> '{data,object,id}' = $2`,
        [church.id, donationPublicId],
      ),
      idempotency: await one('SELECT count(*)::int AS n FROM idempotency_keys WHERE tenant_id = $1 AND location = $2', [
        church.id,
        `/v1/donations/${donationPublicId}`,
      ]),
    };
  });
}

/** The response without what differs by nature between two gifts made a moment apart (id and times). */
const comparable = (text) =>
  JSON.stringify({ ...JSON.parse(text), id: null, received_at: null, created_at: null, updated_at: null });

export async function scenario8(ctx) {
  const churches = await givingChurches(ctx);
  const requests = donationRequests(churches);
  await clearGiving(churches);
  try {
    await createEndpoints(churches);
    const first = { ...requests[0], headers: { ...requests[0].headers, 'Idempotency-Key': randomUUID() } };
    const check = await probe(ctx, first);
    expectOk(check, 'scenario 8', 201);
    const apiBody = check.api_body;
    const baseBody = await (
      await fetch(ctx.baseline.url(first.path), {
        method: 'POST',
        headers: { ...first.headers, 'Idempotency-Key': randomUUID() },
        body: JSON.stringify(first.body),
      })
    ).text();
    const sameShape = comparable(apiBody) === comparable(baseBody);
    if (!sameShape)
      log(`  scenario 8: API and baseline bodies differ beyond id and times:\n    ${apiBody}\n    ${baseBody}`);
    // The API's replay of the key: the stored response, no second gift.
    const replay = await fetch(ctx.api.url(first.path), {
      method: 'POST',
      headers: first.headers,
      body: JSON.stringify(first.body),
    });
    const replayed = replay.headers.get('idempotent-replayed') === 'true' && (await replay.text()) === apiBody;
    const writes = {
      api: await writesOf(churches[0], JSON.parse(apiBody).id),
      baseline: await writesOf(churches[0], JSON.parse(baseBody).id),
    };
    log(
      `  writes per gift: API ${JSON.stringify(writes.api)}, baseline ${JSON.stringify(writes.baseline)}; API replay ${replayed ? 'ok' : 'NOT ok'}`,
    );
    if (!replayed || JSON.stringify(writes.api) !== JSON.stringify(writes.baseline) || writes.api.deliveries !== 1) {
      throw new Error(
        `scenario 8: the two sides do not write the same (${JSON.stringify(writes)}, replay ${replayed})`,
      );
    }

    const r = await series([
      { key: '8:api', server: ctx.api, requests, connections: 32 },
      { key: '8:baseline', server: ctx.baseline, requests, connections: 32 },
    ]);
    const api = r['8:api'];
    const refused = api.non2xx + api.errors;
    const row = ratioRow(
      '8',
      `POST /v1/donations with a fresh Idempotency-Key, 20 churches × ${TOKENS_USED} tokens, one webhook endpoint each, 32 conns`,
      api,
      r['8:baseline'],
      0.5,
      {
        same_body: sameShape,
      },
    );
    // A refused request (a 429 from the 30/min donations quota) would make the ratio meaningless.
    if (refused) {
      row.pass = false;
      row.title += ` (${refused} API requests refused or failed)`;
    }
    return [row];
  } finally {
    await clearGiving(churches);
  }
}

// ---- 9 ----------------------------------------------------------------------------------------

/** The fund scenario 9 lists (the largest, ~60% of the gifts) and how far back: the last 90 days. */
export const LIST_FUND = FUNDS[0][0];
const SINCE_DAYS = 90;

const queryPath = (path, query) =>
  `${path}?${Object.entries(query)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&')}`;

export async function scenario9(ctx) {
  const church = ctx.fixtures.churches[BIG];
  const fund = await db(
    async (c) =>
      (await c.query('SELECT id FROM funds WHERE tenant_id = $1 AND name = $2', [church.id, LIST_FUND])).rows[0].id,
  );
  const since = new Date(Date.now() - SINCE_DAYS * 86_400_000).toISOString().slice(0, 10);
  const query = { fund_id: publicId('fnd', fund), 'received_at[gte]': since, limit: '100' };
  const byReceived = { ...query, sort: 'received_at' };
  const onBig = (q, extra = {}) =>
    church.tokens.map((token) => ({
      method: 'GET',
      path: queryPath('/v1/donations', q),
      headers: { ...auth(church, token), ...extra },
    }));
  const requests = onBig(query);
  const check = await probe(ctx, requests[0]);
  expectOk(check, 'scenario 9');
  const body = JSON.parse(check.api_body);
  if (body.data.length !== 100) throw new Error(`scenario 9: expected a full page of 100, got ${body.data.length}`);
  if (!check.same_body) log('  scenario 9: API and baseline bodies differ');
  const receivedRequests = onBig(byReceived);
  const receivedCheck = await probe(ctx, receivedRequests[0]);
  expectOk(receivedCheck, 'scenario 9 (sort=received_at)');

  const plans = await explainList(church, query, captureDonationListSql);
  const [page] = plans;
  const planOk = plans.length > 0 && plans.every((p) => p.verdict.ok);
  const discarded = Math.max(...plans.map((p) => p.verdict.largest_discard));
  const receivedPlans = await explainList(church, byReceived, captureDonationListSql);

  const noCount = requests.map((req) => ({ ...req, headers: { ...req.headers, 'X-Bench-Count': 'off' } }));
  const r = await series([
    { key: '9:api', server: ctx.api, requests, connections: 32 },
    { key: '9:baseline', server: ctx.baseline, requests, connections: 32 },
    { key: '9:nocount:baseline', server: ctx.baseline, requests: noCount, connections: 32 },
    { key: '9:received:api', server: ctx.api, requests: receivedRequests, connections: 32 },
    { key: '9:received:baseline', server: ctx.baseline, requests: receivedRequests, connections: 32 },
  ]);
  const planRow = (title, list, pass, target, extra = {}) => ({
    id: '9',
    title,
    metric: 'plan',
    project: { plan: list.map((p) => p.verdict.nodes.join(' → ')).join(' | ') },
    baseline: null,
    ratio: null,
    target: target === null ? null : { op: 'plan', value: target },
    pass,
    plans: list,
    ...extra,
  });
  const describe = (list) =>
    list
      .map(
        (p, i) =>
          `${i === 0 ? 'page' : 'count'} ${p.verdict.execution_ms.toFixed(1)} ms, ${p.verdict.nodes.filter((n) => n.includes('Scan')).join(', ')}, ${p.verdict.largest_discard.toLocaleString('en')} rows filtered out`,
      )
      .join('; ');
  return [
    ratioRow(
      '9',
      `GET /v1/donations?fund_id=<${LIST_FUND}>&received_at[gte]=<${SINCE_DAYS} days ago>&limit=100, 1,000,000 donations (total ${body.total.toLocaleString('en')}), 32 conns`,
      r['9:api'],
      r['9:baseline'],
      0.6,
      {
        same_body: check.same_body,
      },
    ),
    ratioRow(
      '9',
      'the same, against a baseline skipping the count (info: framework overhead)',
      r['9:api'],
      r['9:nocount:baseline'],
      null,
    ),
    planRow(
      "EXPLAIN of the API's page and count SQL: no Seq Scan, no Sort > 10,000 rows",
      plans,
      planOk,
      'no Seq Scan, no Sort > 10,000 rows',
      {
        failure: plans.flatMap((p) => p.verdict.problems).join('; '),
      },
    ),
    {
      ...planRow(
        'the same plans: rows a scan read and threw away (bench check: walking a whole index and filtering costs what a Seq Scan does)',
        plans,
        discarded <= 10_000,
        '≤ 10,000 rows filtered out',
        { summary: describe(plans), failure: describe(plans) },
      ),
    },
    ratioRow(
      '9',
      'the same list with sort=received_at (info: the order the API description recommends with these filters)',
      r['9:received:api'],
      r['9:received:baseline'],
      null,
      {
        same_body: receivedCheck.same_body,
        note: describe(receivedPlans),
      },
    ),
    {
      id: '9',
      title: 'page time of the two orders in EXPLAIN ANALYZE (info)',
      metric: 'text',
      project: {
        text: `default sort (created_at) ${page.verdict.execution_ms.toFixed(1)} ms; sort=received_at ${receivedPlans[0].verdict.execution_ms.toFixed(2)} ms`,
      },
      baseline: null,
      ratio: null,
      target: null,
      pass: null,
    },
  ];
}

// ---- 10 ---------------------------------------------------------------------------------------

/** What the church prints on its statements (the API's /v1/settings/statements), in English. */
const STATEMENT_SETTINGS = {
  language: 'en',
  timezone: 'America/Chicago',
  address: { line1: '1200 Main Street', city: 'Houston', region: 'TX', postal_code: '77002', country: 'US' },
  tax_id: '74-1234567',
  signer_name: 'Ana Torres',
  signer_title: 'Treasurer',
};

const uuidOf = (id) => id.replace(/^[a-z]+_/, '').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

/** The church's statements, their runs and the runs' jobs: every run issues every statement anew. */
async function clearStatements(church) {
  await db(async (c) => {
    for (const table of ['statement_donors', 'statements', 'statement_runs'])
      await c.query(`DELETE FROM ${table} WHERE tenant_id = $1`, [church.id]);
    await c.query(`DELETE FROM background_jobs WHERE tenant_id = $1 AND kind = 'statements'`, [church.id]);
    await c.query('VACUUM (ANALYZE) statements, statement_donors, statement_runs');
  });
}

/** A run's statements, elapsed seconds (run created -> finished, the database's clock) and what it issued. */
async function runRecord(church, runId) {
  return db(async (c) => {
    const run = (
      await c.query(
        'SELECT status, total, extract(epoch FROM finished_at - created_at)::float8 AS seconds FROM statement_runs WHERE tenant_id = $1 AND id = $2',
        [church.id, runId],
      )
    ).rows[0];
    const issued = (
      await c.query(
        `SELECT count(*)::int AS statements, sum(gift_count)::int AS gifts, md5(string_agg(recipient_id::text || recipient_name || totals::text, ',' ORDER BY recipient_id)) AS digest,
                sum(length(pdf))::bigint AS bytes, max((SELECT count(*) FROM statement_donors sd WHERE sd.tenant_id = s.tenant_id AND sd.statement_id = s.id))::int AS max_donors
           FROM statements s WHERE tenant_id = $1 AND run_id = $2`,
        [church.id, runId],
      )
    ).rows[0];
    return { ...run, ...issued, bytes: Number(issued.bytes) };
  });
}

/**
 * One API run: POST /v1/statements {year}, then GET /v1/statement-runs/{id} every 200 ms until
 * done. CPU: the worker, the PostgreSQL backends of the API and the worker (the API's only answer
 * the polls) and Redis.
 */
async function apiRun(ctx, worker, church, year) {
  await clearStatements(church);
  const headers = { ...auth(church, church.tokens[0]), 'Content-Type': 'application/json' };
  const pids = async () => ({
    proc: [worker.pid],
    db: [...(await ctx.api.backendPids())],
    redis: pidsByName('redis-server'),
  });
  const p0 = await pids();
  const before = { proc: cpuSample(p0.proc), db: cpuSample(p0.db), redis: cpuSample(p0.redis) };
  const res = await fetch(ctx.api.url('/v1/statements'), { method: 'POST', headers, body: JSON.stringify({ year }) });
  const started = await res.json();
  if (res.status !== 202)
    throw new Error(`scenario 10: POST /v1/statements answered ${res.status}: ${JSON.stringify(started)}`);
  const deadline = Date.now() + 15 * 60_000;
  let run = started;
  while (run.status !== 'done' && run.status !== 'failed') {
    if (Date.now() > deadline)
      throw new Error(`scenario 10: run ${started.id} not done after 15 minutes (${JSON.stringify(run)})`);
    if (worker.exited) throw new Error(`scenario 10: the worker exited:\n${worker.output}`);
    await sleep(200);
    run = await (await fetch(ctx.api.url(`/v1/statement-runs/${started.id}`), { headers })).json();
  }
  const p1 = await pids();
  const after = {
    proc: cpuSample(p1.proc),
    db: cpuSample([...new Set([...p0.db, ...p1.db])]),
    redis: cpuSample(p1.redis),
  };
  if (run.status !== 'done')
    throw new Error(`scenario 10: run ${started.id} ended ${run.status}:\n${worker.output.slice(-2000)}`);
  return perUnit('statements', await runRecord(church, uuidOf(started.id)), before, after);
}

/** One baseline run: the script issues the year's statements; CPU of the script, its backend and Redis. */
async function baselineRun(script, church, year) {
  await clearStatements(church);
  const pids = { proc: [script.child.pid], db: [script.backendPid], redis: pidsByName('redis-server') };
  const before = { proc: cpuSample(pids.proc), db: cpuSample(pids.db), redis: cpuSample(pids.redis) };
  const reply = await ask(script, { cmd: 'run', tenantId: church.id, year }, (m) =>
    m.run_id || m.error ? m : undefined,
  );
  if (reply.error) throw new Error(`scenario 10: the baseline failed: ${reply.error}`);
  const after = { proc: cpuSample(pids.proc), db: cpuSample(pids.db), redis: cpuSample(pids.redis) };
  return perUnit('statements', await runRecord(church, reply.run_id), before, after);
}

export async function scenario10(ctx) {
  const church = ctx.fixtures.churches[churchSlug(0)];
  const year = new Date().getUTCFullYear() - 1;
  const settings = await fetch(ctx.api.url('/v1/settings/statements'), {
    method: 'PUT',
    headers: { ...auth(church, church.tokens[0]), 'Content-Type': 'application/json' },
    body: JSON.stringify(STATEMENT_SETTINGS),
  });
  if (settings.status !== 200)
    throw new Error(`scenario 10: PUT /v1/settings/statements answered ${settings.status}: ${await settings.text()}`);
  const worker = await startWorker();
  const script = startScript('statements-baseline', 'baseline/statements.mjs', { DATABASE_URL: config.databaseUrl });
  try {
    script.backendPid = (await ask(script, null, (m) => (m.ready ? m : undefined))).backendPid;
    const api = [];
    const base = [];
    // An uncounted run of each first (the worker's and the script's code warm, pdfkit's fonts loaded).
    for (let r = 0; r <= config.runs; r++) {
      const label = r === 0 ? 'warm-up' : `run ${r}/${config.runs}`;
      const a = await apiRun(ctx, worker, church, year);
      log(
        `  ${label} 10:api: ${a.statements} statements in ${a.seconds.toFixed(1)} s, ${a.rps.toFixed(1)}/s, ${a.cpu_us_per_req.toFixed(0)} µs worker CPU, ${a.db_us_per_req.toFixed(0)} µs PostgreSQL per statement`,
      );
      const b = await baselineRun(script, church, year);
      log(
        `  ${label} 10:baseline: ${b.statements} statements in ${b.seconds.toFixed(1)} s, ${b.rps.toFixed(1)}/s, ${b.cpu_us_per_req.toFixed(0)} µs script CPU, ${b.db_us_per_req.toFixed(0)} µs PostgreSQL per statement`,
      );
      if (a.statements !== b.statements || a.gifts !== b.gifts || a.digest !== b.digest) {
        throw new Error(
          `scenario 10: the API and the baseline issued different statements (${JSON.stringify({ api: a, baseline: b })})`,
        );
      }
      if (r > 0) {
        api.push(a);
        base.push(b);
      }
    }
    const p = summarize('statements', api);
    const b = summarize('statements', base);
    const ratio = p.rps / b.rps;
    const last = api[api.length - 1];
    return [
      {
        id: '10',
        title: `${p.statements.toLocaleString('en')} year-end statements (${year}, ${last.gifts.toLocaleString('en')} gifts, joint ones for households, ~${Math.round(last.bytes / last.statements / 1024)} KB PDFs): API run (POST, worker, polled) vs a plain loop, same queries and renderer`,
        metric: 'statements/s',
        project: p,
        baseline: b,
        ratio,
        target: { op: '>=', value: 0.5 },
        pass: ratio >= 0.5,
        same_statements: true,
      },
    ];
  } finally {
    script.child.send({ cmd: 'stop' });
    await new Promise((r) => (script.exited ? r() : script.child.once('exit', r)));
    await worker.stop();
    writeServerLog(worker);
    await clearStatements(church);
  }
}
