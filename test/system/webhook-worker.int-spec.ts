import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { Queue } from 'bullmq';
import { QUEUES } from '../../src/platform/jobs/queues';
import { BATCH_SIZE, DELIVERY_QUEUE, type DeliveryBatch } from '../../src/platform/outbox/delivery/delivery-queue';
import { verifyWebhook } from '../../src/sdk/verify-webhook';
import { TestApi } from '../support/api';
import { cancelPendingDeliveries, newTenant, newWebhookEndpoint, TestTenant } from '../support/factories';
import { cleanEnv, freePort } from '../support/processes';
import { Child, spawnChild, startWorkerProcess as startWorker } from '../support/worker-process';
import { TestReceiver } from '../support/receiver';
import { sleep, waitFor } from '../support/wait';
import type { WebhookEventResponse } from '../../src/modules/webhook-endpoints/dto/webhook-event.response';
import type { AttemptResponse as Attempt } from '../../src/modules/webhook-endpoints/dto/endpoint.response';

/**
 * The production shape: the API (TestApi, in this process) only writes the outbox and enqueues;
 * the worker (`node dist/worker.js`, its own process) consumes the BullMQ queue and sweeps. Both
 * use a redis-server of this suite's own, so that the fault test can kill and restart it without
 * touching the shared Redis.
 */

/** A delivered event: what the checks read of it. */
type Envelope = WebhookEventResponse & { data: { object: { id: string } } };

const ENCRYPTION_KEY = Buffer.alloc(32, 17).toString('base64');

/** True when a Redis server answers PING on 127.0.0.1:port. */
function redisPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

async function startRedis(port: number): Promise<Child> {
  const redis = spawnChild(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    process.env,
  );
  const deadline = Date.now() + 10_000;
  while (!(await redisPing(port))) {
    if (!redis.running() || Date.now() > deadline) {
      await redis.stop('SIGKILL');
      throw new Error(`redis-server did not start on ${port}:\n${redis.output().slice(-2000)}`);
    }
    await sleep(50);
  }
  return redis;
}

