// Scenario 5: webhook deliveries through the project's worker (`node dist/worker.js`) to a loopback
// receiver (its own process) that fails one delivery in five once, against the same BullMQ queue
// consumed by a no-op worker (its own process, same connection options and concurrency).
//
//   throughput: N deliveries due at once; deliveries/s until the last one succeeded (retries
//               included), against jobs/s of the no-op worker draining N jobs. Target >= 50%.
//   lateness:   N deliveries due at a steady rate (BENCH_WEBHOOK_RATE/s, default half the measured
//               throughput), as delayed jobs; per attempt, receiver time minus due time (the
//               delivery's next_attempt_at, or failure + retry delay). Target p99 <= 1.5 s.
//   lost:       deliveries never answered 2xx, or not `succeeded` in the database. Target 0.
import { readFileSync } from 'node:fs';
import { BullmqQueue } from './webhooks-queue.mjs';
import { HOOKS } from '../lib/seed.mjs';
import { ask, startScript, startWorker, writeServerLog } from '../lib/servers.mjs';
import { config, cpuDelta, cpuSample, db, log, median, percentile, requireFromDist, sleep } from '../lib/util.mjs';

// Loaded on first use: the harness builds the API after this module is imported.
const uuidv7 = () => requireFromDist('common/ids/id.js').newUuid();

const ENDPOINTS = 20;
const CONCURRENCY = 50;
const RETRY_DELAY_MS = 100;
const PROJECT_PREFIX = 'bench5';
const NOOP_PREFIX = 'bench5noop';

/**
 * Removes the church's deliveries and events, then vacuums: every run starts from tables without
 * dead rows whether or not autovacuum is on (it is off on some CI machines), and deleting events
 * does not check their foreign key against a table full of dead deliveries.
 */
async function clearDeliveries(church) {
  await db(async (c) => {
    for (const table of ['webhook_attempts', 'webhook_deliveries'])
      await c.query(`DELETE FROM ${table} WHERE tenant_id = $1`, [church.id]);
    await c.query('VACUUM (ANALYZE) webhook_attempts, webhook_deliveries');
    await c.query('DELETE FROM webhook_events WHERE tenant_id = $1', [church.id]);
    await c.query('VACUUM (ANALYZE) webhook_events');
  });
}

async function createEndpoints(church, port) {
  const { SecretBox } = requireFromDist('common/crypto/secret-box.js');
  const box = new SecretBox(Buffer.from(config.encryptionKey, 'base64'));
  return db(async (c) => {
    await clearDeliveries(church);
    await c.query('DELETE FROM webhook_endpoints WHERE tenant_id = $1', [church.id]);
    const ids = [];
    for (let i = 0; i < ENDPOINTS; i++) {
      const id = uuidv7();
      ids.push(id);
      await c.query(
        `INSERT INTO webhook_endpoints (tenant_id, id, url, description, events, secret_sealed) VALUES ($1, $2, $3, 'bench receiver', '{member.created}', $4)`,
        [church.id, id, `http://127.0.0.1:${port}/hooks/${i}`, box.seal(`whsec_bench${String(i).padStart(26, '0')}`)],
      );
    }
    return ids;
  });
}

