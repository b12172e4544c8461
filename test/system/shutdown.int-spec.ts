import { randomBytes } from 'node:crypto';
import { INestApplicationContext, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Queue } from 'bullmq';
import { Client } from 'pg';
import { loadConfig } from '../../src/config/app-config';
import { Database } from '../../src/database/database.service';
import { QueueWorkers } from '../../src/platform/jobs/queue-workers';
import { DELIVERY_QUEUE } from '../../src/platform/outbox/delivery/delivery-queue';
import { DeliverySweeper } from '../../src/platform/outbox/delivery/delivery-sweeper';
import { InProcessDeliveries } from '../../src/platform/outbox/delivery/in-process-deliveries';
import { TestApi } from '../support/api';
import { newTenant } from '../support/factories';
import { TestReceiver } from '../support/receiver';
import { TcpProxy } from '../support/tcp-proxy';
import { TEST_REDIS_URL } from '../support/test-env';
import { WorkerModule } from '../../src/worker.module';
import { sleep, waitFor } from '../support/wait';

/**
 * Closing the app while background work is inside a query: the work finishes before the database
 * closes. A second connection holds an ACCESS EXCLUSIVE lock on webhook_deliveries so that the
 * work is provably mid-query when close() starts; the lock is released a moment later.
 */

describe('shutdown waits for background work in flight', () => {
  let locker: Client;
  let warn: jest.SpiedFunction<Logger['warn']>;

  beforeEach(async () => {
    locker = new Client({ connectionString: process.env.DATABASE_URL });
    await locker.connect();
    warn = jest.spyOn(Logger.prototype, 'warn');
  });

  afterEach(async () => {
    warn.mockRestore();
    await locker.query('ROLLBACK').catch(() => undefined);
    await locker.end();
  });

  async function lockDeliveries(): Promise<void> {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE webhook_deliveries IN ACCESS EXCLUSIVE MODE');
  }

  /** Resolves once another backend waits for the lock on webhook_deliveries. */
  async function someoneWaits(): Promise<void> {
    await waitFor(
      async () => {
        const { rows } = await locker.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
          WHERE NOT l.granted AND c.relname = 'webhook_deliveries' AND l.pid <> pg_backend_pid()`,
        );
        return rows[0].n > 0;
      },
      { what: 'a query to wait for webhook_deliveries', timeout: 5_000, interval: 25 },
    );
  }

  /** The worker process's module graph, in this process (REDIS_URL and QUEUE_PREFIX from the env). */
  async function startWorker(): Promise<INestApplicationContext> {
    const worker = await NestFactory.createApplicationContext(WorkerModule.forRoot(loadConfig()), {
      logger: ['error'],
    });
    await worker.get(Database).connect();
    return worker;
  }

  /** Starts close(), releases the lock 300 ms later, and reports whether close() waited for it. */
  async function closeWhileLocked(app: { close(): Promise<void> }): Promise<{ closedBeforeRelease: boolean }> {
    let released = false;
    let closedBeforeRelease = false;
    const closing = app.close().then(() => (closedBeforeRelease = !released));
    await sleep(300);
    released = true;
    await locker.query('COMMIT');
    await closing;
    return { closedBeforeRelease };
  }

  const warnings = () => warn.mock.calls.map((args) => String(args[0]));

  it('the API process (no Redis): the running outbox poll finishes before the database closes', async () => {
    delete process.env.REDIS_URL;
    const api = await TestApi.start();
    await lockDeliveries();
    api.app.get(InProcessDeliveries).kick();
    await someoneWaits();

    const { closedBeforeRelease } = await closeWhileLocked(api);

    expect(closedBeforeRelease).toBe(false);
    expect(warnings().filter((w) => w.includes('in-process deliveries'))).toEqual([]);
  });

  it('the worker: a running sweep finishes before the database closes', async () => {
    Object.assign(process.env, { REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: `shut-${randomBytes(3).toString('hex')}` });
    const worker = await startWorker();
    await lockDeliveries();
    const sweep = worker.get(DeliverySweeper).sweep();
    await someoneWaits();

    const { closedBeforeRelease } = await closeWhileLocked(worker);

    expect(closedBeforeRelease).toBe(false);
    await expect(sweep).resolves.toBe(0);
    expect(warnings().filter((w) => w.includes('sweep failed'))).toEqual([]);
  });

  it('the worker: an active delivery job finishes, records its attempt and enqueues its retry before the queue and database close', async () => {
    const receiver = await TestReceiver.start();
    receiver.answer('/shutdown', { status: 500 });
    const prefix = `shut-${randomBytes(3).toString('hex')}`;
    const api = await TestApi.start({
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: prefix,
      WEBHOOK_ALLOW_LOOPBACK: 'true',
    });
    const queue = new Queue(DELIVERY_QUEUE, { connection: { url: TEST_REDIS_URL }, prefix });
    try {
      const church = await newTenant(api);
      const endpoint = await api.post('/v1/webhook-endpoints', {
        token: church.token,
        tenant: church.slug,
        body: { url: receiver.url('/shutdown'), events: ['member.created'] },
      });
      expect(endpoint.status).toBe(201);
      const member = await api.post('/v1/members', {
        token: church.token,
        tenant: church.slug,
        body: { first_name: 'Ada', last_name: 'Shutdown' },
      });
      expect(member.status).toBe(201);

      const worker = await startWorker();
      await lockDeliveries();
      worker.get(QueueWorkers).start();
      await someoneWaits();

      const { closedBeforeRelease } = await closeWhileLocked(worker);

      expect(closedBeforeRelease).toBe(false);
      expect(receiver.at('/shutdown')).toHaveLength(1);
      const { rows } = await locker.query<{ id: string; status: string; attempts: number }>(
        `SELECT id, status, attempts FROM webhook_deliveries WHERE tenant_id = $1`,
        [church.id],
      );
      expect(rows).toEqual([{ id: expect.any(String), status: 'pending', attempts: 1 }]);
      const retry = await queue.getJob(`${rows[0].id}-1`);
      expect(await retry?.getState()).toBe('delayed');
      expect(warnings().filter((w) => w.includes('errored') || w.includes('connection'))).toEqual([]);
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
      await api.close();
      await receiver.close();
    }
  });
  it('the API whose Redis went away closes without leaving a reconnecting client behind (it would keep the process alive)', async () => {
    const proxy = await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL(TEST_REDIS_URL).port || 6379) });
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const api = await TestApi.start({
      REDIS_URL: proxy.url(TEST_REDIS_URL),
      QUEUE_PREFIX: `shut-${randomBytes(3).toString('hex')}`,
    });
    try {
      const church = await newTenant(api);
      expect(
        (
          await api.post('/v1/members', {
            token: church.token,
            tenant: church.slug,
            body: { first_name: 'Ada', last_name: 'Redis' },
          })
        ).status,
      ).toBe(201);
      proxy.refuse();
      proxy.cut('reset');
      await sleep(300); // the queues' clients see the loss and schedule their reconnection
    } finally {
      await api.close();
      proxy.close();
      consoleError.mockRestore();
    }
    // The lost connection was reported through the logger, not printed by BullMQ (console.error could land after a test file ends).
    expect(consoleError).not.toHaveBeenCalled();
    expect(warnings().some((w) => w.startsWith("queue '") && w.includes('connection'))).toBe(true);
    // ioredis arms a 2 s timer to destroy a closing socket; a reconnecting client would re-arm its reconnect timer for ever.
    const deadline = Date.now() + 3_000;
    while (timers() > before && Date.now() < deadline) await sleep(100);
    expect(timers()).toBeLessThanOrEqual(before);
  });
});
