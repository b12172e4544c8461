// Runs of one request mix against one server, with the server's CPU from /proc: the server process,
// its PostgreSQL backends (by application_name) and Redis. Series of several (server, requests)
// pairs are interleaved (A B A B A B after a warm-up of each) so that a noisy neighbour hits both
// sides alike; the result of each is the median of its runs.
import { cpuDelta, cpuSample, config, log, median, pidsByName } from './util.mjs';
import { loadRun } from './load.mjs';

async function measureOnce(server, requests, connections, seconds) {
  const backends = await server.backendPids();
  const redis = pidsByName('redis-server');
  const before = { proc: cpuSample([server.pid]), db: cpuSample(backends), redis: cpuSample(redis) };
  const result = await loadRun(server.url(), requests, { connections, seconds });
  const backendsAfter = [...new Set([...backends, ...(await server.backendPids())])];
  const after = { proc: cpuSample([server.pid]), db: cpuSample(backendsAfter), redis: cpuSample(redis) };
  const n = Math.max(1, result.requests);
  return {
    ...result,
    cpu_us_per_req: cpuDelta(before.proc, after.proc) / n,
    db_us_per_req: cpuDelta(before.db, after.db) / n,
    redis_us_per_req: cpuDelta(before.redis, after.redis) / n,
  };
}

const METRICS = ['rps', 'p50_ms', 'p90_ms', 'p99_ms', 'max_ms', 'cpu_us_per_req', 'db_us_per_req', 'redis_us_per_req'];

function aggregate(runs) {
  const out = { runs: runs.length };
  for (const m of METRICS) out[m] = median(runs.map((r) => r[m]));
  out.requests = runs.reduce((s, r) => s + r.requests, 0);
  out.errors = runs.reduce((s, r) => s + (r.errors ?? 0), 0);
  out.non2xx = runs.reduce((s, r) => s + (r.non2xx ?? 0), 0);
  out.loader = runs[0]?.loader;
  out.each = runs.map((r) =>
    Object.fromEntries(['rps', 'p50_ms', 'p99_ms', 'cpu_us_per_req', 'db_us_per_req'].map((m) => [m, r[m]])),
  );
  return out;
}

const cache = new Map();

/**
 * items: [{key, server, requests, connections, before?}] → {key: aggregate}; `before()` runs ahead of
 * each run and warm-up (a scenario whose requests can be sent once only clears what they wrote). Results are cached by key for
 * the invocation (scenario 6 reuses scenario 2's runs).
 */
export async function series(items, { seconds = config.duration, warmup = config.warmup, runs = config.runs } = {}) {
  const todo = items.filter((i) => !cache.has(i.key));
  if (todo.length) {
    if (warmup > 0) {
      for (const item of todo) {
        log(`  warm-up ${item.key} (${warmup} s)`);
        await item.before?.();
        await loadRun(item.server.url(), item.requests, { connections: item.connections, seconds: warmup });
      }
    }
    const results = new Map(todo.map((i) => [i.key, []]));
    for (let r = 0; r < runs; r++) {
      for (const item of todo) {
        await item.before?.();
        const one = await measureOnce(item.server, item.requests, item.connections, seconds);
        results.get(item.key).push(one);
        log(
          `  run ${r + 1}/${runs} ${item.key}: ${one.rps.toFixed(0)} req/s, p50 ${one.p50_ms.toFixed(1)} ms, p99 ${one.p99_ms.toFixed(1)} ms, ${one.cpu_us_per_req.toFixed(0)} µs CPU/req${one.errors || one.non2xx ? `, ${one.errors} errors, ${one.non2xx} non-2xx` : ''}`,
        );
      }
    }
    for (const item of todo) cache.set(item.key, aggregate(results.get(item.key)));
  }
  return Object.fromEntries(items.map((i) => [i.key, cache.get(i.key)]));
}

/** Every series measured in this invocation, by key. */
export function allSeries() {
  return Object.fromEntries(cache);
}
