#!/usr/bin/env node
// `npm run bench` (every scenario) or `npm run bench -- <scenario…>` (e.g. `-- 1 3`): builds the API,
// seeds its own database, runs the API and the baseline, each in its own process, loads them from
// another, prints the table and writes bench/results/latest.json. See bench/README.md.
import { config, DIST_DIR, log, machine, nodeBin, REPO_ROOT, requireFromRepo, run } from './lib/util.mjs';
import { loaderName } from './lib/load.mjs';
import { allSeries } from './lib/measure.mjs';
import { machineLine, seriesTable, table, updateReadme, writeLatest } from './lib/report.mjs';
import { ensureSeeded } from './lib/seed.mjs';
import { startApi, startBaseline, writeServerLog } from './lib/servers.mjs';
import { scenario1, scenario2, scenario3, scenario4, scenario6, scenario7 } from './scenarios/http.mjs';
import { scenario5 } from './scenarios/webhooks.mjs';
import { scenario8, scenario9, scenario10 } from './scenarios/giving.mjs';
import { scenario11, scenario12, scenario13 } from './scenarios/ministry.mjs';
import { scenario14, scenario15, scenario16 } from './scenarios/reports.mjs';
import { scenario17, scenario18 } from './scenarios/changes.mjs';
import { scenario19 } from './scenarios/operations.mjs';
import { scenario20, seedScale } from './scenarios/scale.mjs';
import { cpSync } from 'node:fs';
import { join } from 'node:path';

const SCENARIOS = {
  1: { title: 'member list, 20 churches of 50k', http: true, run: scenario1 },
  19: { title: "scenario 1 with metrics and traces off and on (operators' tools)", http: true, run: scenario19 },
  // Its own databases (1, 20 and 200 churches) and API processes; church_bench is not needed.
  20: {
    title: 'cost vs the number of churches: 1, 20 and 200 churches of 50k',
    http: false,
    main: false,
    optIn: true,
    seed: seedScale,
    run: scenario20,
  },
  2: { title: '250k church: first page, deep page, 304', http: true, run: scenario2 },
  6: { title: '250k church: exact total vs no count', http: true, run: scenario6 },
  3: { title: 'filters and multi-field sort, EXPLAIN', http: true, run: scenario3 },
  7: {
    title: 'tag filter, 20 churches of 50k; EXPLAIN of the tag and custom-field filters',
    http: true,
    run: scenario7,
  },
  4: { title: 'bulk create of 500 members', http: true, run: scenario4 },
  5: { title: 'webhook deliveries', http: false, run: scenario5 },
  8: { title: 'POST /v1/donations with an Idempotency-Key', http: true, run: scenario8 },
  9: { title: "a fund's donations since a date, 1,000,000 donations; EXPLAIN", http: true, run: scenario9 },
  10: { title: '1,000 year-end statements (PDF) through the worker', http: true, run: scenario10 },
  11: { title: 'Sunday-morning kiosk burst: search by phone, check in a household', http: true, run: scenario11 },
  12: { title: 'POST /v1/attendance/bulk with 500 records', http: true, run: scenario12 },
  13: { title: "a 500-member group's roster", http: true, run: scenario13 },
  14: { title: 'giving report by month, 1,000,000 donations', http: true, run: scenario14 },
  15: { title: 'attendance report by week, a year of a 50k church', http: true, run: scenario15 },
  16: { title: 'a notification to 10,000 members by e-mail and push through the worker', http: true, run: scenario16 },
  17: { title: 'member writes with and without the change-log triggers', http: true, run: scenario17 },
  18: {
    title: 'following the changes feed of 1,000,000 changes from the start; EXPLAIN of its page',
    http: true,
    run: scenario18,
  },
};
// 18 before 17: 17's writes then meet the change log as large as 18 leaves it, in every invocation.
const ORDER = [
  '1',
  '19',
  '2',
  '6',
  '3',
  '7',
  '4',
  '8',
  '9',
  '10',
  '11',
  '12',
  '13',
  '14',
  '15',
  '16',
  '18',
  '17',
  '5',
  '20',
];

const USAGE = `usage: npm run bench [-- [scenario …] [--reseed] [--no-build] [--seed-only]]
  scenarios: ${ORDER.map((id) => `${id} (${SCENARIOS[id].title})`).join(', ')}
  env: BENCH_DURATION (s, 10), BENCH_WARMUP (s, 5), BENCH_RUNS (3), BENCH_POOL_SIZE (16), BENCH_DB (church_bench),
       BENCH_PG_ADMIN_URL, BENCH_REDIS_URL, BENCH_LOADER (wrk|autocannon|node), BENCH_CPU_PROF=1, BENCH_STRICT=1`;

function parseArgs(argv) {
  const ids = [];
  const flags = new Set();
  for (const arg of argv) {
    if (arg.startsWith('--')) flags.add(arg.slice(2));
    else ids.push(...arg.split(',').filter(Boolean));
  }
  for (const id of ids) if (!SCENARIOS[id]) throw new Error(`unknown scenario ${id}\n${USAGE}`);
  // Scenario 20 seeds 10,000,000 members (~30 min the first time): only when asked for.
  const every = ORDER.filter((id) => !SCENARIOS[id].optIn);
  return { ids: ids.length ? ORDER.filter((id) => ids.includes(id)) : every, all: ids.length === 0, flags };
}

