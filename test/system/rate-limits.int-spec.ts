import { ChildProcess, spawn } from 'node:child_process';
import { Socket } from 'node:net';
import type { Response } from 'supertest';
import { TestApi } from '../support/api';
import { newTenant, newToken, TestTenant } from '../support/factories';
import { TEST_REDIS_URL } from '../support/test-env';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import { sleep, waitFor } from '../support/wait';
import { freePort } from '../support/processes';

/**
 * Rate limits (CONTRACT §7): a token bucket per church holding `burst` requests, refilled at the
 * plan's rate per minute, a daily window, the headers on every authenticated answer, Redis as the
 * shared store with a per-process fallback, usage, and temporary quota raises.
 */

interface UsageWindow {
  requests: number;
  response_bytes: number;
  window_start: string;
  window_end: string;
}
interface Usage {
  plan: string;
  quota: { requests_per_minute: number; requests_per_day: number; burst: number };
  day: UsageWindow;
  minute: UsageWindow;
}

const RATE_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-ratelimit-bucket',
  'ratelimit-policy',
  'ratelimit',
];
/** Starter: burst 100, refilled at 60 per minute (one a second). */
const STARTER_BURST = 100;
const STARTER_REFILL_PER_S = 1;

function expectRateLimitHeaders(res: Response, church: TestTenant, sentAt: number): void {
  for (const name of RATE_HEADERS)
    expect({ name, value: res.headers[name] }).toEqual({ name, value: expect.any(String) });
  const limit = Number(res.headers['x-ratelimit-limit']);
  const remaining = Number(res.headers['x-ratelimit-remaining']);
  expect(Number.isInteger(limit) && limit > 0).toBe(true);
  expect(Number.isInteger(remaining) && remaining >= 0 && remaining <= limit).toBe(true);
  const reset = Number(res.headers['x-ratelimit-reset']);
  expect(Number.isInteger(reset)).toBe(true);
  expect(reset * 1000).toBeGreaterThan(sentAt); // unix seconds, in the future
  expect(reset * 1000).toBeLessThan(sentAt + 2 * 86_400_000);
  const policy = res.headers['ratelimit-policy'];
  expect(policy).toContain('"minute"');
  expect(policy).toContain('"day"');
  expect(res.headers.ratelimit).toMatch(/"minute";r=\d+;t=\d+/);
  for (const header of ['ratelimit-policy', 'ratelimit', 'x-ratelimit-bucket']) {
    const value = res.headers[header].toLowerCase();
    expect(value).not.toContain(church.id);
    expect(value).not.toContain(church.id.replace(/-/g, ''));
    expect(value).not.toContain(church.slug);
  }
}

/** `n` calls, `batch` at a time in parallel; the answers in order. */
async function fire(n: number, send: () => Promise<Response>, batch = 50): Promise<Response[]> {
  const out: Response[] = [];
  for (let i = 0; i < n; i += batch)
    out.push(...(await Promise.all(Array.from({ length: Math.min(batch, n - i) }, () => send()))));
  return out;
}

function tally(responses: Response[]): { ok: number; limited: number; other: number[] } {
  const ok = responses.filter((r) => r.status === 200).length;
  const limited = responses.filter((r) => r.status === 429).length;
  return { ok, limited, other: responses.map((r) => r.status).filter((s) => s !== 200 && s !== 429) };
}

/** How many extra requests the bucket may have refilled during `ms` (at least 1, as the brief allows ±1). */
function refillTolerance(ms: number, perSecond = STARTER_REFILL_PER_S): number {
  return Math.max(1, Math.ceil((ms / 1000) * perSecond));
}

const list = (api: TestApi, token: string, church: TestTenant) => () =>
  api.get('/v1/members?limit=1', { token, tenant: church.slug });

// --- A private redis-server for the "Redis goes away" case (the shared one must stay up). ---

