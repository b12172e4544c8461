// Scenario 20 (issue 25, "how cost grows"): the same requests on databases of 1, 20 and 200 churches
// of 50,000 members each (church_bench_scale_<n>, seeded once by lib/seed.mjs and kept), one API
// process per database, their runs interleaved, so that per-request cost can be read against the
// number of churches in one invocation. See bench/README.md, "How cost grows with the number of churches".
import { churchSlug, ensureSeeded, seedSpec } from '../lib/seed.mjs';
import { series } from '../lib/measure.mjs';
import { ask, startApi, startScript, startWorker, writeServerLog } from '../lib/servers.mjs';
import { atDatabase, config, cpuDelta, cpuSample, db, log, pidsByName, requireFromRepo, sleep } from '../lib/util.mjs';
import { clearGiving, createEndpoints, donationRequest, givingChurches } from './giving.mjs';
import { auth } from './http.mjs';
import { clearSunday, kioskRequests, KIOSKS, uuidOf } from './ministry.mjs';

const { Queue } = requireFromRepo('bullmq');

function envList(name, fallback) {
  const raw = process.env[name];
  if (!raw) return fallback;
  return raw
    .split(',')
    .map((x) => Math.round(Number(x)))
    .filter((x) => Number.isFinite(x) && x > 0);
}

/** The sizes compared (BENCH_SCALE_SIZES, e.g. `1,2` for a quick look). */
export const SCALE_SIZES = envList('BENCH_SCALE_SIZES', [1, 20, 200]);
/** Members of each church (50,000) and its donations: 4,000, a tenth of church_bench's, in every size (200 × 40,000 would make the seed long). */
const SCALE_MEMBERS = Math.round(Number(process.env.BENCH_SCALE_MEMBERS ?? 50_000));
const SCALE_DONATIONS = Math.round(Number(process.env.BENCH_SCALE_DONATIONS ?? 4_000));
/**
 * Donation tokens in rotation, the same number at every size (as scenario 8: 300, so none reaches
 * the 30/min quota of POST /v1/donations), spread over the churches: 300 in one church, 15 in each
 * of 20, 2 in each of 200 (300 of them used).
 */
export const GIFT_TOKENS = 300;

export const scaleDb = (n) => `church_bench_scale_${n}`;

export const scaleSpec = (n) =>
  seedSpec({
    dbName: scaleDb(n),
    churches: n,
    members: SCALE_MEMBERS,
    churchDonations: SCALE_DONATIONS,
    givingTokens: Math.ceil(GIFT_TOKENS / n),
    extras: false,
  });

/** Seeds (once) the database of every size; `BENCH_SCALE_SIZES` picks them. Returns {size: fixtures}. */
let seeded = null;

export async function seedScale({ force = false } = {}) {
  if (seeded && !force) return seeded;
  const out = {};
  for (const n of SCALE_SIZES) {
    const started = Date.now();
    out[n] = await ensureSeeded({ force, spec: scaleSpec(n) });
    log(`scale database ${scaleDb(n)} ready (${Math.round((Date.now() - started) / 1000)} s)`);
  }
  seeded = out;
  return out;
}

/** Ports of the API processes, one per size: 3400, 3401, … */
const PORT0 = Number(process.env.BENCH_SCALE_PORT ?? 3400);
const queuePrefix = (n) => `bench20s${n}`;
/** Connections: as scenarios 1 and 8 (32) and 11 (one per kiosk key, 64). */
const CONNECTIONS = 32;

async function obliterate(prefix) {
  const queue = new Queue('webhook-deliveries', {
    connection: { url: config.redisUrl, maxRetriesPerRequest: 1 },
    prefix,
  });
  queue.on('error', () => undefined);
  try {
    await queue.obliterate({ force: true });
  } finally {
    await queue.close();
  }
}