/** N events and deliveries (round-robin over the endpoints), with next_attempt_at = dues[i] (ms) or NULL. */
async function createDeliveries(church, endpoints, n) {
  const now = new Date();
  const events = [];
  for (let i = 0; i < n; i++) {
    const id = uuidv7();
    const publicId = `evt_${id.replace(/-/g, '')}`;
    const member = {
      id: `mem_${uuidv7().replace(/-/g, '')}`,
      first_name: 'María',
      last_name: 'González',
      email: `maria.${i}@example.org`,
      phone: null,
      birthdate: '1988-04-17',
      age: 38,
      gender: 'female',
      gender_label: 'Femenino',
      status: 'member',
      status_label: 'Miembro',
      campus: null,
      active: true,
      household_id: null,
      address: null,
      custom_fields: {},
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    events.push({
      id,
      publicId,
      delivery: uuidv7(),
      endpoint: endpoints[i % endpoints.length],
      payload: JSON.stringify({
        id: publicId,
        type: 'member.created',
        created: Math.floor(now.getTime() / 1000),
        tenant: church.slug,
        api_version: '2026-01-01',
        data: { object: member },
      }),
    });
  }
  await db(async (c) => {
    for (let i = 0; i < n; i += 2000) {
      const chunk = events.slice(i, i + 2000);
      await c.query(
        `INSERT INTO webhook_events (tenant_id, id, type, payload, created_at) SELECT $1, e.id, 'member.created', e.payload, $4 FROM unnest($2::uuid[], $3::json[]) AS e(id, payload)`,
        [church.id, chunk.map((e) => e.id), chunk.map((e) => e.payload), now],
      );
      await c.query(
        `INSERT INTO webhook_deliveries (tenant_id, id, endpoint_id, event_id, next_attempt_at, created_at, updated_at)
         SELECT $1, d.id, d.endpoint_id, d.event_id, NULL, $5, $5 FROM unnest($2::uuid[], $3::uuid[], $4::uuid[]) AS d(id, endpoint_id, event_id)`,
        [church.id, chunk.map((e) => e.delivery), chunk.map((e) => e.endpoint), chunk.map((e) => e.id), now],
      );
    }
    await c.query('ANALYZE webhook_deliveries');
  });
  return events;
}

async function setDue(church, events, dues) {
  await db((c) =>
    c.query(
      `UPDATE webhook_deliveries d SET next_attempt_at = to_timestamp(x.due / 1000.0) FROM unnest($2::uuid[], $3::float8[]) AS x(id, due) WHERE d.tenant_id = $1 AND d.id = x.id`,
      [church.id, events.map((e) => e.delivery), dues],
    ),
  );
}

async function statusCounts(church) {
  return db(async (c) =>
    (
      await c.query(`SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1 GROUP BY status`, [
        church.id,
      ])
    ).rows.reduce((o, r) => ({ ...o, [r.status]: r.n }), {}),
  );
}

/** Waits until no delivery of the church is pending (or the time-out); returns the status counts. */
async function waitSettled(church, n, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let counts = {};
  while (Date.now() < deadline) {
    counts = await statusCounts(church);
    if (!counts.pending && (counts.succeeded ?? 0) + (counts.failed ?? 0) + (counts.canceled ?? 0) >= n) return counts;
    await sleep(200);
  }
  return counts;
}

function analyseHits(hits, events, dues) {
  const byEvent = new Map(hits);
  const lateness = [];
  let lost = 0;
  let duplicates = 0;
  let attempts = 0;
  let lastSuccess = 0;
  events.forEach((e, i) => {
    const list = (byEvent.get(e.publicId) ?? []).sort((a, b) => a[0] - b[0]);
    attempts += list.length;
    const ok = list.filter(([, s]) => s === 200);
    if (ok.length === 0) lost++;
    if (ok.length > 1) duplicates += ok.length - 1;
    for (const [t] of ok) lastSuccess = Math.max(lastSuccess, t);
    if (dues) {
      let due = dues[i];
      for (const [t, s] of list) {
        lateness.push(t - due);
        if (s !== 200) due = t + RETRY_DELAY_MS;
        else break;
      }
    }
  });
  lateness.sort((a, b) => a - b);
  return {
    lost,
    duplicates,
    attempts,
    lastSuccess,
    lateness: dues
      ? {
          p50_ms: percentile(lateness, 50),
          p99_ms: percentile(lateness, 99),
          max_ms: lateness[lateness.length - 1] ?? null,
          samples: lateness.length,
        }
      : null,
  };
}

/** Both cores' busy share since `from` (a sample of /proc/stat's cpu line), or that sample. */
function machineBusy(from) {
  const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const now = {
    busy: user + nice + system + irq + softirq + steal,
    total: user + nice + system + idle + iowait + irq + softirq + steal,
  };
  if (!from) return now;
  return `${Math.round((100 * (now.busy - from.busy)) / Math.max(1, now.total - from.total))}%`;
}

/** Transactions committed in the bench database so far (the worker's, and the harness's few). */
const commits = () =>
  db(async (c) =>
    Number(
      (await c.query('SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()')).rows[0]
        .xact_commit,
    ),
  );

/** When the receiver saw the run's first attempts and its successes: where a run's time goes. */
function timeline(hits, start) {
  const firsts = [];
  const successes = [];
  for (const [, list] of hits) {
    firsts.push(Math.min(...list.map(([t]) => t)) - start);
    for (const [t, s] of list) if (s === 200) successes.push(t - start);
  }
  firsts.sort((a, b) => a - b);
  successes.sort((a, b) => a - b);
  const at = (xs, p) => percentile(xs, p).toFixed(0);
  return `first attempts ${at(firsts, 0)}/${at(firsts, 50)}/${at(firsts, 90)}/${at(firsts, 100)} (0/50/90/100%), successes ${at(successes, 50)}/${at(successes, 90)}/${at(successes, 99)}/${at(successes, 100)} (50/90/99/100%)`;
}

/** Run 0 is the warm-up; lost and duplicate deliveries count in every run. */
const runLabel = (r) => (r === 0 ? 'warm-up' : `run ${r}/${config.runs}`);

function jobsFor(events, attempt = 0) {
  return events.map((e) => ({ tenantId: e.tenantId, deliveryId: e.delivery, endpointId: e.endpoint, attempt }));
}

/** `config.runs` runs of a reference worker (webhooks/noop-worker.mjs) draining n jobs; returns [{rate, cpu}]. */
async function referenceRuns(name, church, endpoints, queue, env) {
  const n = config.webhooks;
  const proc = startScript(name.replace(/\W+/g, '-'), 'webhooks/noop-worker.mjs', {
    REDIS_URL: config.redisUrl,
    QUEUE_PREFIX: NOOP_PREFIX,
    WEBHOOK_CONCURRENCY: String(CONCURRENCY),
    ...env,
  });
  await ask(proc, null, (m) => (m.ready ? true : undefined));
  const rates = [];
  try {
    // Run 0 warms up (JIT, connections) and is not counted.
    for (let r = 0; r <= config.runs; r++) {
      await ask(proc, { cmd: 'reset' }, (m) => (m.reset ? true : undefined));
      const fake = Array.from({ length: n }, (_, i) => ({
        tenantId: church.id,
        delivery: uuidv7(),
        endpoint: endpoints[i % endpoints.length],
      }));
      const cpu0 = cpuSample([proc.pid]);
      const start = performance.timeOrigin + performance.now();
      await queue.enqueueSingles(jobsFor(fake));
      let report;
      const deadline = Date.now() + 300_000;
      do {
        await sleep(100);
        report = await ask(proc, { cmd: 'report' }, (m) => (m.completed !== undefined ? m : undefined));
      } while (report.completed < n && Date.now() < deadline);
      const rate = report.completed / ((report.last - start) / 1000);
      const cpu = cpuDelta(cpu0, cpuSample([proc.pid])) / Math.max(1, report.completed);
      if (r > 0) rates.push({ rate, cpu });
      log(
        `  ${name} ${runLabel(r)}: ${report.completed} jobs, ${rate.toFixed(0)} jobs/s, ${cpu.toFixed(0)} µs CPU/job`,
      );
    }
  } finally {
    proc.child.send({ cmd: 'stop' });
    await new Promise((r) => (proc.exited ? r() : proc.child.once('exit', r)));
  }
  return rates;
}

export async function scenario5(ctx) {
  const church = ctx.fixtures.churches[HOOKS];
  const n = config.webhooks;
  const receiver = startScript('receiver', 'webhooks/receiver.mjs');
  const port = await ask(receiver, null, (m) => m.port);
  const endpoints = await createEndpoints(church, port);
  const projectQueue = new BullmqQueue(PROJECT_PREFIX);
  const noopQueue = new BullmqQueue(NOOP_PREFIX);
  await projectQueue.obliterate();
  await noopQueue.obliterate();
  const rows = [];
  try {
    // ---- references: the no-op worker, and a worker that only POSTs to the receiver ------------------
    const noopRates = await referenceRuns('no-op worker', church, endpoints, noopQueue, {});
    const postRates = await referenceRuns('POST-only worker', church, endpoints, noopQueue, {
      POST_URL: `http://127.0.0.1:${port}`,
    });
    await ask(receiver, { cmd: 'reset' }, (m) => (m.reset ? true : undefined));

    // ---- the project's worker ----------------------------------------------------------------------
    const worker = await startWorker({
      QUEUE_PREFIX: PROJECT_PREFIX,
      WEBHOOK_RETRY_SCHEDULE: `${RETRY_DELAY_MS}ms,2s,5s,30s,1m`,
      WEBHOOK_CONCURRENCY: String(CONCURRENCY),
      WEBHOOK_TIMEOUT_MS: '5000',
    });
    const throughput = [];
    let lost = 0;
    let duplicates = 0;
    let enqueueMs = 0;
    try {
      for (let r = 0; r <= config.runs; r++) {
        await clearDeliveries(church);
        await ask(receiver, { cmd: 'reset' }, (m) => (m.reset ? true : undefined));
        const events = (await createDeliveries(church, endpoints, n)).map((e) => ({ ...e, tenantId: church.id }));
        const backends = await worker.backendPids();
        const commits0 = await commits();
        const cpu0 = { w: cpuSample([worker.pid]), db: cpuSample(backends), machine: machineBusy() };
        const due = performance.timeOrigin + performance.now();
        await setDue(
          church,
          events,
          events.map(() => due),
        );
        const start = performance.timeOrigin + performance.now();
        const t0 = performance.now();
        await projectQueue.enqueue(jobsFor(events));
        enqueueMs = Math.max(enqueueMs, performance.now() - t0);
        const counts = await waitSettled(church, n, Math.max(180_000, n * 30));
        const backendsAfter = [...new Set([...backends, ...(await worker.backendPids())])];
        const busy = machineBusy(cpu0.machine);
        const workerCpu = cpuDelta(cpu0.w, cpuSample([worker.pid])) / n;
        const dbCpu = cpuDelta(cpu0.db, cpuSample(backendsAfter)) / n;
        const hits = await ask(receiver, { cmd: 'report' }, (m) => m.hits);
        const a = analyseHits(hits, events, null);
        const rate = n / ((a.lastSuccess - start) / 1000);
        await sleep(1100); // a backend reports its counts at most once a second
        const perCommit = n / Math.max(1, (await commits()) - commits0);
        log(
          `  worker ${runLabel(r)} timeline (ms after the enqueue): ${timeline(hits, start)}; ${perCommit.toFixed(1)} deliveries per transaction; machine ${busy} busy`,
        );
        const lostRun = Math.max(a.lost, n - (counts.succeeded ?? 0));
        lost += lostRun;
        duplicates += a.duplicates;
        if (r > 0) throughput.push({ rate, workerCpu, dbCpu, attempts: a.attempts, counts });
        log(
          `  worker ${runLabel(r)}: ${n} deliveries (${a.attempts} attempts) at ${rate.toFixed(0)}/s, ${workerCpu.toFixed(0)} µs worker CPU and ${dbCpu.toFixed(0)} µs DB CPU per delivery, statuses ${JSON.stringify(counts)}, lost ${lostRun}`,
        );
      }

      // ---- lateness at a steady rate ---------------------------------------------------------------
      const measured = median(throughput.map((t) => t.rate));
      const rate = Number(process.env.BENCH_WEBHOOK_RATE) || Math.max(20, Math.round(measured * 0.5));
      await clearDeliveries(church);
      await ask(receiver, { cmd: 'reset' }, (m) => (m.reset ? true : undefined));
      const events = (await createDeliveries(church, endpoints, n)).map((e) => ({ ...e, tenantId: church.id }));
      const begin = performance.timeOrigin + performance.now() + 1000 + 2 * enqueueMs;
      const dues = events.map((_, i) => begin + (i * 1000) / rate);
      await setDue(church, events, dues);
      log(`  lateness run: ${n} deliveries due at ${rate}/s over ${Math.round(n / rate)} s`);
      await projectQueue.enqueue(
        events.map((e, i) => ({
          tenantId: church.id,
          deliveryId: e.delivery,
          endpointId: e.endpoint,
          attempt: 0,
          delayMs: Math.max(0, dues[i] - (performance.timeOrigin + performance.now())),
        })),
      );
      const counts = await waitSettled(church, n, n * (1000 / rate) + 120_000);
      const hits = await ask(receiver, { cmd: 'report' }, (m) => m.hits);
      const a = analyseHits(hits, events, dues);
      const lostPaced = Math.max(a.lost, n - (counts.succeeded ?? 0));
      lost += lostPaced;
      duplicates += a.duplicates;
      log(
        `  lateness: p50 ${a.lateness.p50_ms.toFixed(0)} ms, p99 ${a.lateness.p99_ms.toFixed(0)} ms, max ${a.lateness.max_ms.toFixed(0)} ms over ${a.lateness.samples} attempts; statuses ${JSON.stringify(counts)}, lost ${lostPaced}`,
      );

      const noopRate = median(noopRates.map((x) => x.rate));
      rows.push({
        id: '5',
        title: `${n.toLocaleString('en')} webhook deliveries, ${ENDPOINTS} endpoints, 20% fail once: worker vs no-op worker`,
        metric: 'deliveries/s',
        project: {
          rps: measured,
          cpu_us_per_req: median(throughput.map((t) => t.workerCpu)),
          db_us_per_req: median(throughput.map((t) => t.dbCpu)),
        },
        baseline: { rps: noopRate, cpu_us_per_req: median(noopRates.map((x) => x.cpu)) },
        ratio: measured / noopRate,
        target: { op: '>=', value: 0.5 },
        pass: measured / noopRate >= 0.5,
      });
      const postRate = median(postRates.map((x) => x.rate));
      rows.push({
        id: '5',
        title: 'the same against a worker that only POSTs to the receiver (the least a delivery costs here)',
        metric: 'deliveries/s',
        project: { rps: measured, cpu_us_per_req: median(throughput.map((t) => t.workerCpu)) },
        baseline: { rps: postRate, cpu_us_per_req: median(postRates.map((x) => x.cpu)) },
        ratio: measured / postRate,
        target: { op: '>=', value: 0.6 },
        pass: measured / postRate >= 0.6,
      });
      rows.push({
        id: '5',
        title: `lateness at ${rate}/s (due time → receiver), retries included`,
        metric: 'p99 lateness ms',
        project: { p50_ms: a.lateness.p50_ms, p99_ms: a.lateness.p99_ms, max_ms: a.lateness.max_ms },
        baseline: null,
        ratio: null,
        target: { op: '<= ms', value: 1500 },
        pass: a.lateness.p99_ms <= 1500,
      });
      rows.push({
        id: '5',
        title: 'lost deliveries (never 2xx or not succeeded), all runs',
        metric: 'count',
        project: { lost, duplicates },
        baseline: null,
        ratio: null,
        target: { op: '==', value: 0 },
        pass: lost === 0,
      });
    } finally {
      await worker.stop();
      writeServerLog(worker);
    }
  } finally {
    receiver.child.disconnect();
    await projectQueue.obliterate().catch(() => undefined);
    await noopQueue.obliterate().catch(() => undefined);
    await projectQueue.close();
    await noopQueue.close();
    await clearDeliveries(church);
  }
  return rows;
}
