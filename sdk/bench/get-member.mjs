#!/usr/bin/env node
// `npm run sdk:bench`: what the SDK adds to a request on the client, against the raw fetch it wraps.
//
// One run: a fresh database (BENCH_SDK_DB, default church_sdk_bench), the built API (`node dist/main.js`)
// on a free port, one church with one member; then SDK_BENCH_REQUESTS (10,000) sequential GETs of that
// member with `client.members.get(id)` and as many with `fetch` + `res.json()`, in alternating blocks
// of 250 (so that a drift of the machine or the server weighs on both alike), after 500 warm-up calls
// each. Per request: the wall time the caller waits and the CPU time of this (the client's) process; the
// ratios compare the median blocks (a block slowed down by another process weighs no more than one).
// Needs `nest build` and the SDK's build (the npm script does both) and PostgreSQL on 127.0.0.1:5432.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SDK_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO_ROOT = resolve(SDK_DIR, '..');
const { Client } = createRequire(join(REPO_ROOT, 'package.json'))('pg');

const REQUESTS = Number(process.env.SDK_BENCH_REQUESTS ?? 10_000);
const BLOCK = 250;
const WARMUP = 500;
const ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = process.env.BENCH_SDK_DB ?? 'church_sdk_bench';
const TARGET = 1.1;

const log = (...parts) => console.error(`[sdk-bench ${new Date().toISOString().slice(11, 19)}]`, ...parts);

function databaseUrl(name) {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin(sql) {
  const c = new Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

function freePort() {
  return new Promise((done, fail) => {
    const srv = createServer();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => done(port));
    });
  });
}

const env = () => ({
  ...process.env,
  NODE_ENV: 'production',
  DATABASE_URL: databaseUrl(DB),
  REDIS_URL: '',
  LOG_LEVEL: 'warn',
  DB_MIGRATE_ON_START: 'false',
  ENCRYPTION_KEY: 'c2RrLWJlbmNoLW9ubHktZW5jcnlwdGlvbi1rZXktMzI=',
});

function cli(...args) {
  const run = spawnSync(process.execPath, [join(REPO_ROOT, 'dist', 'cli.js'), ...args], {
    cwd: REPO_ROOT,
    env: env(),
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`cli ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return run.stdout.trim();
}

async function startApi(port) {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'dist', 'main.js')], {
    cwd: REPO_ROOT,
    env: { ...env(), PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  for (let i = 0; i < 120; i++) {
    if (child.exitCode !== null) throw new Error(`the API exited: ${stderr}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      await res.arrayBuffer();
      if (res.ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`the API did not answer /healthz: ${stderr}`);
}

/** Runs `n` sequential calls; the wall time of each (µs) and the client CPU time of them all (µs). */
async function block(n, call) {
  const walls = new Array(n);
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await call();
    walls[i] = (performance.now() - t0) * 1000;
  }
  const cpu = process.cpuUsage(cpu0);
  return { walls, cpu: cpu.user + cpu.system };
}

const median = (values) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main() {
  const { ChurchClient } = await import(pathToFileURL(join(SDK_DIR, 'dist', 'index.js')).href);
  log(`database ${DB}: fresh, migrated`);
  await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${DB}`);
  cli('migration:run');
  cli('tenant:create', '--slug', 'bench', '--name', 'SDK Bench', '--plan', 'enterprise');
  const until = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  cli(
    'tenant:quota',
    '--slug',
    'bench',
    '--rpm',
    '10000000',
    '--per-day',
    '100000000',
    '--burst',
    '10000000',
    '--until',
    until,
  );
  cli('user:create', '--tenant', 'bench', '--email', 'bench@example.org', '--role', 'org_admin');
  const token = cli(
    'token:issue',
    '--tenant',
    'bench',
    '--user',
    'bench@example.org',
    '--type',
    'service',
    '--name',
    'bench',
    '--scopes',
    'read:members,write:members',
  );
  const port = await freePort();
  const api = await startApi(port);
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    const client = new ChurchClient({ token, tenant: 'bench', baseUrl, language: 'en' });
    const member = await client.members.create({ first_name: 'Bench', last_name: 'Mark', email: 'bench@example.org' });
    const url = `${baseUrl}/v1/members/${member.id}`;
    const headers = {
      Authorization: `Bearer ${token}`,
      'X-Tenant': 'bench',
      Accept: 'application/json',
      'Accept-Language': 'en',
    };
    const impl = {
      sdk: () => client.members.get(member.id),
      fetch: async () => {
        const res = await fetch(url, { headers });
        if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
        return res.json();
      },
    };
    log(`warm-up: ${WARMUP} GETs each`);
    await block(WARMUP, impl.sdk);
    await block(WARMUP, impl.fetch);
    const results = { sdk: { walls: [], blocks: [] }, fetch: { walls: [], blocks: [] } };
    log(`${REQUESTS} GETs of one member with each, alternating blocks of ${BLOCK}`);
    for (let done = 0, i = 0; done < REQUESTS; done += BLOCK, i++) {
      const n = Math.min(BLOCK, REQUESTS - done);
      for (const name of i % 2 === 0 ? ['sdk', 'fetch'] : ['fetch', 'sdk']) {
        const r = await block(n, impl[name]);
        results[name].walls.push(...r.walls);
        results[name].blocks.push({ wall: r.walls.reduce((a, b) => a + b, 0) / n, cpu: r.cpu / n });
      }
    }
    const summary = {};
    for (const [name, r] of Object.entries(results)) {
      const sorted = [...r.walls].sort((a, b) => a - b);
      const total = r.walls.reduce((a, b) => a + b, 0);
      summary[name] = {
        requests: r.walls.length,
        wallMean: total / r.walls.length,
        p50: quantile(sorted, 0.5),
        p99: quantile(sorted, 0.99),
        // The median block: a block that another process on the machine slowed down weighs no more than one.
        blockWall: median(r.blocks.map((b) => b.wall)),
        cpu: median(r.blocks.map((b) => b.cpu)),
      };
    }
    const wallRatio = summary.sdk.blockWall / summary.fetch.blockWall;
    const cpuRatio = summary.sdk.cpu / summary.fetch.cpu;
    console.log(
      `\nSDK vs raw fetch: GET /v1/members/{id}, ${fmt(REQUESTS)} sequential requests each, same run (Node ${process.versions.node})\n`,
    );
    console.log(
      '| client | requests | wall µs / request: mean | median block | p50 | p99 | client CPU µs / request (median block) |',
    );
    console.log('|---|---|---|---|---|---|---|');
    for (const [name, s] of Object.entries(summary))
      console.log(
        `| ${name === 'sdk' ? 'SDK `client.members.get`' : 'raw `fetch` + `json()`'} | ${fmt(s.requests)} | ${fmt(s.wallMean)} | ${fmt(s.blockWall)} | ${fmt(s.p50)} | ${fmt(s.p99)} | ${fmt(s.cpu, 1)} |`,
      );
    const verdict = (ratio) => (ratio < TARGET ? 'pass' : 'FAIL');
    console.log(
      `\nSDK / fetch (median blocks): wall ${fmt(wallRatio * 100, 1)}% (${verdict(wallRatio)}), ` +
        `client CPU ${fmt(cpuRatio * 100, 1)}% (${verdict(cpuRatio)}); target: the SDK adds < 10%`,
    );
    if (process.env.BENCH_STRICT === '1' && (wallRatio >= TARGET || cpuRatio >= TARGET)) process.exitCode = 1;
  } finally {
    api.kill('SIGTERM');
    await new Promise((r) => api.once('exit', r));
    await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