function redisCommand(port: number, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    let data = '';
    socket.setTimeout(1000, () => socket.destroy(new Error('timeout')));
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      data += chunk.toString();
      if (data.endsWith('\r\n')) {
        socket.end();
        resolve(data);
      }
    });
    socket.connect(port, '127.0.0.1', () =>
      socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`),
    );
  });
}

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
    { stdio: 'ignore' },
  );
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
      return (await redisCommand(port, 'PING').catch(() => '')).startsWith('+PONG');
    },
    { what: 'redis-server to start' },
  );
  return child;
}

async function stopRedis(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** Number of rate-limit keys in the private Redis. */
async function rateLimitKeys(port: number): Promise<number> {
  const reply = await redisCommand(port, 'EVAL', "return #redis.call('KEYS', 'rl:*')", '0');
  return Number(reply.replace(/^:/, '').trim());
}

/**
 * Starts an extra API "process" with REDIS_URL and a small database pool (the PostgreSQL server is
 * shared), then restores the environment so that other instances of this file do not inherit them.
 */
async function startWithRedis(url: string): Promise<TestApi> {
  const saved = { REDIS_URL: process.env.REDIS_URL, DB_POOL_SIZE: process.env.DB_POOL_SIZE };
  try {
    return await TestApi.start({ REDIS_URL: url, DB_POOL_SIZE: '3' });
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

describe('rate limits', () => {
  let api: TestApi;

  beforeAll(async () => {
    delete process.env.REDIS_URL;
    api = await TestApi.start();
  });
  afterAll(() => api.close());

  it('carries the rate-limit headers on 200, 201, 304, 404 and 422 answers', async () => {
    const church = await newTenant(api, { plan: 'starter' });
    const call = { token: church.token, tenant: church.slug };
    let sentAt = Date.now();
    const created = await api.post<{ id: string }>('/v1/members', {
      ...call,
      body: { first_name: 'Ana', last_name: 'Ruiz' },
    });
    expect(created.status).toBe(201);
    expectRateLimitHeaders(created, church, sentAt);
    // On starter the bucket nearest to exhaustion is the minute bucket; its limit is the burst.
    expect(created.headers['x-ratelimit-limit']).toBe(String(STARTER_BURST));
    expect(created.headers['x-ratelimit-bucket']).toBe('minute');
    expect(created.headers['ratelimit-policy']).toContain('burst=100');

    sentAt = Date.now();
    const ok = await api.get(`/v1/members/${created.body.id}`, call);
    expect(ok.status).toBe(200);
    expectRateLimitHeaders(ok, church, sentAt);

    sentAt = Date.now();
    const notModified = await api.get(`/v1/members/${created.body.id}`, {
      ...call,
      headers: { 'If-None-Match': ok.headers.etag },
    });
    expect(notModified.status).toBe(304);
    expectRateLimitHeaders(notModified, church, sentAt);

    sentAt = Date.now();
    const missing = await api.get<Problem>('/v1/members/mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', call);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('resource_not_found');
    expectRateLimitHeaders(missing, church, sentAt);

    sentAt = Date.now();
    const invalid = await api.post<Problem>('/v1/members', { ...call, body: { first_name: '' } });
    expect(invalid.status).toBe(422);
    expectRateLimitHeaders(invalid, church, sentAt);

    // Each answer took one request from the bucket (a second or so of refill at most).
    const remaining = Number(invalid.headers['x-ratelimit-remaining']);
    expect(remaining).toBeGreaterThanOrEqual(STARTER_BURST - 5);
    expect(remaining).toBeLessThanOrEqual(STARTER_BURST - 5 + refillTolerance(Date.now() - sentAt + 1000));
  });

  it('carries the rate-limit headers on an authenticated 403 scope_insufficient too (CONTRACT §7: every response)', async () => {
    const church = await newTenant(api, { plan: 'starter' });
    const reader = await newToken(api, church, ['read:members'], 'staff');
    const sentAt = Date.now();
    const res = await api.get<Problem>('/v1/campuses', { token: reader.token, tenant: church.slug });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('scope_insufficient');
    expectRateLimitHeaders(res, church, sentAt);
  });

  it('admits exactly the burst (100 on starter) of 150 parallel requests; the rest are 429 with Retry-After and headers', async () => {
    const church = await newTenant(api, { plan: 'starter' });
    const start = Date.now();
    const responses = await fire(150, list(api, church.token, church));
    const elapsed = Date.now() - start;
    const { ok, limited, other } = tally(responses);
    expect(other).toEqual([]);
    expect(ok).toBeGreaterThanOrEqual(STARTER_BURST);
    expect(ok).toBeLessThanOrEqual(STARTER_BURST + refillTolerance(elapsed));
    expect(limited).toBe(150 - ok);
    for (const res of responses.filter((r) => r.status === 429)) {
      expect((res.body as Problem).code).toBe('rate_limited');
      const retryAfter = Number(res.headers['retry-after']);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expectRateLimitHeaders(res, church, start);
      expect(res.headers['x-ratelimit-bucket']).toBe('minute');
      expect(res.headers['x-ratelimit-limit']).toBe(String(STARTER_BURST));
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
    }
  });

  it('honours Retry-After: after waiting that long, a request passes again', async () => {
    const church = await newTenant(api, { plan: 'starter' });
    const responses = await fire(110, list(api, church.token, church));
    const refused = responses.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    const last = refused[refused.length - 1];
    const retryAfter = Number(last.headers['retry-after']);
    expect(retryAfter).toBe(1); // one request refills in a second on starter
    await sleep(retryAfter * 1000 + 50);
    const again = await list(api, church.token, church)();
    expect(again.status).toBe(200);
    // Refused requests were not charged, and the bucket is only just refilling.
    expect(Number(again.headers['x-ratelimit-remaining'])).toBeLessThanOrEqual(1);
  });

  it('enforces the daily window: 429 from the "day" bucket, retry at 00:00 UTC', async () => {
    const church = await newTenant(api, { plan: 'starter' });
    await api.db.platform.query(
      `UPDATE tenants SET quota_per_day = 5, quota_until = now() + interval '1 day' WHERE id = $1`,
      [church.id],
    );
    const send = list(api, church.token, church);
    for (let i = 0; i < 5; i++) expect((await send()).status).toBe(200);
    const sentAt = Date.now();
    const res = await send();
    expect(res.status).toBe(429);
    expect((res.body as Problem).code).toBe('rate_limited');
    expect(res.headers['x-ratelimit-bucket']).toBe('day');
    expect(res.headers['x-ratelimit-limit']).toBe('5');
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
    expect(res.headers['ratelimit-policy']).toContain('"day";q=5');
    const midnight = new Date(sentAt);
    midnight.setUTCHours(24, 0, 0, 0);
    expect(Number(res.headers['x-ratelimit-reset'])).toBe(midnight.getTime() / 1000);
    const retryAfter = Number(res.headers['retry-after']);
    expect(Math.abs(retryAfter - (midnight.getTime() - sentAt) / 1000)).toBeLessThanOrEqual(2);
  });

  it('limits a starter church while a business church in the same run is not limited', async () => {
    const starter = await newTenant(api, { plan: 'starter' });
    const business = await newTenant(api, { plan: 'business' });
    const start = Date.now();
    // Interleaved: both churches are called in the same batches.
    const responses = await fire(
      240,
      (() => {
        let i = 0;
        return () => (i++ % 2 === 0 ? list(api, starter.token, starter)() : list(api, business.token, business)());
      })(),
      60,
    );
    const elapsed = Date.now() - start;
    const forStarter = tally(responses.filter((_r, i) => i % 2 === 0));
    const forBusiness = tally(responses.filter((_r, i) => i % 2 === 1));
    expect(forStarter.other).toEqual([]);
    expect(forStarter.ok).toBeGreaterThanOrEqual(STARTER_BURST);
    expect(forStarter.ok).toBeLessThanOrEqual(STARTER_BURST + refillTolerance(elapsed));
    expect(forStarter.limited).toBeGreaterThan(0);
    expect(forBusiness).toEqual({ ok: 120, limited: 0, other: [] });
    const last = responses[responses.length - 1];
    expect(last.headers['x-ratelimit-limit']).toBe('5000');
    expect(Number(last.headers['x-ratelimit-remaining'])).toBeGreaterThanOrEqual(5000 - 120);
  });

  it("shares one bucket between a church's tokens", async () => {
    const church = await newTenant(api, { plan: 'starter' });
    const a = await newToken(api, church, ['read:members'], 'staff');
    const b = await newToken(api, church, ['read:members'], 'staff');
    const start = Date.now();
    const first = tally(await fire(60, list(api, a.token, church), 30));
    expect(first).toEqual({ ok: 60, limited: 0, other: [] });
    const second = tally(await fire(60, list(api, b.token, church), 30));
    const elapsed = Date.now() - start;
    expect(second.other).toEqual([]);
    expect(second.ok).toBeGreaterThanOrEqual(STARTER_BURST - 60);
    expect(second.ok).toBeLessThanOrEqual(STARTER_BURST - 60 + refillTolerance(elapsed));
    expect(second.limited).toBe(60 - second.ok);
  });

  describe('with Redis', () => {
    let port: number;
    let redis: ChildProcess | undefined;
    let withRedis: TestApi | undefined;
    const shared: TestApi[] = [];

    afterEach(async () => {
      await withRedis?.close();
      withRedis = undefined;
      await stopRedis(redis);
      redis = undefined;
      for (const instance of shared.splice(0)) await instance.close();
    });

    it('keeps answering (never 500) with headers when Redis stops, and after it comes back', async () => {
      port = await freePort();
      redis = await startRedis(port);
      withRedis = await startWithRedis(`redis://127.0.0.1:${port}`);
      const church = await newTenant(withRedis, { plan: 'starter' });
      const send = list(withRedis, church.token, church);

      let sentAt = Date.now();
      for (const res of await fire(5, send)) {
        expect(res.status).toBe(200);
        expectRateLimitHeaders(res, church, sentAt);
      }
      expect(await rateLimitKeys(port)).toBeGreaterThan(0); // the limiter really uses this Redis

      await stopRedis(redis);
      sentAt = Date.now();
      const whileDown = [
        ...(await fire(10, send, 5)),
        await withRedis.get('/v1/usage', { token: church.token, tenant: church.slug }),
      ];
      for (const res of whileDown) {
        expect(res.status).toBe(200);
        expectRateLimitHeaders(res, church, sentAt);
      }
      // The per-process fallback still limits.
      const fallback = tally(await fire(110, send));
      expect(fallback.other).toEqual([]);
      expect(fallback.limited).toBeGreaterThan(0);

      redis = await startRedis(port);
      await waitFor(
        async () => {
          sentAt = Date.now();
          const res = await send();
          expect([200, 429]).toContain(res.status);
          expectRateLimitHeaders(res, church, sentAt);
          return (await rateLimitKeys(port)) > 0;
        },
        { what: 'the limiter to go back to Redis', interval: 100 },
      );
      // Back on Redis: the bucket there was never drained, so requests pass again.
      sentAt = Date.now();
      const back = await send();
      expect(back.status).toBe(200);
      expectRateLimitHeaders(back, church, sentAt);
    });

    it('holds one limit across two API processes sharing Redis', async () => {
      const a = await startWithRedis(TEST_REDIS_URL);
      shared.push(a);
      const b = await startWithRedis(TEST_REDIS_URL);
      shared.push(b);
      const church = await newTenant(a, { plan: 'starter' });
      const start = Date.now();
      const viaA = tally(await fire(60, list(a, church.token, church), 30));
      const viaB = tally(await fire(60, list(b, church.token, church), 30));
      const elapsed = Date.now() - start;
      expect(viaA).toEqual({ ok: 60, limited: 0, other: [] });
      expect(viaB.other).toEqual([]);
      const total = viaA.ok + viaB.ok;
      expect(total).toBeGreaterThanOrEqual(STARTER_BURST);
      expect(total).toBeLessThanOrEqual(STARTER_BURST + refillTolerance(elapsed));
      expect(viaB.limited).toBeGreaterThan(0);
    });

    it('counts usage across two API processes sharing Redis: each sends its counts by itself, a read sends its own first', async () => {
      const a = await startWithRedis(TEST_REDIS_URL);
      shared.push(a);
      const b = await startWithRedis(TEST_REDIS_URL);
      shared.push(b);
      const church = await newTenant(a, { plan: 'business' });
      const answers = [
        ...(await fire(20, list(a, church.token, church), 10)),
        ...(await fire(30, list(b, church.token, church), 10)),
      ];
      expect(tally(answers)).toEqual({ ok: 50, limited: 0, other: [] });
      const bytes = answers.reduce((sum, r) => sum + Number(r.headers['content-length']), 0);
      await sleep(20); // recorded when each answer has finished
      // B is never read from: its 30 arrive on their own (batched, within USAGE_FLUSH_MS); A's
      // read sends A's first. Each earlier read counts too, once it has finished.
      let reads = 0;
      const seen = await waitFor(
        async () => {
          const res = await a.get<Usage>('/v1/usage', { token: church.token, tenant: church.slug });
          reads += 1;
          return res.body;
        },
        { until: (u) => u.day.requests >= 50, what: "both processes' usage", interval: 20 },
      );
      expect(seen.day.requests).toBeLessThanOrEqual(50 + reads - 1);
      expect(seen.day.response_bytes).toBeGreaterThanOrEqual(bytes);
      expect(seen.minute.requests).toBeLessThanOrEqual(seen.day.requests);
    });
  });

  describe('GET /v1/usage', () => {
    const usage = async (church: TestTenant) => {
      await sleep(20); // usage is recorded when the previous answer has finished
      const res = await api.get<Usage>('/v1/usage', { token: church.token, tenant: church.slug });
      expect(res.status).toBe(200);
      return res;
    };
    const length = (res: Response) => Number(res.headers['content-length']);

    it('counts one request per request, a 304 included', async () => {
      const church = await newTenant(api, { plan: 'starter' });
      const call = { token: church.token, tenant: church.slug };
      const first = await usage(church);
      expect(first.body.plan).toBe('starter');
      expect(first.body.quota).toEqual({ requests_per_minute: 60, requests_per_day: 50_000, burst: 100 });
      expect(first.body.day.requests).toBe(0);
      const today = new Date();
      today.setUTCHours(0, 0, 0, 0);
      expect(first.body.day.window_start).toBe(today.toISOString());
      expect(Date.parse(first.body.day.window_end) - Date.parse(first.body.day.window_start)).toBe(86_400_000);
      expect(Date.parse(first.body.minute.window_end) - Date.parse(first.body.minute.window_start)).toBe(60_000);

      expect((await usage(church)).body.day.requests).toBe(1);
      expect((await usage(church)).body.day.requests).toBe(2);

      const created = await api.post<{ id: string }>('/v1/members', {
        ...call,
        body: { first_name: 'Ana', last_name: 'Ruiz' },
      });
      const fetched = await api.get(`/v1/members/${created.body.id}`, call);
      const notModified = await api.get(`/v1/members/${created.body.id}`, {
        ...call,
        headers: { 'If-None-Match': fetched.headers.etag },
      });
      expect(notModified.status).toBe(304);
      const missing = await api.get('/v1/members/mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', call);
      expect(missing.status).toBe(404);
      const after = await usage(church);
      expect(after.body.day.requests).toBe(3 + 4); // three usage calls, then create, get, 304, 404
      expect(after.body.minute.requests).toBeLessThanOrEqual(after.body.day.requests);
    });

    it('adds the Content-Length of each 200/201 answer to response_bytes, and no bytes for a 304', async () => {
      const church = await newTenant(api, { plan: 'starter' });
      const call = { token: church.token, tenant: church.slug };
      const created = await api.post<{ id: string }>('/v1/members', {
        ...call,
        body: { first_name: 'Ana', last_name: 'Ruiz' },
      });
      expect(created.status).toBe(201);
      expect(length(created)).toBeGreaterThan(0);
      const first = await usage(church);
      expect(first.body.day.response_bytes).toBe(length(created));

      const fetched = await api.get(`/v1/members/${created.body.id}`, call);
      expect(fetched.status).toBe(200);
      expect(length(fetched)).toBeGreaterThan(0);
      const second = await usage(church);
      expect(second.body.day.response_bytes).toBe(first.body.day.response_bytes + length(first) + length(fetched));

      const notModified = await api.get(`/v1/members/${created.body.id}`, {
        ...call,
        headers: { 'If-None-Match': fetched.headers.etag },
      });
      expect(notModified.status).toBe(304);
      const third = await usage(church);
      expect(third.body.day.requests).toBe(second.body.day.requests + 2);
      expect(third.body.day.response_bytes).toBe(second.body.day.response_bytes + length(second)); // the 304 added nothing
    });

    it('is per church', async () => {
      const one = await newTenant(api);
      const two = await newTenant(api);
      await fire(5, list(api, one.token, one));
      expect((await usage(two)).body.day.requests).toBe(0);
      expect((await usage(one)).body.day.requests).toBe(5);
    });
  });

  describe('temporary quota raise (tenants.quota_*)', () => {
    const raise = (api: TestApi, church: TestTenant, burst: number | null, until: string) =>
      api.db.platform.query(`UPDATE tenants SET quota_burst = $2, quota_until = ${until} WHERE id = $1`, [
        church.id,
        burst,
      ]);

    it('raises the burst to 300 until tomorrow, and falls back to the plan once it has ended', async () => {
      const church = await newTenant(api, { plan: 'starter' });
      await raise(api, church, 300, "now() + interval '1 day'");
      const start = Date.now();
      const responses = await fire(330, list(api, church.token, church));
      const elapsed = Date.now() - start;
      const { ok, other } = tally(responses);
      expect(other).toEqual([]);
      expect(ok).toBeGreaterThanOrEqual(300);
      expect(ok).toBeLessThanOrEqual(300 + refillTolerance(elapsed));
      expect(responses[0].headers['x-ratelimit-limit']).toBe('300');
      expect(responses[0].headers['ratelimit-policy']).toContain('burst=300');

      await raise(api, church, 300, "now() - interval '1 day'");
      await sleep(1100); // one token refilled
      const after = await api.get<Usage>('/v1/usage', { token: church.token, tenant: church.slug });
      expect(after.status).toBe(200);
      expect(after.headers['x-ratelimit-limit']).toBe(String(STARTER_BURST));
      expect(after.body.quota.burst).toBe(STARTER_BURST);
    });

    it('ignores a raise whose end date has passed: 100 of 130 admitted', async () => {
      const church = await newTenant(api, { plan: 'starter' });
      await raise(api, church, 300, "now() - interval '1 minute'");
      const start = Date.now();
      const responses = await fire(130, list(api, church.token, church));
      const elapsed = Date.now() - start;
      const { ok, other } = tally(responses);
      expect(other).toEqual([]);
      expect(ok).toBeGreaterThanOrEqual(STARTER_BURST);
      expect(ok).toBeLessThanOrEqual(STARTER_BURST + refillTolerance(elapsed));
      expect(responses[0].headers['x-ratelimit-limit']).toBe(String(STARTER_BURST));
    });
  });
});
