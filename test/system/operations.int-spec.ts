import { randomBytes } from 'node:crypto';
import { TestApi } from '../support/api';
import { cancelPendingDeliveries, newTenant, newWebhookEndpoint, TestTenant } from '../support/factories';
import { cleanEnv, ServerProcess, startServer } from '../support/processes';
import { TestReceiver } from '../support/receiver';
import { TcpProxy } from '../support/tcp-proxy';
import { TEST_REDIS_URL } from '../support/test-env';
import { waitFor } from '../support/wait';
import { Child, startWorkerProcess } from '../support/worker-process';

/**
 * What operators watch (CONTRACT §22): readiness, Prometheus metrics behind a token, and JSON logs
 * carrying the request id and church. Judged from outside, against `node dist/main.js` as deployed
 * (JSON logs, METRICS_TOKEN, Redis); a second API behind a TCP proxy loses its database.
 */

const METRICS_TOKEN = `metrics-${randomBytes(12).toString('hex')}`;

/** The value of the first sample of `name` whose labels include every one of `labels`; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe('operations: /readyz, /metrics, JSON logs', () => {
  let api: TestApi;
  let server: ServerProcess;
  let church: TestTenant;

  /** What the test's app, the server and the worker share: Redis under a prefix of this file's own, the key of the webhook secrets. */
  const shared = {
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: `ops-${randomBytes(3).toString('hex')}`,
    ENCRYPTION_KEY: Buffer.alloc(32, 47).toString('base64'),
    WEBHOOK_ALLOW_LOOPBACK: 'true',
  };

  beforeAll(async () => {
    api = await TestApi.start(shared);
    church = await newTenant(api);
    server = await startServer({
      env: { ...process.env, ...shared, LOG_FORMAT: 'json', LOG_LEVEL: 'log', METRICS_TOKEN },
    });
  });

  afterAll(async () => {
    await server?.stop();
    if (api && church) await cancelPendingDeliveries(api, [church.id]).catch(() => undefined);
    await api?.close();
    delete process.env.REDIS_URL;
  });

  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${server.baseUrl}${path}`, {
      ...init,
      headers: {
        Authorization: `Bearer ${church.token}`,
        'X-Tenant': church.slug,
        'Content-Type': 'application/json',
        ...(init.headers as Record<string, string>),
      },
    });

  /** The server's output lines written so far, without a line still being written. */
  function completeLines(): string[] {
    const output = server.output();
    return output
      .slice(0, output.lastIndexOf('\n'))
      .split('\n')
      .filter((line) => line.trim() !== '');
  }

  async function scrape(): Promise<string> {
    const res = await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  }

  it('/readyz answers ready when PostgreSQL and Redis answer', async () => {
    const res = await fetch(`${server.baseUrl}/readyz`);
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: 'ok', redis: 'ok' } },
    });
  });

  it('/metrics: request durations by route template, pool, queue depths, delivery lag and outbox backlog', async () => {
    const before = await scrape();
    const list = { method: 'GET', route: '/v1/members', status_class: '2xx' };
    const listedBefore = sample(before, 'http_server_request_duration_seconds_count', list) ?? 0;

    const created = await call('/v1/members', {
      method: 'POST',
      body: JSON.stringify({ first_name: 'Ada', last_name: 'Lovelace' }),
    });
    expect(created.status).toBe(201);
    const member = (await created.json()) as { id: string };
    for (let i = 0; i < 12; i++) expect((await call('/v1/members?limit=5')).status).toBe(200);
    expect((await call(`/v1/members/${member.id}`)).status).toBe(200);

    const after = await scrape();
    expect(sample(after, 'http_server_request_duration_seconds_count', list)).toBe(listedBefore + 12);
    expect(sample(after, 'http_server_request_duration_seconds_bucket', { ...list, le: '+Inf' })).toBe(
      listedBefore + 12,
    );
    // The route's template, never the raw path: the member's id is in no series.
    expect(
      sample(after, 'http_server_request_duration_seconds_count', {
        method: 'GET',
        route: '/v1/members/:id',
        status_class: '2xx',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(after).not.toContain(member.id);
    expect(
      sample(after, 'http_server_request_duration_seconds_count', {
        method: 'POST',
        route: '/v1/members',
        status_class: '2xx',
      }),
    ).toBeGreaterThanOrEqual(1);

    for (const state of ['total', 'in_use', 'idle', 'waiting'])
      expect(sample(after, 'db_pool_connections', { state })).toEqual(expect.any(Number));
    expect(sample(after, 'db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    for (const state of ['waiting', 'active', 'delayed', 'failed'])
      expect(sample(after, 'queue_jobs', { queue: 'webhook-deliveries', state })).toEqual(expect.any(Number));
    expect(sample(after, 'queue_jobs', { queue: 'mail', state: 'waiting' })).toEqual(expect.any(Number));
    expect(sample(after, 'webhook_delivery_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(after, 'outbox_pending')).toBeGreaterThanOrEqual(0);
    expect(sample(after, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });

  it('/metrics without the token, or with another, is 401', async () => {
    const none = await fetch(`${server.baseUrl}/metrics`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { code: string }).code).toBe('unauthorized');
    const wrong = await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}x` } });
    expect(wrong.status).toBe(401);
    // A church's API token is not the metrics token either.
    expect((await call('/metrics')).status).toBe(401);
  });

  it("logs one JSON object a line; a request's lines carry its request id, church and route, never a token", async () => {
    const res = await call('/v1/members?limit=1');
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id')!;
    expect(requestId).toMatch(/^req_/);

    const mine = await waitFor(
      () =>
        completeLines()
          .filter((line) => line.includes(requestId))
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      { what: `a log line of ${requestId}`, timeout: 5_000, interval: 20, until: (lines) => lines.length > 0 },
    );
    expect(mine[0]).toEqual(
      expect.objectContaining({
        level: 'info',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        context: 'HTTP',
        msg: 'GET /v1/members 200',
        request_id: requestId,
        tenant: church.slug,
        route: '/v1/members',
        status: 200,
      }),
    );

    const lines = completeLines();
    expect(lines.length).toBeGreaterThan(5);
    // The line scripts wait for is JSON too (and written whatever LOG_LEVEL says).
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toContainEqual(
      expect.stringMatching(/^church-api listening on /),
    );
    for (const line of lines) {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      expect(parsed).toEqual(expect.objectContaining({ level: expect.any(String), time: expect.any(String) }));
      expect(typeof parsed.msg).toBe('string');
    }
    expect(server.output()).not.toContain(church.token);
    expect(server.output()).not.toContain(METRICS_TOKEN);
  });

  describe('under load: a burst of deliveries to a slow receiver', () => {
    /** Members created at once per round, and rounds: as many deliveries, 4 at a time to one endpoint. */
    const PER_ROUND = 6;
    const ROUNDS = 8;
    /** The receiver's delay: the backlog lasts ~ROUNDS * PER_ROUND / 4 * SLOW_MS, longer than the gauges' 5 s cache. */
    const SLOW_MS = 700;
    let receiver: TestReceiver;
    let worker: Child;

    beforeAll(async () => {
      receiver = await TestReceiver.start();
      worker = await startWorkerProcess(cleanEnv({ ...process.env, ...shared, LOG_LEVEL: 'log', NO_COLOR: '1' }));
    }, 60_000);

    afterAll(async () => {
      await worker?.stop('SIGTERM', 5_000);
      await receiver?.close();
    });

    /** The delivery queue's depth (waiting, active, delayed), the outbox backlog and the delivery lag in a scrape. */
    async function backlog(): Promise<{ depth: number; pending: number; lag: number }> {
      const text = await scrape();
      const depth = ['waiting', 'active', 'delayed']
        .map((state) => sample(text, 'queue_jobs', { queue: 'webhook-deliveries', state }) ?? 0)
        .reduce((a, b) => a + b, 0);
      return {
        depth,
        pending: sample(text, 'outbox_pending') ?? -1,
        lag: sample(text, 'webhook_delivery_lag_seconds') ?? -1,
      };
    }

    it('scrapes see the request count rise, then the queue, the outbox backlog and the lag grow and drain', async () => {
      const path = `/hooks/slow-${randomBytes(3).toString('hex')}`;
      receiver.answer(path, { delayMs: SLOW_MS });
      await newWebhookEndpoint(api, church, { url: receiver.url(path), events: ['member.created'] });
      const created = { method: 'POST', route: '/v1/members', status_class: '2xx' };
      const count = (text: string) => sample(text, 'http_server_request_duration_seconds_count', created) ?? 0;
      const before = count(await scrape());

      // Each round's members are created with a scrape alongside: a scrape counts at least the rounds before it.
      const seen: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const [text, ...statuses] = await Promise.all([
          scrape(),
          ...Array.from({ length: PER_ROUND }, (_, i) =>
            call('/v1/members', {
              method: 'POST',
              body: JSON.stringify({ first_name: `Load${round}x${i}`, last_name: 'Metrics' }),
            }).then(async (res) => (await res.arrayBuffer(), res.status)),
          ),
        ]);
        expect(statuses).toEqual(Array(PER_ROUND).fill(201));
        seen.push(count(text));
      }
      seen.forEach((value, round) => expect(value).toBeGreaterThanOrEqual(before + round * PER_ROUND));
      seen.slice(1).forEach((value, i) => expect(value).toBeGreaterThanOrEqual(seen[i]));
      expect(seen[ROUNDS - 1]).toBeGreaterThan(seen[0]);
      expect(count(await scrape())).toBe(before + ROUNDS * PER_ROUND);

      // The slow receiver holds the deliveries back: the queue and the outbox fill up, the oldest waits.
      const busy = await waitFor(backlog, {
        what: 'a delivery backlog in the scrape',
        until: (g) => g.depth > 0 && g.pending > 0 && g.lag > 0,
        timeout: 20_000,
        interval: 100,
      });
      expect(busy.pending).toBeLessThanOrEqual(ROUNDS * PER_ROUND + 50);

      await receiver.waitForCount(path, ROUNDS * PER_ROUND, 60_000);
      await waitFor(backlog, {
        what: 'the backlog drained in the scrape',
        until: (g) => g.depth === 0 && g.pending === 0 && g.lag === 0,
        timeout: 20_000,
        interval: 100,
      });
    });
  });

  describe('an API that loses its database', () => {
    let proxy: TcpProxy;
    let lonely: ServerProcess;

    beforeAll(async () => {
      const url = new URL(process.env.DATABASE_URL!);
      proxy = await TcpProxy.start({ host: url.hostname, port: Number(url.port || 5432) });
      lonely = await startServer({
        env: {
          ...process.env,
          DATABASE_URL: proxy.url(process.env.DATABASE_URL!),
          DB_MIGRATE_ON_START: 'false',
          REDIS_URL: undefined,
          METRICS_TOKEN: undefined,
        },
      });
    });

    afterAll(async () => {
      await lonely?.stop();
      proxy?.close();
    });

    it('/readyz is 503 naming the database while it cannot be reached, 200 once it can', async () => {
      const up = await fetch(`${lonely.baseUrl}/readyz`);
      expect({ status: up.status, body: await up.json() }).toEqual({
        status: 200,
        body: { status: 'ready', checks: { database: 'ok', redis: 'disabled' } },
      });

      proxy.refuse();
      proxy.cut();
      const down = await fetch(`${lonely.baseUrl}/readyz`);
      expect({ status: down.status, body: await down.json() }).toEqual({
        status: 503,
        body: { status: 'not_ready', checks: { database: 'failed', redis: 'disabled' } },
      });

      await proxy.accept();
      await waitFor(async () => (await fetch(`${lonely.baseUrl}/readyz`)).status === 200, {
        what: '/readyz 200 again',
        timeout: 10_000,
        interval: 50,
      });
    });

    it('/metrics is 404 without METRICS_TOKEN', async () => {
      expect((await fetch(`${lonely.baseUrl}/metrics`)).status).toBe(404);
    });
  });
});
