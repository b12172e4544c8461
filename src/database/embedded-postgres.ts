import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * PGlite (PostgreSQL compiled to WASM) persisted under `dataDir`, served on a loopback port so that
 * the ordinary `pg` driver and TypeORM talk to it. The socket server queues statements per
 * connection and keeps a transaction's statements together, so transactions never interleave.
 *
 * PGlite's files may be opened by one process only: the process that opens them publishes its
 * address beside the data directory, and a second process (the CLI while `npm start` runs)
 * connects to that address instead of opening the files again.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const addressFile = join(dirname(dataDir), `${basename(dataDir)}.address.json`);
  const running = readRunning(addressFile);
  if (running) return { url: running, stop: () => Promise.resolve() };

  mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create({ dataDir });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 8 });
  await server.start();
  const url = `postgres://postgres@${server.getServerConn()}/postgres`;
  writeFileSync(addressFile, JSON.stringify({ url, pid: process.pid }));
  return {
    url,
    async stop() {
      if (isOwnAddress(addressFile, url)) rmSync(addressFile, { force: true });
      await server.stop();
      await db.close();
    },
  };
}

function basename(path: string): string {
  return path.replace(/\/+$/, '').split('/').pop() ?? 'pglite';
}

function isOwnAddress(addressFile: string, url: string): boolean {
  try {
    const entry = JSON.parse(readFileSync(addressFile, 'utf8')) as { url: string; pid: number };
    return entry.url === url && entry.pid === process.pid;
  } catch {
    return false;
  }
}

function readRunning(addressFile: string): string | null {
  if (!existsSync(addressFile)) return null;
  try {
    const { url, pid } = JSON.parse(readFileSync(addressFile, 'utf8')) as { url: string; pid: number };
    if (pid === process.pid) return null;
    process.kill(pid, 0);
    return url;
  } catch {
    return null;
  }
}
