import { randomBytes, randomUUID } from 'node:crypto';
import { TestApi } from '../support/api';
import {
  cancelPendingDeliveries,
  newEvent,
  newFund,
  newTenant,
  newWebhookEndpoint,
  TestTenant,
} from '../support/factories';
import { cleanEnv, ServerProcess, startServer } from '../support/processes';
import { TestReceiver } from '../support/receiver';
import { clearRedisEnv, redisEnv } from '../support/redis';
import { sleep, waitFor } from '../support/wait';
import { Child, startWorkerProcess } from '../support/worker-process';

/**
 * Many processes on one PostgreSQL and one Redis (CONTRACT §22): two API processes and two workers
 * under mixed load (members, donations whose Idempotency-Key goes to both APIs at once, check-ins),
 * one worker killed with SIGKILL midway and started again. Every event is delivered, duplicates
 * are counted, one donation per key, and a church's rate limit holds across both APIs.
 */

const LOAD_MS = 20_000;
const KILL_AT_MS = 7_000;
const RESTART_AT_MS = 11_000;

const SUBSCRIBED = ['member.created', 'donation.created', 'attendance.recorded'];

interface Answer {
  status: number;
  body: { id?: string; code?: string };
}

describe('two APIs and two workers on one PostgreSQL and Redis', () => {
  let api: TestApi;
  let receiver: TestReceiver;
  let apis: ServerProcess[] = [];
  let workers: Child[] = [];
  let childEnv: NodeJS.ProcessEnv;
  const churches: TestTenant[] = [];

  beforeAll(async () => {
    receiver = await TestReceiver.start();
    const env = {
      ...redisEnv(),
      QUEUE_PREFIX: `mp-${randomBytes(3).toString('hex')}`,
      ENCRYPTION_KEY: Buffer.alloc(32, 23).toString('base64'),
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_RETRY_SCHEDULE: '1s,2s,3s,4s,5s',
    };
    api = await TestApi.start(env);
    childEnv = cleanEnv({ ...process.env, ...env, LOG_LEVEL: 'log', NO_COLOR: '1' });
    [apis, workers] = await Promise.all([
      Promise.all([startServer({ env: childEnv }), startServer({ env: childEnv })]),
      Promise.all([startWorkerProcess(childEnv), startWorkerProcess(childEnv)]),
    ]);
  }, 90_000);

  afterAll(async () => {
    if (api && churches.length)
      await cancelPendingDeliveries(
        api,
        churches.map((c) => c.id),
      ).catch(() => undefined);
    await Promise.all([...workers.map((w) => w.stop('SIGTERM', 5_000)), ...apis.map((a) => a.stop(5_000))]);
    await api?.close();
    await receiver?.close();
    clearRedisEnv();
  }, 60_000);

  async function send(to: number, method: string, path: string, c: TestTenant, body?: unknown, key?: string) {
    const res = await fetch(`${apis[to].baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${c.token}`,
        'X-Tenant': c.slug,
        'Content-Type': 'application/json',
        ...(key ? { 'Idempotency-Key': key } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as Answer['body'] };
  }

  /** A client's POST with a key: 409 idempotency_in_progress is retried after its Retry-After (1 s). */
  async function postWithKey(to: number, path: string, c: TestTenant, body: unknown, key: string): Promise<Answer> {
    for (;;) {
      const res = await send(to, 'POST', path, c, body, key);
      if (res.status !== 409 || res.body.code !== 'idempotency_in_progress') return res;
      await sleep(1_000);
    }
  }

  it('under mixed load with a worker killed midway: every event delivered, one donation per key, limits shared', async () => {
    const c = await newTenant(api);
    churches.push(c);
    const p = `/hooks/many-${randomBytes(3).toString('hex')}`;
    await newWebhookEndpoint(api, c, {
      url: receiver.url(p),
      events: SUBSCRIBED,
    });
    const fund = await newFund(api, c);
    const service = await newEvent(api, c);

    const started = Date.now();
    let killed = false;
    let restarted = false;
    const keys: { key: string; answers: Answer[] }[] = [];
    let checkIns = 0;
    for (let i = 0; Date.now() - started < LOAD_MS; i++) {
      const elapsed = Date.now() - started;
      if (!killed && elapsed >= KILL_AT_MS) {
        await workers[0].stop('SIGKILL');
        killed = true;
      }
      if (killed && !restarted && elapsed >= RESTART_AT_MS) {
        workers[0] = await startWorkerProcess(childEnv);
        restarted = true;
      }
      const member = await send(i % 2, 'POST', '/v1/members', c, { first_name: `Load${i}`, last_name: 'Many' });
      expect(member.status).toBe(201);
      if (i % 3 === 0) {
        const checkIn = await send((i + 1) % 2, 'POST', '/v1/check-ins', c, {
          event_id: service.id,
          member_ids: [member.body.id],
        });
        expect(checkIn.status).toBe(201);
        checkIns++;
      }
      // POST /v1/donations allows 30 a minute per token: 8 keys sent twice, with room for 409 retries.
      if (i % 10 === 0 && keys.length < 8) {
        const key = randomUUID();
        const gift = { amount: 1000 + i, currency: 'USD', fund_id: fund.id, donor_id: member.body.id };
        const answers = await Promise.all([0, 1].map((to) => postWithKey(to, '/v1/donations', c, gift, key)));
        keys.push({ key, answers });
      }
    }
    expect(killed && restarted).toBe(true);
    expect(checkIns).toBeGreaterThan(0);

    // One donation per key, and both APIs answered it.
    for (const { answers } of keys) {
      expect(answers.map((a) => a.status)).toEqual([201, 201]);
      expect(answers[0].body.id).toBe(answers[1].body.id);
    }
    const [{ n: donations }] = await api.db.platform.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM donations WHERE tenant_id = $1`,
      [c.id],
    );
    expect(donations).toBe(keys.length);

    // Every event of the outbox reaches the receiver, within a minute of the restart.
    const events = await api.db.platform.query<{ id: string }[]>(
      `SELECT payload->>'id' AS id FROM webhook_events WHERE tenant_id = $1 AND type = ANY($2)`,
      [c.id, SUBSCRIBED],
    );
    const expected = new Set(events.map((e) => e.id));
    const missing = () => [...expected].filter((id) => !receiver.webhookIds(p).includes(id));
    let state = '';
    await waitFor(
      async () => {
        if (missing().length === 0) return true;
        state = JSON.stringify(
          await api.db.platform.query(
            `SELECT e.type, d.status, d.attempts, d.next_attempt_at, d.leased_until, d.last_error, now() AS now FROM webhook_events e
               LEFT JOIN webhook_deliveries d ON d.tenant_id = e.tenant_id AND d.event_id = e.id
              WHERE e.tenant_id = $1 AND e.payload->>'id' = ANY($2)`,
            [c.id, missing()],
          ),
        );
        return false;
      },
      {
        timeout: 60_000,
        interval: 500,
        what: () => `every event delivered; ${missing().length} of ${expected.size} missing: ${state}`,
      },
    );
    const received = receiver.webhookIds(p);
    const duplicates = received.length - new Set(received).size;
    expect({
      events: expected.size,
      duplicates,
      withinOnePercent: duplicates <= Math.ceil(expected.size / 100),
    }).toEqual({
      events: expected.size,
      duplicates,
      withinOnePercent: true,
    });
  }, 150_000);

  it("a starter church's burst is shared by both APIs (one Redis bucket), not granted by each", async () => {
    const c = await newTenant(api, { plan: 'starter' });
    churches.push(c);
    const answers: number[] = [];
    for (let round = 0; round < 15; round++) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, (_, i) => send(i % 2, 'GET', '/v1/members?limit=1', c).then((r) => r.status)),
      );
      answers.push(...batch);
    }
    const ok = answers.filter((s) => s === 200).length;
    const limited = answers.filter((s) => s === 429).length;
    expect(ok + limited).toBe(150);
    // Starter: a burst of 100, refilled at 60 a minute; per-process buckets would grant up to 150.
    expect({ ok, withinBurst: ok <= 100 + 10 }).toEqual({ ok, withinBurst: true });
    expect(limited).toBeGreaterThan(0);
  }, 60_000);
});