async function preflight() {
  const { Client } = requireFromRepo('pg');
  const c = new Client({ connectionString: config.adminUrl });
  try {
    await c.connect();
    await c.end();
  } catch (error) {
    throw new Error(`PostgreSQL is not reachable at ${config.adminUrl} (${error.message}); set BENCH_PG_ADMIN_URL`, {
      cause: error,
    });
  }
  const Redis = requireFromRepo('ioredis');
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(`Redis is not reachable at ${config.redisUrl} (${error.message}); set BENCH_REDIS_URL`, {
      cause: error,
    });
  } finally {
    redis.disconnect();
  }
}

async function build(flags) {
  if (process.env.BENCH_DIST || flags.has('no-build')) {
    log(`using the existing build in ${DIST_DIR}`);
    return;
  }
  const started = Date.now();
  // Its own output directory: a concurrent `nest build` (deleteOutDir) cannot pull dist/ from under the bench.
  await run(nodeBin(), [
    join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
    '-p',
    join('bench', 'tsconfig.build.json'),
  ]);
  // The page assets nest-cli.json copies (templates and style sheet), as `nest build` does.
  cpSync(join(REPO_ROOT, 'src', 'platform', 'views'), join(DIST_DIR, 'platform', 'views'), {
    recursive: true,
    filter: (src) => !src.endsWith('.ts'),
  });
  log(`built the API into ${DIST_DIR} (${Date.now() - started} ms)`);
}

async function main() {
  const { ids, all, flags } = parseArgs(process.argv.slice(2));
  if (flags.has('help')) {
    console.log(USAGE);
    return;
  }
  const startedAt = new Date().toISOString();
  const settings = {
    duration: config.duration,
    warmup: config.warmup,
    runs: config.runs,
    pool_size: config.poolSize,
    loader: loaderName(),
    members: config.members,
    big_members: config.bigMembers,
    churches: config.churches,
    webhooks: config.webhooks,
  };
  log(
    `scenarios ${ids.join(', ')}; ${settings.loader}, ${settings.duration} s × ${settings.runs} runs after ${settings.warmup} s warm-up`,
  );
  await preflight();
  await build(flags);
  // Scenario 20 seeds its own databases; church_bench only when another scenario runs.
  const fixtures = ids.some((id) => SCENARIOS[id].main !== false)
    ? await ensureSeeded({ force: flags.has('reseed') })
    : null;
  for (const id of ids) if (SCENARIOS[id].seed) await SCENARIOS[id].seed({ force: flags.has('reseed') });
  if (flags.has('seed-only')) {
    log('seeded; --seed-only: nothing measured');
    return;
  }
  const rows = [];
  const failures = [];

  const httpIds = ids.filter((id) => SCENARIOS[id].http);
  if (httpIds.length) {
    const ctx = { fixtures };
    try {
      ctx.api = await startApi();
      ctx.baseline = await startBaseline();
      log(`API pid ${ctx.api.pid} on :${ctx.api.port}, baseline pid ${ctx.baseline.pid} on :${ctx.baseline.port}`);
      for (const id of httpIds) {
        log(`scenario ${id}: ${SCENARIOS[id].title}`);
        try {
          rows.push(...(await SCENARIOS[id].run(ctx)));
        } catch (error) {
          log(`scenario ${id} failed: ${error.stack ?? error}`);
          failures.push({ id, error: String(error.message ?? error) });
          rows.push({
            id,
            title: `${SCENARIOS[id].title}: did not run (${String(error.message ?? error).split('\n')[0]})`,
            metric: 'error',
            project: null,
            baseline: null,
            ratio: null,
            target: null,
            pass: false,
          });
        }
      }
    } finally {
      for (const proc of [ctx.api, ctx.baseline]) {
        if (!proc) continue;
        await proc.stop();
        writeServerLog(proc);
      }
    }
  }
  for (const id of ids.filter((x) => !SCENARIOS[x].http)) {
    log(`scenario ${id}: ${SCENARIOS[id].title}`);
    try {
      rows.push(...(await SCENARIOS[id].run({ fixtures })));
    } catch (error) {
      log(`scenario ${id} failed: ${error.stack ?? error}`);
      failures.push({ id, error: String(error.message ?? error) });
      rows.push({
        id,
        title: `${SCENARIOS[id].title}: did not run (${String(error.message ?? error).split('\n')[0]})`,
        metric: 'error',
        project: null,
        baseline: null,
        ratio: null,
        target: null,
        pass: false,
      });
    }
  }

  const result = {
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    machine: machine(),
    settings,
    scenarios: ids,
    rows,
    series: allSeries(),
    failures,
  };
  const file = writeLatest(result);
  console.log(`\n${machineLine(result.machine, settings)}\n`);
  console.log(table(rows));
  console.log(`\n${seriesTable(result.series)}\n`);
  log(`results written to ${file}`);
  if (all && config.updateReadme && failures.length === 0) {
    const written = updateReadme(result);
    if (written.length) log(`table written into ${written.join(' and ')}`);
  }
  const failed = rows.filter((r) => r.pass === false).length;
  log(`${rows.filter((r) => r.pass === true).length} targets met, ${failed} missed`);
  if (process.env.BENCH_STRICT === '1' && failed) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error.message ?? error);
  process.exitCode = 1;
});