/** GET /v1/members?limit=50 with every token of `churches`; throws unless the first answers a full page. */
async function listRequests(side, churches) {
  const requests = [];
  for (const church of churches)
    for (const token of church.tokens)
      requests.push({ method: 'GET', path: '/v1/members?limit=50', headers: auth(church, token) });
  const res = await fetch(side.api.url(requests[0].path), { headers: requests[0].headers });
  const body = await res.json();
  if (res.status !== 200 || body.data?.length !== 50)
    throw new Error(`scenario 20 (${side.n}): the list answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return requests;
}

/** GIFT_TOKENS gifts in rotation: the k-th by church k mod n with its (k div n)-th donation token. */
async function giftRequests(side) {
  const churches = await givingChurches({ fixtures: side.fixtures }, side.n);
  await clearGiving(churches);
  await obliterate(queuePrefix(side.n));
  await createEndpoints(churches, side.receiverUrl);
  const requests = [];
  for (let k = 0; k < GIFT_TOKENS; k++) {
    const church = churches[k % side.n];
    requests.push(donationRequest(church, church.givingTokens[Math.floor(k / side.n)], k));
  }
  const probe = requests[0];
  const res = await fetch(side.api.url(probe.path), {
    method: 'POST',
    headers: { ...probe.headers, 'Idempotency-Key': crypto.randomUUID() },
    body: JSON.stringify(probe.body),
  });
  if (res.status !== 201)
    throw new Error(
      `scenario 20 (${side.n}): POST /v1/donations answered ${res.status}: ${(await res.text()).slice(0, 300)}`,
    );
  side.givingChurches = churches;
  return requests;
}

/** Scenario 11's kiosk iteration (search by phone, check the household of three in) on bench-c01 of the size's database. */
async function checkInRequests(side) {
  const church = side.fixtures.churches[churchSlug(0)];
  const ctx = { api: side.api };
  const { events, requests } = await kioskRequests(ctx, church);
  const seen = { duplicates: 0, partial: 0, checkIns: 0 };
  side.seen = seen;
  side.clearSunday = () => atDatabase(side.db, () => clearSunday(church, events.map(uuidOf), seen));
  await side.clearSunday();
  const res = await fetch(side.api.url(requests[1].path), {
    method: 'POST',
    headers: requests[1].headers,
    body: JSON.stringify(requests[1].body),
  });
  if (res.status !== 201)
    throw new Error(
      `scenario 20 (${side.n}): POST /v1/check-ins answered ${res.status}: ${(await res.text()).slice(0, 300)}`,
    );
  await side.clearSunday();
  Object.assign(seen, { duplicates: 0, partial: 0, checkIns: 0 });
  return requests;
}

/** Size of the database, its largest indexes (with their B-tree depth) and the buffer counters of pg_stat_database. */
async function dbStats() {
  return db(async (c) => {
    await c.query('CREATE EXTENSION IF NOT EXISTS pageinspect');
    const size = (await c.query('SELECT pg_database_size(current_database())::bigint AS b')).rows[0].b;
    const indexes = (
      await c.query(
        `SELECT i.relname AS name, t.relname AS "table", pg_relation_size(i.oid)::bigint AS bytes,
                (SELECT level FROM bt_metap(i.oid::regclass::text)) + 1 AS depth
           FROM pg_class i JOIN pg_index x ON x.indexrelid = i.oid JOIN pg_class t ON t.oid = x.indrelid JOIN pg_am a ON a.oid = i.relam
          WHERE i.relnamespace = 'public'::regnamespace AND a.amname = 'btree'
          ORDER BY pg_relation_size(i.oid) DESC LIMIT 8`,
      )
    ).rows.map((r) => ({ ...r, bytes: Number(r.bytes) }));
    const pick = async (names) =>
      (
        await c.query(
          `SELECT i.relname AS name, pg_relation_size(i.oid)::bigint AS bytes, (SELECT level FROM bt_metap(i.oid::regclass::text)) + 1 AS depth
             FROM pg_class i WHERE i.relname = ANY($1::text[]) ORDER BY i.relname`,
          [names],
        )
      ).rows.map((r) => ({ ...r, bytes: Number(r.bytes) }));
    const read = await pick([
      'members_pkey',
      'members_tenant_created_idx',
      'api_tokens_pkey',
      'donations_pkey',
      'donations_tenant_created_idx',
      'member_tags_pkey',
    ]);
    return { bytes: Number(size), indexes, read, counters: await counters(c) };
  });
}

async function counters(c) {
  const r = (
    await c.query(
      'SELECT blks_hit::bigint AS hit, blks_read::bigint AS read FROM pg_stat_database WHERE datname = current_database()',
    )
  ).rows[0];
  return { hit: Number(r.hit), read: Number(r.read) };
}

/** Buffer hits over (hits + reads) between two pg_stat_database samples (reads may come from the OS page cache). */
const hitRatio = (a, b) => {
  const hit = b.hit - a.hit;
  const read = b.read - a.read;
  return { hit, read, ratio: hit + read ? hit / (hit + read) : null };
};

/**
 * After the gifts: each size's worker (its own queue prefix) delivers the deliveries its API queued
 * to a loopback receiver (scenario 5's, one failure in five retried after 100 ms); CPU of the
 * worker, its PostgreSQL backends and Redis per succeeded delivery, from the worker's start to the
 * last pending delivery.
 */
async function drainDeliveries(side) {
  return atDatabase(side.db, async () => {
    const ids = side.givingChurches.map((c) => c.id);
    const pending = () =>
      db(
        async (c) =>
          (
            await c.query(
              `SELECT count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = ANY($1::uuid[]) AND status = 'pending'`,
              [ids],
            )
          ).rows[0].n,
      );
    const total = await pending();
    const redis = pidsByName('redis-server');
    const worker = await startWorker({
      QUEUE_PREFIX: queuePrefix(side.n),
      WEBHOOK_RETRY_SCHEDULE: '100ms,2s,5s,30s,1m',
      WEBHOOK_CONCURRENCY: '50',
      WEBHOOK_TIMEOUT_MS: '5000',
    });
    worker.name = `worker-scale-${side.n}`;
    try {
      const t0 = Date.now();
      const backends0 = await worker.backendPids();
      const before = { proc: cpuSample([worker.pid]), db: cpuSample(backends0), redis: cpuSample(redis) };
      let left = total;
      const deadline = Date.now() + 300_000;
      while (left > 0 && Date.now() < deadline) {
        await sleep(250);
        left = await pending();
      }
      const seconds = (Date.now() - t0) / 1000;
      const backends = [...new Set([...backends0, ...(await worker.backendPids())])];
      const after = { proc: cpuSample([worker.pid]), db: cpuSample(backends), redis: cpuSample(redis) };
      const done = total - left;
      const n = Math.max(1, done);
      const out = {
        deliveries: done,
        left,
        seconds,
        rps: done / seconds,
        cpu_us_per_req: cpuDelta(before.proc, after.proc) / n,
        db_us_per_req: cpuDelta(before.db, after.db) / n,
        redis_us_per_req: cpuDelta(before.redis, after.redis) / n,
      };
      log(
        `  deliveries of ${side.n}: ${done}/${total} in ${seconds.toFixed(1)} s (${out.rps.toFixed(0)}/s), worker ${out.cpu_us_per_req.toFixed(0)} µs + PostgreSQL ${out.db_us_per_req.toFixed(0)} µs CPU each`,
      );
      return out;
    } finally {
      await worker.stop();
      writeServerLog(worker);
    }
  });
}

const sum = (s) => s.cpu_us_per_req + s.db_us_per_req;

/**
 * A row per size (rate, latency, CPU per request of the API and its PostgreSQL backends), then the
 * key number: that CPU at the largest size ÷ at `ref` (the smallest unless told).
 */
function kindRows(kind, title, bySize, { metric = 'req/s', ref = SCALE_SIZES[0] } = {}) {
  const rows = [];
  for (const n of SCALE_SIZES) {
    const s = bySize[n];
    rows.push({
      id: '20',
      title: `${title}: ${n} church${n === 1 ? '' : 'es'} × 50k`,
      project: {
        rps: s.rps,
        p50_ms: s.p50_ms,
        p99_ms: s.p99_ms,
        cpu_us_per_req: sum(s),
        api_us_per_req: s.cpu_us_per_req,
        db_us_per_req: s.db_us_per_req,
        redis_us_per_req: s.redis_us_per_req,
      },
      baseline: null,
      metric,
      ratio: null,
      target: null,
      pass: null,
      kind,
      size: n,
    });
  }
  const first = bySize[ref];
  const last = bySize[SCALE_SIZES.at(-1)];
  const ratio = sum(last) / sum(first);
  rows.push({
    id: '20',
    title: `${title}: CPU per request (API + PostgreSQL) at ${SCALE_SIZES.at(-1)} churches ÷ at ${ref}`,
    project: { cpu_us_per_req: sum(last) },
    baseline: { cpu_us_per_req: sum(first) },
    metric: 'API + PostgreSQL CPU/req',
    ratio,
    target: { op: '<=', value: 1.2 },
    pass: ratio <= 1.2,
    kind,
  });
  return rows;
}

export async function scenario20() {
  const fixturesBySize = await seedScale();
  const receiver = startScript('receiver', 'webhooks/receiver.mjs');
  const receiverPort = await ask(receiver, null, (m) => m.port);
  const sides = SCALE_SIZES.map((n, i) => ({
    n,
    db: scaleDb(n),
    port: PORT0 + i,
    fixtures: fixturesBySize[n],
    receiverUrl: `http://127.0.0.1:${receiverPort}/hooks/scale-${n}`,
  }));
  const rows = [];
  const notes = {};
  try {
    for (const side of sides) {
      await atDatabase(side.db, async () => {
        side.api = await startApi({
          port: side.port,
          name: `api-scale-${side.n}`,
          env: { QUEUE_PREFIX: queuePrefix(side.n) },
        });
        const churches = Array.from({ length: side.n }, (_, i) => side.fixtures.churches[churchSlug(i)]);
        side.listAll = await listRequests(side, churches);
        side.listOne = await listRequests(side, churches.slice(0, 1));
        side.checkIns = await checkInRequests(side);
        side.gifts = await giftRequests(side);
        side.stats = await dbStats();
        log(
          `  ${side.db}: ${(side.stats.bytes / 2 ** 30).toFixed(2)} GB; API pid ${side.api.pid} on :${side.port}; ${side.listAll.length} list tokens`,
        );
      });
    }
    const measure = async (kind, pick, connections, before) => {
      const items = sides.map((side) => ({
        key: `20:${kind}:${side.n}`,
        server: side.api,
        requests: pick(side),
        connections,
        before: before ? () => before(side) : undefined,
      }));
      const r = await series(items);
      return Object.fromEntries(sides.map((side) => [side.n, r[`20:${kind}:${side.n}`]]));
    };
    const c0 = {};
    for (const side of sides) c0[side.n] = await atDatabase(side.db, () => db(counters));
    const listAll = await measure('list-all', (s) => s.listAll, CONNECTIONS);
    rows.push(...kindRows('list-all', 'GET /v1/members?limit=50, every church × 2 tokens, 32 conns', listAll));
    const listOne = await measure('list-one', (s) => s.listOne, CONNECTIONS);
    rows.push(...kindRows('list-one', 'GET /v1/members?limit=50, bench-c01 only, 32 conns', listOne));
    const c1 = {};
    for (const side of sides) c1[side.n] = await atDatabase(side.db, () => db(counters));
    const checkIn = await measure(
      'check-in',
      (s) => s.checkIns,
      KIOSKS,
      (side) => side.clearSunday(),
    );
    rows.push(
      ...kindRows(
        'check-in',
        `kiosk: GET /v1/check-in/search then POST /v1/check-ins (per request, bench-c01), ${KIOSKS} conns`,
        checkIn,
      ),
    );
    const gifts = await measure('gift', (s) => s.gifts, CONNECTIONS);
    rows.push(
      ...kindRows(
        'gift',
        `POST /v1/donations, ${GIFT_TOKENS} donation tokens spread over the churches, one webhook endpoint each, 32 conns`,
        gifts,
      ),
    );
    const c2 = {};
    for (const side of sides) c2[side.n] = await atDatabase(side.db, () => db(counters));
    for (const side of sides) {
      await side.api.stop();
      writeServerLog(side.api);
    }
    const deliveries = {};
    for (const side of sides) deliveries[side.n] = await drainDeliveries(side);
    rows.push(
      ...kindRows(
        'delivery',
        'webhook delivery of those gifts (worker, its own queue; receiver fails 1 in 5 once)',
        deliveries,
        // One church has one endpoint, and the worker runs at most 4 attempts per endpoint at once
        // (PER_ENDPOINT in delivery-runner.ts): its deliveries queue behind that limit. From 20
        // churches on, the 50 slots are never held back by it: the key number compares 200 with 20.
        { metric: 'deliveries/s', ref: SCALE_SIZES.includes(20) ? 20 : SCALE_SIZES[0] },
      ),
    );
    for (const side of sides) {
      const refused = [listAll, listOne, checkIn, gifts].reduce((t, k) => t + k[side.n].non2xx + k[side.n].errors, 0);
      notes[side.n] = {
        db: side.db,
        bytes: side.stats.bytes,
        indexes: side.stats.indexes,
        read: side.stats.read,
        hit_ratio: {
          lists: hitRatio(c0[side.n], c1[side.n]),
          writes: hitRatio(c1[side.n], c2[side.n]),
        },
        refused,
        check_ins: side.seen,
        deliveries_left: deliveries[side.n].left,
      };
      log(`  ${side.db}: ${JSON.stringify(notes[side.n])}`);
    }
    for (const side of sides) await atDatabase(side.db, () => side.clearSunday());
    const shared = await db(async (c) => (await c.query('SHOW shared_buffers')).rows[0].shared_buffers).catch(
      () => null,
    );
    rows.push({
      id: '20',
      title: `databases (shared_buffers ${shared})`,
      project: {
        text: SCALE_SIZES.map(
          (n) =>
            `${n}: ${(notes[n].bytes / 2 ** 30).toFixed(1)} GB, hit ratio lists ${(100 * notes[n].hit_ratio.lists.ratio).toFixed(2)}% / writes ${(100 * notes[n].hit_ratio.writes.ratio).toFixed(2)}%, ${notes[n].refused} refused`,
        ).join('; '),
      },
      baseline: null,
      metric: 'text',
      ratio: null,
      target: null,
      pass: null,
      scale: notes,
    });
    return rows;
  } finally {
    for (const side of sides) {
      if (side.api && !side.api.exited) {
        await side.api.stop();
        writeServerLog(side.api);
      }
      if (side.givingChurches) await atDatabase(side.db, () => clearGiving(side.givingChurches)).catch(() => undefined);
      await obliterate(queuePrefix(side.n)).catch(() => undefined);
    }
    receiver.child.disconnect();
  }
}
