// Starts and stops the servers under test, each in its own process: the API (production build,
// `node dist/main.js`), the baseline (bench/baseline/server.mjs) and the webhook worker.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BENCH_DIR,
  config,
  cpuDelta,
  DIST_DIR,
  log,
  median,
  nodeBin,
  REPO_ROOT,
  requireFromRepo,
  RESULTS_DIR,
  sleep,
} from './util.mjs';

const { Client } = requireFromRepo('pg');

/** The environment of the API and the worker: production, the bench database, Redis, quiet logs. */
export function appEnv(extra = {}) {
  return {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: config.databaseUrl,
    REDIS_URL: config.redisUrl,
    QUEUE_PREFIX: 'bench',
    LOG_LEVEL: 'warn',
    DB_POOL_SIZE: String(config.poolSize),
    DB_MIGRATE_ON_START: 'false',
    ENCRYPTION_KEY: config.encryptionKey,
    // No metrics nor traces unless a scenario asks (19 measures what they cost).
    METRICS_TOKEN: '',
    OTEL_EXPORTER_OTLP_ENDPOINT: '',
    ...extra,
  };
}

class ServerProcess {
  constructor(name, child, port, appName) {
    this.name = name;
    this.child = child;
    this.port = port;
    this.appName = appName;
    /** The database it was started on (scenario 20 runs servers on several). */
    this.databaseUrl = config.databaseUrl;
    this.output = '';
    this.exited = null;
    child.stdout?.on('data', (d) => this.capture(d));
    child.stderr?.on('data', (d) => this.capture(d));
    child.on('exit', (code, signal) => (this.exited = { code, signal }));
  }

  get pid() {
    return this.child.pid;
  }

  capture(data) {
    this.output = (this.output + data).slice(-20_000);
  }

  url(path = '') {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** PostgreSQL backends of this server's pool (by application_name), for the DB CPU per request. */
  async backendPids() {
    if (!this.appName) return [];
    const c = new Client({ connectionString: this.databaseUrl, application_name: 'church-bench-probe' });
    await c.connect();
    try {
      return (
        await c.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()', [
          this.appName,
        ])
      ).rows.map((r) => r.pid);
    } finally {
      await c.end();
    }
  }

  async stop() {
    if (this.exited) return;
    const done = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await done;
    clearTimeout(timer);
  }
}

async function waitForHttp(proc, path, { timeoutMs = 60_000, ok = (s) => s < 500 } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exited)
      throw new Error(`${proc.name} exited (${JSON.stringify(proc.exited)}) before it was ready:\n${proc.output}`);
    try {
      const res = await fetch(proc.url(path));
      await res.arrayBuffer();
      if (ok(res.status)) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`${proc.name} not ready after ${timeoutMs} ms:\n${proc.output}`);
}

/** `--cpu-prof` arguments; profiles land in bench/results/profiles when the process stops. */
function profileArgs() {
  const dir = join(RESULTS_DIR, 'profiles');
  mkdirSync(dir, { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${dir}`];
}

/** `env`: more variables (scenario 19 turns metrics and tracing on); `name`: its log file's, `api` by default. */
export async function startApi({ cpuProf = config.cpuProf, port = config.apiPort, env = {}, name = 'api' } = {}) {
  const args = cpuProf ? profileArgs() : [];
  args.push(join(DIST_DIR, 'main.js'));
  const child = spawn(nodeBin(), args, {
    cwd: REPO_ROOT,
    env: appEnv({ PORT: String(port), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc = new ServerProcess(name, child, port, 'church-api');
  await waitForHttp(proc, '/v1/openapi.json');
  return proc;
}

export async function startBaseline({ port = config.baselinePort } = {}) {
  const child = spawn(
    nodeBin(),
    [...(process.env.BENCH_CPU_PROF_BASELINE === '1' ? profileArgs() : []), join(BENCH_DIR, 'baseline', 'server.mjs')],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: config.databaseUrl,
        DB_POOL_SIZE: String(config.poolSize),
        ENCRYPTION_KEY: config.encryptionKey,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const proc = new ServerProcess('baseline', child, port, 'church-bench-baseline');
  await waitForHttp(proc, '/healthz', { ok: (s) => s === 200 });
  return proc;
}

/** `node dist/worker.js` with loopback deliveries allowed and a fast retry schedule. */
export async function startWorker(extra = {}, { cpuProf = config.cpuProf } = {}) {
  const args = cpuProf ? profileArgs() : [];
  const child = spawn(nodeBin(), [...args, join(DIST_DIR, 'worker.js')], {
    cwd: REPO_ROOT,
    env: appEnv({ WEBHOOK_ALLOW_LOOPBACK: 'true', ...extra }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc = new ServerProcess('worker', child, 0, 'church-api');
  const deadline = Date.now() + 60_000;
  while (!/worker started/.test(proc.output)) {
    if (proc.exited) throw new Error(`worker exited (${JSON.stringify(proc.exited)}):\n${proc.output}`);
    if (Date.now() > deadline) throw new Error(`worker not started after 60 s:\n${proc.output}`);
    await sleep(100);
  }
  return proc;
}

/** A process running one of the bench's own scripts (no-op worker, receiver). */
export function startScript(name, script, env = {}) {
  const child = spawn(nodeBin(), [join(BENCH_DIR, script)], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  return new ServerProcess(name, child, 0, null);
}

export function writeServerLog(proc) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, `${proc.name}.log`), proc.output);
}

/** Sends `message` (if any) to a script started by startScript and resolves with the first reply `pick` accepts; rejects if the script exits. */
export function ask(proc, message, pick) {
  return new Promise((resolveAsk, reject) => {
    const onMessage = (m) => {
      const v = pick(m);
      if (v === undefined) return;
      proc.child.off('message', onMessage);
      proc.child.off('exit', onExit);
      resolveAsk(v);
    };
    const onExit = () => reject(new Error(`${proc.name} exited:\n${proc.output}`));
    proc.child.on('message', onMessage);
    proc.child.on('exit', onExit);
    if (message) proc.child.send(message);
  });
}

/** A run's record with its rate and CPU per unit of work (`unit`: the record's count field, e.g. statements). */
export function perUnit(unit, record, before, after) {
  const n = Math.max(1, record[unit]);
  return {
    ...record,
    rps: record[unit] / record.seconds,
    cpu_us_per_req: cpuDelta(before.proc, after.proc) / n,
    db_us_per_req: cpuDelta(before.db, after.db) / n,
    redis_us_per_req: cpuDelta(before.redis, after.redis) / n,
  };
}

const PER_UNIT_METRICS = ['rps', 'seconds', 'cpu_us_per_req', 'db_us_per_req', 'redis_us_per_req'];

/** The medians of perUnit records of several runs, with the count of `unit` (the same each run) and each run's figures. */
export function summarize(unit, runs) {
  return {
    ...Object.fromEntries(PER_UNIT_METRICS.map((m) => [m, median(runs.map((r) => r[m]))])),
    [unit]: runs[0][unit],
    runs: runs.length,
    each: runs.map((r) => Object.fromEntries(PER_UNIT_METRICS.map((m) => [m, r[m]]))),
  };
}

export { log };
