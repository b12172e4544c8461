// `npm test`: the suite as two jest processes at once, each in band (one file at a time), on the
// two halves below; each prints its lines prefixed with its name, and the run fails if either
// half does. Each half is its own jest run: its own PostgreSQL server (private-postgres.mjs; the
// machine's, TEST_ADMIN_DATABASE_URL, where no server binaries are found), database and Redis key
// prefix (QUEUE_PREFIX, test/support/global-setup.ts). Only the second half runs the `cluster`
// project (the loopback Redis Cluster of .ci/redis-cluster.sh).
// With arguments (`npm test -- <file> --selectProjects system`), one jest process runs them as given.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { postgresBin, startPrivatePostgres } from './private-postgres.mjs';

const JEST = fileURLToPath(new URL('../../node_modules/jest/bin/jest.js', import.meta.url));
const NODE_OPTIONS = ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning'];

/**
 * System files run by the first half, to even the halves out: in a CI run (2 cores, loaded) each
 * half took about 17 min; these two took 187 s and 162 s of the first, cli.int-spec.ts 272 s of the second.
 */
const MOVED = ['console', 'hostile-input'];
// jest tries a pattern on the path relative to the root and on the absolute path: a negative one must fail both.
const moved = `(.*/)?test/system/(${MOVED.join('|')})\\.int-spec\\.ts$`;

/** `--selectProjects` last: global-setup.ts reads the names after it. */
const HALVES = [
  {
    name: 'unit+api',
    // every file of the projects, but the system files not moved here
    args: [`^(?!(.*/)?test/system/(?!(${MOVED.join('|')})\\.))`, '--selectProjects', 'unit', 'api', 'system'],
  },
  { name: 'system+cluster', args: [`^(?!${moved})`, '--selectProjects', 'system', 'cluster'] },
];

/** Heap per process: the two halves' modules, with room, on the 24 GB CI machine. */
const HEAP_MB = 6144;

const extra = process.argv.slice(2);
const runs = extra.length > 0 ? [{ name: '', args: extra }] : HALVES;

const spawned = [];
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    for (const child of spawned) child.kill(signal);
  });

function run({ name, args }, env = process.env) {
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [`--max-old-space-size=${HEAP_MB}`, ...NODE_OPTIONS, JEST, '--runInBand', ...args],
    { stdio: name ? ['ignore', 'pipe', 'pipe'] : 'inherit', env },
  );
  spawned.push(child);
  if (name) {
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ])
      createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) => to.write(`[${name}] ${line}\n`));
  }
  return new Promise((done) => {
    child.on('close', (code, signal) =>
      done({ name, code: code ?? 1, signal, seconds: (Date.now() - started) / 1000 }),
    );
  });
}

const bin = runs.length > 1 ? postgresBin() : null;
if (runs.length > 1 && !bin)
  console.warn(
    'no PostgreSQL server binaries (PG_BIN): both halves use TEST_ADMIN_DATABASE_URL, and the changes feed tests may fail',
  );
const servers = bin ? await Promise.all(runs.map(() => startPrivatePostgres(bin))) : [];
let results;
try {
  results = await Promise.all(
    runs.map((half, i) =>
      run(half, servers[i] ? { ...process.env, TEST_ADMIN_DATABASE_URL: servers[i].url } : process.env),
    ),
  );
} finally {
  for (const server of servers) server.stop();
}
if (runs.length > 1)
  for (const { name, code, signal, seconds } of results)
    console.log(
      `${name}: ${code === 0 ? 'passed' : `failed (${signal ?? `exit ${code}`})`} in ${seconds.toFixed(0)} s`,
    );
process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