describe('webhook worker process (BullMQ on Redis)', () => {
  let redisPort: number;
  let redis: Child;
  let worker: Child;
  let workerEnv: NodeJS.ProcessEnv;
  let api: TestApi;
  let receiver: TestReceiver;
  const churches: TestTenant[] = [];

  beforeAll(async () => {
    receiver = await TestReceiver.start();
    redisPort = await freePort();
    redis = await startRedis(redisPort);
    const env = {
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      QUEUE_PREFIX: `whw-${Date.now()}-${randomBytes(3).toString('hex')}`,
      ENCRYPTION_KEY,
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      WEBHOOK_TIMEOUT_MS: '3000',
      WEBHOOK_RETRY_SCHEDULE: '1s,2s,3s,4s,5s',
    };
    api = await TestApi.start(env);
    // The worker gets the same configuration (process.env now carries it, and DATABASE_URL), and logs at `log` so the sweeper is visible.
    workerEnv = cleanEnv({ ...process.env, ...env, LOG_LEVEL: 'log', NO_COLOR: '1' });
    worker = await startWorker(workerEnv);
  }, 60_000);

  afterAll(async () => {
    if (api && churches.length) {
      await cancelPendingDeliveries(
        api,
        churches.map((c) => c.id),
      ).catch(() => undefined);
    }
    await worker?.stop('SIGTERM', 5_000);
    if (redis && !redis.running() && redisPort) redis = await startRedis(redisPort).catch(() => redis); // let the API's queue close cleanly
    await api?.close();
    await redis?.stop('SIGKILL');
    await receiver?.close();
    delete process.env.REDIS_URL;
  }, 60_000);

  /** Waits for `n` POSTs to `p`; on time-out the error carries the worker's last output. */
  async function waitForCount(p: string, n: number, timeoutMs: number) {
    await waitFor(() => receiver.at(p).length >= n, {
      timeout: timeoutMs,
      interval: 20,
      what: () =>
        `${n} request(s) at ${p}; got ${receiver.at(p).length}\nworker output (tail):\n${worker.output().slice(-3000)}`,
    });
    return receiver.at(p);
  }

  async function waitForUnique(p: string, n: number, timeoutMs: number) {
    await waitFor(() => uniqueIds(p).size >= n, {
      timeout: timeoutMs,
      interval: 20,
      what: () =>
        `${n} unique Service-Webhook-Id at ${p}; got ${uniqueIds(p).size}\nworker output (tail):\n${worker.output().slice(-3000)}`,
    });
  }

  async function church(): Promise<TestTenant> {
    const c = await newTenant(api);
    churches.push(c);
    return c;
  }

  async function bulk(c: TestTenant, n: number, label: string): Promise<string[]> {
    const res = await api.post<{ created: number; failed: number; results: { id?: string }[] }>('/v1/members/bulk', {
      token: c.token,
      tenant: c.slug,
      body: { members: Array.from({ length: n }, (_, i) => ({ first_name: `${label}${i}`, last_name: 'Bulk' })) },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: n, failed: 0 });
    return res.body.results.map((r: { id?: string }) => r.id!);
  }

  /** The endpoint's attempts once there are `n` (an attempt is recorded just after the receiver answered). */
  async function attemptsOnceThere(c: TestTenant, endpointId: string, n: number): Promise<Attempt[]> {
    return waitFor(
      async () => {
        const res = await api.get<{ data: Attempt[] }>(`/v1/webhook-endpoints/${endpointId}/deliveries`, {
          token: c.token,
          tenant: c.slug,
        });
        expect(res.status).toBe(200);
        return res.body.data;
      },
      { what: `${n} attempt(s)`, until: (data) => data.length >= n },
    );
  }

  const path = (label: string) => `/hooks/${label}-${randomBytes(3).toString('hex')}`;
  const uniqueIds = (p: string) => new Set(receiver.webhookIds(p));

  it('npm run start:worker consumes every queue through @nestjs/bullmq processors', () => {
    const line = worker.output().match(/processing queues: (.*)/)?.[1] ?? '';
    expect(line.split(', ').sort()).toEqual(Object.values(QUEUES).sort());
  });

  it('events created through the API are delivered by the worker process', async () => {
    const c = await church();
    const p = path('worker');
    const endpoint = await newWebhookEndpoint(api, c, { url: receiver.url(p), events: ['member.created'] });
    const res = await api.post<{ id: string }>('/v1/members', {
      token: c.token,
      tenant: c.slug,
      body: { first_name: 'Eva', last_name: 'Luna' },
    });
    expect(res.status).toBe(201);
    const [request] = await waitForCount(p, 1, 10_000);
    const body = request.body as Envelope;
    expect(body).toMatchObject({ type: 'member.created', data: { object: { id: res.body.id } } });
    expect(request.headers['service-webhook-id']).toBe(body.id);
    expect(verifyWebhook(request.rawBody, String(request.headers['service-signature']), [endpoint.secret]).ok).toBe(
      true,
    );
    expect(await attemptsOnceThere(c, endpoint.id, 1)).toEqual([
      expect.objectContaining({ attempt: 1, succeeded: true, status_code: 200 }),
    ]);
    expect(worker.running()).toBe(true);
  });

  it("a church's events committed together reach the worker as batch jobs of up to BATCH_SIZE attempts (ids only), each delivered once", async () => {
    const n = 2 * BATCH_SIZE + 10;
    const c = await church();
    const p = path('batched');
    const endpoint = await newWebhookEndpoint(api, c, { url: receiver.url(p), events: ['member.created'] });
    const queue = new Queue<DeliveryBatch>(DELIVERY_QUEUE, {
      connection: { url: workerEnv.REDIS_URL },
      prefix: workerEnv.QUEUE_PREFIX,
    });
    await queue.pause(); // the worker takes nothing while the jobs are looked at
    try {
      const ids = await bulk(c, n, 'Batch');
      const jobs = (await queue.getJobs(['wait', 'delayed'])).filter((job) => job.data.tenantId === c.id);
      expect(jobs.map((job) => job.name)).toEqual(['deliver-batch', 'deliver-batch', 'deliver-batch']);
      expect(jobs.map((job) => job.data.deliveries.length).sort((x, y) => x - y)).toEqual([10, BATCH_SIZE, BATCH_SIZE]);
      for (const job of jobs) {
        expect(Object.keys(job.data).sort()).toEqual(['deliveries', 'tenantId']);
        for (const d of job.data.deliveries)
          expect(d).toEqual({ deliveryId: expect.any(String), endpointId: expect.any(String), attempt: 0 });
      }
      const deliveries = await api.db.platform.query<{ id: string; endpoint_id: string }[]>(
        `SELECT id, endpoint_id FROM webhook_deliveries WHERE tenant_id = $1 ORDER BY id`,
        [c.id],
      );
      const queued = jobs.flatMap((job) => job.data.deliveries);
      expect(queued.map((d) => [d.deliveryId, d.endpointId]).sort()).toEqual(
        deliveries.map((d) => [d.id, d.endpoint_id]),
      );
      expect(deliveries).toHaveLength(ids.length);
    } finally {
      await queue.resume();
      await queue.close();
    }
    await waitForUnique(p, n, 20_000);
    await sleep(300);
    expect(receiver.at(p)).toHaveLength(n);
    for (const request of receiver.at(p))
      expect(verifyWebhook(request.rawBody, String(request.headers['service-signature']), [endpoint.secret]).ok).toBe(
        true,
      );
  });

  it('a worker killed with SIGKILL mid-attempt: what it held is delivered by its restart within 60 s (CONTRACT §22)', async () => {
    const c = await church();
    const p = path('killed');
    // The first attempts hang (the worker dies while they are in flight); later ones answer at once.
    receiver.answer(p, (_req, i) => (i < 4 ? { status: 200, delayMs: 2_500 } : { status: 200 }));
    const endpoint = await newWebhookEndpoint(api, c, { url: receiver.url(p), events: ['member.created'] });
    await bulk(c, 4, 'Killed');
    await waitForCount(p, 4, 15_000);
    await worker.stop('SIGKILL');
    const killedAt = Date.now();
    const held = await api.db.platform.query<{ status: string; attempts: number }[]>(
      `SELECT status, attempts FROM webhook_deliveries WHERE tenant_id = $1`,
      [c.id],
    );
    expect(held).toEqual(Array(4).fill({ status: 'pending', attempts: 0 })); // claimed, never recorded
    worker = await startWorker(workerEnv);

    await waitForUnique(p, 4, 60_000);
    await waitFor(
      () =>
        api.db.platform.query<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1 AND status = 'succeeded'`,
          [c.id],
        ),
      {
        what: 'the 4 deliveries recorded',
        until: (rows) => rows[0].n === 4,
        timeout: 60_000 - (Date.now() - killedAt),
      },
    );
    expect(Date.now() - killedAt).toBeLessThan(60_000);
    expect(receiver.at(p).length).toBeGreaterThanOrEqual(8); // each sent again once its lease ran out
    expect(await attemptsOnceThere(c, endpoint.id, 4)).toHaveLength(4);
  }, 90_000);

  it('retries through the queue on the schedule (500, then 200 a second later)', async () => {
    const c = await church();
    const p = path('retry');
    receiver.answer(p, (_req, i) => (i === 0 ? { status: 500 } : { status: 200 }));
    const endpoint = await newWebhookEndpoint(api, c, { url: receiver.url(p), events: ['member.created'] });
    expect(
      (
        await api.post('/v1/members', {
          token: c.token,
          tenant: c.slug,
          body: { first_name: 'Rita', last_name: 'Reintento' },
        })
      ).status,
    ).toBe(201);
    const [first, second] = await waitForCount(p, 2, 10_000);
    const gap = second.receivedAt - first.receivedAt;
    expect({ gap, onSchedule: gap >= 1_000 && gap <= 1_100 + 1_000 }).toEqual({ gap, onSchedule: true });
    expect(second.headers['service-webhook-id']).toBe(first.headers['service-webhook-id']);
    expect(await attemptsOnceThere(c, endpoint.id, 2)).toEqual([
      expect.objectContaining({ attempt: 2, succeeded: true, status_code: 200 }),
      expect.objectContaining({ attempt: 1, succeeded: false, status_code: 500 }),
    ]);
    await sleep(1_500);
    expect(receiver.at(p)).toHaveLength(2);
  });

  it("a batch job's failed attempt is retried on its schedule while another attempt of the job still waits on a slow receiver", async () => {
    // One member, two endpoints: its two deliveries commit together and go in one batch job.
    const c = await church();
    const slow = path('batch-slow');
    const flaky = path('batch-flaky');
    receiver.answer(slow, { status: 200, delayMs: 2_500 });
    receiver.answer(flaky, (_req, i) => (i === 0 ? { status: 500 } : { status: 200 }));
    await newWebhookEndpoint(api, c, { url: receiver.url(slow), events: ['member.created'] });
    await newWebhookEndpoint(api, c, { url: receiver.url(flaky), events: ['member.created'] });
    expect(
      (
        await api.post('/v1/members', {
          token: c.token,
          tenant: c.slug,
          body: { first_name: 'Lento', last_name: 'Lote' },
        })
      ).status,
    ).toBe(201);
    const [first, second] = await waitForCount(flaky, 2, 10_000);
    const [slowRequest] = await waitForCount(slow, 1, 10_000);
    // The retry is due 1 s after the 500 was recorded, not after the slow receiver answered (2.5 s).
    const gap = second.receivedAt - first.receivedAt;
    expect({ gap, onSchedule: gap >= 1_000 && gap < 2_000 }).toEqual({ gap, onSchedule: true });
    expect(second.receivedAt).toBeLessThan(slowRequest.receivedAt + 2_500);
    await waitFor(() => receiver.at(flaky).length === 2 && receiver.at(slow).length === 1, { what: 'both delivered' });
  });

  it("a slow endpoint of church A (2 s per answer, 20 events) does not delay church B's delivery", async () => {
    const a = await church();
    const b = await church();
    const slow = path('slow-a');
    const fast = path('fast-b');
    receiver.answer(slow, { status: 200, delayMs: 2_000 });
    await newWebhookEndpoint(api, a, { url: receiver.url(slow), events: ['member.created'] });
    await newWebhookEndpoint(api, b, { url: receiver.url(fast), events: ['member.created'] });

    const committedAt = Date.now();
    await bulk(a, 20, 'Slow');
    await waitForCount(slow, 1, 10_000); // A's backlog is running
    await sleep(300);

    const res = await api.post<{ id: string }>('/v1/members', {
      token: b.token,
      tenant: b.slug,
      body: { first_name: 'Beto', last_name: 'Rápido' },
    });
    expect(res.status).toBe(201);
    const createdAt = Date.now();
    const [delivered] = await waitForCount(fast, 1, 10_000);
    const latency = delivered.receivedAt - createdAt;
    const aDoneAtThatTime = uniqueIds(slow).size;
    expect({ latency, fast: latency <= 1_000 }).toEqual({ latency, fast: true });
    expect((delivered.body as Envelope).data.object.id).toBe(res.body.id);
    // A's backlog was still running when B's event arrived
    expect(aDoneAtThatTime).toBeLessThan(20);

    // ...and it completes: every one of A's 20 events, each within the time-out (no failures)
    await waitForUnique(slow, 20, 40_000);
    expect(receiver.at(fast)).toHaveLength(1);
    // The batch's attempts took turns at the endpoint's 4 slots, or let their claims go and went back
    // to the queue: none twice, and none waited out a claim's lease (21 s here).
    expect(receiver.at(slow)).toHaveLength(20);
    const took = Date.now() - committedAt;
    expect({ took, beforeTheLease: took < 20_000 }).toEqual({ took, beforeTheLease: true });
  }, 60_000);

  it('Redis down while 500 members are created: the outbox keeps every event and the sweeper delivers all of them after Redis returns', async () => {
    const c = await church();
    const p = path('fault');
    await newWebhookEndpoint(api, c, { url: receiver.url(p), events: ['member.created'] });

    await redis.stop('SIGKILL');
    expect(await redisPing(redisPort)).toBe(false);

    const started = Date.now();
    const ids = await bulk(c, 500, 'Fault'); // the API still answers: the outbox commits, the enqueue fails and is logged
    const bulkMs = Date.now() - started;
    expect(ids).toHaveLength(500);
    expect(bulkMs).toBeLessThan(15_000);
    await sleep(500);
    expect(receiver.at(p)).toEqual([]); // nothing can be delivered while the queue is down

    redis = await startRedis(redisPort);
    const restartedAt = Date.now();
    await waitForUnique(p, 500, 60_000);
    const recoveredMs = Date.now() - restartedAt;

    // Exactly the 500 member.created events of the log, none missing, each about one of the members
    const logged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { data: Envelope[]; next_cursor: string | null } } = await api.get(
        `/v1/webhook-events?type=member.created&limit=250${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        {
          token: c.token,
          tenant: c.slug,
        },
      );
      expect(page.status).toBe(200);
      logged.push(...page.body.data.map((e) => e.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(logged).toHaveLength(500);
    const received = uniqueIds(p);
    expect(received.size).toBe(500);
    expect([...received].sort()).toEqual([...logged].sort());
    const members = new Set(receiver.at(p).map((r) => (r.body as Envelope).data.object.id));
    expect([...members].sort()).toEqual([...ids].sort());
    for (const r of receiver.at(p)) expect(r.headers['service-webhook-id']).toBe((r.body as Envelope).id);

    expect(worker.running()).toBe(true);
    expect(worker.output()).toMatch(/re-enqueued \d+ overdue deliveries/);
    expect(recoveredMs).toBeLessThan(60_000);
  }, 120_000);

  it('a delivery whose job failed in the worker is delivered once the sweeper re-enqueues it', async () => {
    // A worker started with the wrong ENCRYPTION_KEY cannot open the signing secret: the attempt
    // throws after the claim and the job fails (and is removed, so that it can be added again).
    // Once the worker is fixed and the claim's lease has passed, the sweeper must get the delivery going again.
    const c = await church();
    const p = path('after-failure');
    await newWebhookEndpoint(api, c, { url: receiver.url(p), events: ['member.created'] });
    const queue = new Queue<DeliveryBatch>(DELIVERY_QUEUE, {
      connection: { url: workerEnv.REDIS_URL! },
      prefix: workerEnv.QUEUE_PREFIX,
    });
    try {
      await worker.stop('SIGTERM', 5_000);
      worker = await startWorker({ ...workerEnv, ENCRYPTION_KEY: Buffer.alloc(32, 99).toString('base64') });

      expect(
        (
          await api.post('/v1/members', {
            token: c.token,
            tenant: c.slug,
            body: { first_name: 'Fallo', last_name: 'Clave' },
          })
        ).status,
      ).toBe(201);
      const [{ id }] = await api.db.platform.query<{ id: string }[]>(
        `SELECT id FROM webhook_deliveries WHERE tenant_id = $1`,
        [c.id],
      );
      await waitFor(() => worker.output().includes(`delivery ${id} attempt 1 errored`), {
        interval: 100,
        what: () => `the job of delivery ${id} to fail:\n${worker.output().slice(-3000)}`,
      });
      // Failed jobs do not linger under their id (BullMQ removes it just after the error is logged).
      let state = await queue.getJobState(`${id}-0`);
      for (let i = 0; i < 50 && state === 'active'; i++, state = await queue.getJobState(`${id}-0`)) await sleep(100);
      expect(state).toBe('unknown');
      expect(receiver.at(p)).toEqual([]);

      await worker.stop('SIGTERM', 5_000);
      worker = await startWorker(workerEnv);
      // The claim's lease has passed (moved back in time rather than waited for).
      await api.db.platform.query(
        `UPDATE webhook_deliveries SET next_attempt_at = now() - interval '11 seconds', leased_until = now() - interval '11 seconds' WHERE tenant_id = $1 AND id = $2 AND status = 'pending'`,
        [c.id, id],
      );

      await waitForCount(p, 1, 15_000); // the sweeper runs every 5 s
      expect(worker.output()).toMatch(/re-enqueued \d+ overdue deliveries/);
    } finally {
      await queue.close();
    }
  }, 60_000);
});
