import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { startBackground } from '../../src/background';
import { loadConfig } from '../../src/config/app-config';
import { Database } from '../../src/database/database.service';
import { WorkerModule } from '../../src/worker.module';
import type { Client } from 'pg';
import { waitFor } from './wait';

/** The worker process as src/worker.ts starts it (BullMQ consumers with REDIS_URL), configured by `env` on top of the test environment, in this process. */
export async function startWorker(env: Record<string, string> = {}): Promise<INestApplicationContext> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const worker = await NestFactory.createApplicationContext(WorkerModule.forRoot(loadConfig()), {
      logger: ['error'],
    });
    await worker.get(Database).connect();
    startBackground(worker, 'worker');
    return worker;
  } finally {
    process.env = saved;
  }
}

/**
 * Shuts `worker` down while its job waits on a lock that `blocker` holds, in a query matching
 * `query` (a LIKE pattern), and cuts that query's connection; then `blocker` lets the lock go. What
 * a crash mid-job leaves behind, for a resume test.
 */
export async function stopWorkerMidQuery(
  db: Database,
  worker: INestApplicationContext,
  blocker: Client,
  query: string,
): Promise<void> {
  const closing = worker.close();
  const waiting = await waitFor(
    async () =>
      (
        await db.platform.query<{ pid: number }[]>(
          `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`,
          [query],
        )
      )[0],
    { what: `a query like ${query} waiting on a lock`, timeout: 20_000 },
  );
  expect(waiting).toBeDefined();
  await db.platform.query('SELECT pg_terminate_backend($1)', [waiting.pid]);
  await closing;
  await blocker.query('ROLLBACK');
}
