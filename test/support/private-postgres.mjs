// A throwaway PostgreSQL server for one jest run of `npm test` (run-parallel.mjs): initdb in a
// temporary directory, started on a free loopback port, removed at the end. Two runs on one server
// are not independent: transaction ids, and so the changes feed's watermark (the oldest
// transaction running, pg_snapshot_xmin), belong to the server, not to a database, and a
// transaction of the other run would hold back or widen this run's feed pages. So would anything
// else using the machine's server meanwhile (and the two runs would share its max_connections).
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The server binaries: PG_BIN, else the newest /usr/lib/postgresql/<version>/bin (Debian, Ubuntu); null without. */
export function postgresBin() {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(base, versions[0], 'bin') : null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a server like CI's (trust on loopback, UTC, C.UTF-8, english text search, no autovacuum;
 * no fsync: the data is thrown away). As root, it runs as the `postgres` user (initdb refuses root).
 * Resolves with its admin URL and `stop()`.
 */
export async function startPrivatePostgres(bin) {
  const dir = mkdtempSync(join(tmpdir(), 'church-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  const run = (tool, args) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, tool), args, { stdio: 'pipe' });
  run('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
    '-T',
    'english',
    '-N',
  ]);
  const settings = `-c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off -c TimeZone=Etc/UTC -c autovacuum=off`;
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '60', '-o', `-p ${port} ${settings}`, 'start']);
    } catch (error) {
      if (attempt < 3) continue; // the port was taken meanwhile
      throw error;
    }
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      stop() {
        try {
          run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  }
}
