// Shared helpers of the harness: configuration, paths, child processes, CPU accounting, statistics.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = resolve(BENCH_DIR, '..');
export const RESULTS_DIR = join(BENCH_DIR, 'results');
/** The production build the bench runs: its own copy (a concurrent `nest build` may wipe dist/), or BENCH_DIST. */
export const DIST_DIR = process.env.BENCH_DIST ? resolve(process.env.BENCH_DIST) : join(BENCH_DIR, '.build', 'dist');

/** Packages of the project (pg, bullmq, ioredis), resolved from the repository. */
export const requireFromRepo = createRequire(join(REPO_ROOT, 'package.json'));
/** Modules of the build under test (token format, SecretBox, TypeORM entities). */
export const requireFromDist = (path) => createRequire(join(DIST_DIR, 'main.js'))(join(DIST_DIR, path));

/** Node 24 of the project (node_modules/.bin/node) when the harness was started by an older machine node. */
export function nodeBin() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 24) return process.execPath;
  const pinned = join(REPO_ROOT, 'node_modules', '.bin', 'node');
  return existsSync(pinned) ? pinned : process.execPath;
}

function envNumber(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number (got ${raw})`);
  return n;
}

const adminUrl = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = process.env.BENCH_DB ?? 'church_bench';

export const config = {
  adminUrl,
  dbName,
  databaseUrl: withDatabase(adminUrl, dbName),
  redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  /** Seconds of each measured run (the issue: 10 s). */
  duration: envNumber('BENCH_DURATION', 10),
  /** Seconds of warm-up before the measured runs of a server and request. */
  warmup: envNumber('BENCH_WARMUP', 5),
  runs: Math.max(1, Math.round(envNumber('BENCH_RUNS', 3))),
  poolSize: Math.max(1, Math.round(envNumber('BENCH_POOL_SIZE', 16))),
  /** Members of each of the 20 churches and of the large one. */
  members: Math.round(envNumber('BENCH_MEMBERS', 50_000)),
  bigMembers: Math.round(envNumber('BENCH_BIG_MEMBERS', 250_000)),
  churches: Math.max(1, Math.round(envNumber('BENCH_CHURCHES', 20))),
  /** Donations of the large church (scenario 9) and of each of the 20 churches (scenarios 8 and 10). */
  donations: Math.round(envNumber('BENCH_DONATIONS', 1_000_000)),
  churchDonations: Math.round(envNumber('BENCH_CHURCH_DONATIONS', 40_000)),
  webhooks: Math.max(100, Math.round(envNumber('BENCH_WEBHOOKS', 10_000))),
  /** Load generator: wrk (default when installed), autocannon, or node (bench/lib/node-load.mjs). */
  loader: process.env.BENCH_LOADER ?? '',
  apiPort: envNumber('BENCH_API_PORT', 3390),
  baselinePort: envNumber('BENCH_BASELINE_PORT', 3391),
  /** Write the table into bench/README.md (between the markers) after a full run. */
  updateReadme: process.env.BENCH_UPDATE_README !== '0',
  /** `--cpu-prof` for the API process; profiles land in bench/results/profiles. */
  cpuProf: process.env.BENCH_CPU_PROF === '1',
  encryptionKey: 'YmVuY2gtb25seS1lbmNyeXB0aW9uLWtleS0zMmJ5dGU=',
};

/**
 * Runs `fn` with the harness pointed at another database (config.dbName and databaseUrl: db(), the
 * servers started meanwhile, their backend look-ups), then back. Scenario 20 moves between its
 * databases so; nothing else may run concurrently in the harness.
 */
export async function atDatabase(dbName, fn) {
  const saved = { dbName: config.dbName, databaseUrl: config.databaseUrl };
  config.dbName = dbName;
  config.databaseUrl = withDatabase(config.adminUrl, dbName);
  try {
    return await fn();
  } finally {
    Object.assign(config, saved);
  }
}

export function withDatabase(url, database) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** A probe connection to the bench database for the length of `fn` (its backends are not counted as a server's). */
export async function db(fn) {
  const { Client } = requireFromRepo('pg');
  const c = new Client({ connectionString: config.databaseUrl, application_name: 'church-bench-probe' });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

export function log(...parts) {
  const t = new Date().toISOString().slice(11, 19);
  console.error(`[bench ${t}]`, ...parts);
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function freePort() {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolvePort(port));
    });
  });
}

export function hasCommand(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/** Runs a command to completion; rejects with its output on a non-zero exit. */
export function run(cmd, args, options = {}) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(cmd, args, {
      cwd: REPO_ROOT,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolveRun({ stdout, stderr });
      else reject(new Error(`${cmd} ${args.join(' ')} exited ${code}\n${stdout}\n${stderr}`.trim()));
    });
  });
}

// ---- CPU accounting from /proc ----------------------------------------------------------------

const CLK_TCK = (() => {
  const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const n = Number(r.stdout?.trim());
  return Number.isFinite(n) && n > 0 ? n : 100;
})();

/** utime + stime of one process, in microseconds; null when it is gone. */
export function cpuMicros(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLK_TCK;
  } catch {
    return null;
  }
}

/** CPU of a set of processes between two samples; processes that appear later count from zero. */
export function cpuSample(pids) {
  const out = new Map();
  for (const pid of pids) {
    const us = cpuMicros(pid);
    if (us !== null) out.set(pid, us);
  }
  return out;
}

export function cpuDelta(before, after) {
  let total = 0;
  for (const [pid, us] of after) total += us - (before.get(pid) ?? 0);
  return total;
}

/** Every process whose command name is `name` (e.g. the PostgreSQL backends, redis-server). */
export function pidsByName(name) {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm === name) pids.push(Number(entry));
    } catch {
      // the process ended while listing
    }
  }
  return pids;
}

// ---- statistics --------------------------------------------------------------------------------

export function median(values) {
  const v = values.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return null;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

export function percentile(sorted, p) {
  if (!sorted.length) return null;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

/** The 1-minute load average when the harness started: other work on the machine shows here. */
const LOAD_AT_START = Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

export function machine() {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const model = /model name\s*:\s*(.+)/.exec(cpuinfo)?.[1]?.trim() ?? 'unknown';
  const nproc = spawnSync('nproc', [], { encoding: 'utf8' }).stdout?.trim() ?? '?';
  const memKb = Number(/MemTotal:\s+(\d+)/.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0);
  const nodeVersion = spawnSync(nodeBin(), ['--version'], { encoding: 'utf8' }).stdout?.trim();
  return {
    nproc: Number(nproc),
    cpu: model,
    memory_gb: Math.round(memKb / 1024 / 1024),
    node: nodeVersion,
    kernel: readFileSync('/proc/sys/kernel/osrelease', 'utf8').trim(),
    load_at_start: LOAD_AT_START,
  };
}
