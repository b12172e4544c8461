import { randomBytes, randomUUID } from 'node:crypto';
import { Agent, IncomingHttpHeaders, request as httpRequest } from 'node:http';
import type { Server } from 'node:http';
import { Queue } from 'bullmq';
import { Client } from 'pg';
import { SECRET_BOX } from '../../src/common/crypto/crypto.module';
import type { SecretBox } from '../../src/common/crypto/secret-box';
import { DELIVERY_QUEUE } from '../../src/platform/outbox/delivery/delivery-queue';
import { TestApi } from '../support/api';
import { cancelPendingDeliveries, newTenant, TestTenant } from '../support/factories';
import { TEST_REDIS_URL } from '../support/test-env';
import { listenOnLoopback } from '../support/fake-http-server';
import type { WebhookEventResponse } from '../../src/modules/webhook-endpoints/dto/webhook-event.response';
import type { MemberResponse as Member } from '../../src/modules/members/dto/member.response';

/**
 * "No 500 for anything a client can send" and "nothing is half-written" under concurrency.
 *
 * Each test fires one race (10-30 requests at once over keep-alive sockets, raw node:http so that
 * they really overlap), then checks that every answer is below 500 and, when an error, an
 * application/problem+json body with the documented code; and afterwards an invariant through the
 * API and in PostgreSQL: one row for one key, the state one request wrote (never a mix of two),
 * one outbox event per committed change and none for a refused one, caches that follow commits.
 *
 * Redis is on (list totals, rate limits and the delivery queue under a prefix of this file only).
 */

/** An answer; `T` is what the test expects its JSON body to be (parsed, not checked, beyond the OpenAPI check). */
interface Answer<T = unknown> {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  body: T;
}
type Outcome<T = unknown> = Answer<T> | { error: string };
interface ProblemBody {
  code?: unknown;
  status?: unknown;
}
/** Allowed statuses and, for errors, the code each must carry. */
type Allowed = Record<number, string | null>;
interface Request {
  method: string;
  path: string;
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
}
type Call = Request & { allowed: Allowed };

/** A webhook event with the record it carries typed as `T`. */
type EventPayload<T = Record<string, unknown>> = WebhookEventResponse & { data: { object: T } };

const TIMEOUT_MS = 15_000;
const PARALLEL = 32;
/** Webhook targets: loopback is allowed in this file; nothing listens on port 9 (deliveries are queued, never made here). */
const LOOPBACK_URL = 'http://127.0.0.1:9/hooks';
const QUEUE_PREFIX = `concurrency-${randomBytes(4).toString('hex')}`;

const uuidOf = (publicId: string) =>
  publicId.slice(publicId.indexOf('_') + 1).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('concurrency: races end in clean answers and whole states', () => {
  let api: TestApi;
  let server: Server;
  let port: number;
  let agent: Agent;
  let pg: Client;
  const churches: TestTenant[] = [];

  // ------------------------------------------------------------------------------------------
  // Transport and judgement
  // ------------------------------------------------------------------------------------------

  function send<T = unknown>(church: TestTenant, req: Request): Promise<Outcome<T>> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${req.token ?? church.token}`,
      'X-Tenant': church.slug,
      ...req.headers,
    };
    const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
    if (payload !== undefined) headers['Content-Type'] = 'application/json';
    return new Promise((resolve) => {
      const r = httpRequest(
        { host: '127.0.0.1', port, method: req.method, path: req.path, headers, agent, timeout: TIMEOUT_MS },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown;
            try {
              body = text ? JSON.parse(text) : undefined;
            } catch {
              body = undefined;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: body as T });
          });
          res.on('error', (e) => resolve({ error: `response error ${e.message}` }));
        },
      );
      r.on('timeout', () => r.destroy(new Error(`no answer within ${TIMEOUT_MS} ms (a hang or a lock wait)`)));
      r.on('error', (e) => resolve({ error: e.message }));
      r.end(payload);
    });
  }

  /** What is wrong with one answer, or null: a hang, a 5xx, an undocumented status or code, a body off the OpenAPI description. */
  function judge(req: Request, outcome: Outcome, allowed: Allowed): string | null {
    if ('error' in outcome) return `no answer: ${outcome.error}`;
    const { status, headers, body } = outcome;
    const problem = body as ProblemBody | undefined;
    if (status >= 500) return `status ${status}`;
    if (!(status in allowed)) return `status ${status} not among ${Object.keys(allowed).join('/')}`;
    const type = String(headers['content-type'] ?? '');
    const path = req.path.split('?')[0];
    if (status >= 400) {
      if (!type.startsWith('application/problem+json'))
        return `error without problem+json (${type || 'no content-type'})`;
      if (problem?.code !== allowed[status])
        return `code ${String(problem?.code)}, expected ${String(allowed[status])}`;
      if (problem?.status !== status) return `problem status ${String(problem?.status)} differs from HTTP ${status}`;
    }
    if (status === 204 || status === 304) return null;
    const problems = api.openapi.check(req.method, path, status, type, body);
    return problems.length ? `answer not as documented: ${problems.join('; ')}` : null;
  }

  /** Fires every request at once; fails with every wrong answer listed. */
  async function race<T = unknown>(church: TestTenant, requests: Call[]): Promise<Answer<T>[]> {
    const outcomes = await Promise.all(requests.map((req) => send<T>(church, req)));
    const failures = outcomes
      .map((o, i) => {
        const wrong = judge(requests[i], o, requests[i].allowed);
        return (
          wrong &&
          `${requests[i].method} ${requests[i].path} -> ${'status' in o ? o.status : '-'}: ${wrong} ${'text' in o ? o.text.slice(0, 300) : ''}`
        );
      })
      .filter((f): f is string => f !== null);
    if (failures.length)
      throw new Error(`${failures.length} of ${requests.length} answers are wrong:\n${failures.join('\n')}`);
    return outcomes as Answer<T>[];
  }

  /** One request that must succeed with `status`. */
  async function ok<T = unknown>(church: TestTenant, req: Request, status = 200): Promise<Answer<T>> {
    const [answer] = await race<T>(church, [{ ...req, allowed: { [status]: null } }]);
    return answer;
  }

  async function church(): Promise<TestTenant> {
    const made = await newTenant(api);
    churches.push(made);
    return made;
  }

  /** Every event of `type` in the church's log (GET /v1/webhook-events, all pages). */
  async function eventsOf<T = Record<string, unknown>>(c: TestTenant, type: string): Promise<EventPayload<T>[]> {
    const all: EventPayload<T>[] = [];
    let cursor: string | null = null;
    do {
      const res: Answer<{ data: EventPayload<T>[]; next_cursor: string | null }> = await ok(c, {
        method: 'GET',
        path: `/v1/webhook-events?type=${type}&limit=250${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      });
      all.push(...res.body.data);
      cursor = res.body.next_cursor;
    } while (cursor);
    return all;
  }

  const count = (answers: Answer[], status: number) => answers.filter((a) => a.status === status).length;
  const sql = async <T = Record<string, unknown>>(text: string, values: unknown[]) =>
    (await pg.query(text, values)).rows as T[];

  beforeAll(async () => {
    // TypeORM logs each refused statement (the unique index settling a race) to console.log.
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
    api = await TestApi.start({
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX,
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      WEBHOOK_TIMEOUT_MS: '1000',
    });
    server = api.app.getHttpServer();
    port = await listenOnLoopback(server);
    agent = new Agent({ keepAlive: true, maxSockets: PARALLEL });
    pg = new Client({ connectionString: process.env.DATABASE_URL });
    await pg.connect();
  });

  afterAll(async () => {
    if (api && churches.length)
      await cancelPendingDeliveries(
        api,
        churches.map((c) => c.id),
      ).catch(() => undefined);
    const queue = new Queue(DELIVERY_QUEUE, { connection: { url: TEST_REDIS_URL }, prefix: QUEUE_PREFIX });
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    await pg?.end();
    agent?.destroy();
    await api?.close();
    delete process.env.REDIS_URL;
    delete process.env.QUEUE_PREFIX;
    delete process.env.WEBHOOK_ALLOW_LOOPBACK;
    delete process.env.WEBHOOK_TIMEOUT_MS;
    jest.restoreAllMocks();
  });

  // ------------------------------------------------------------------------------------------
  // Unique keys
  // ------------------------------------------------------------------------------------------

  it('20 creates of one campus key: one 201, nineteen 409 conflict, one row, one campus.created', async () => {
    const c = await church();
    const answers = await race(
      c,
      range(20).map((i) => ({
        method: 'POST',
        path: '/v1/campuses',
        body: { key: 'same-key', name: `Campus ${i}` },
        allowed: { 201: null, 409: 'conflict' },
      })),
    );
    expect(count(answers, 201)).toBe(1);
    expect(count(answers, 409)).toBe(19);
    const created = answers.find((a) => a.status === 201)!;
    const list = await ok<{ data: unknown[] }>(c, { method: 'GET', path: '/v1/campuses?limit=250' });
    expect(list.body.data).toEqual([created.body]);
    expect(await sql(`SELECT count(*)::int AS n FROM campuses WHERE tenant_id = $1`, [c.id])).toEqual([{ n: 1 }]);
    const events = await eventsOf(c, 'campus.created');
    expect(events.map((e) => e.data.object)).toEqual([created.body]);
  });

  it('10 PATCHes renaming different campuses to one key: one 200, nine 409 conflict, the key held once', async () => {
    const c = await church();
    const ids: string[] = [];
    for (const i of range(10))
      ids.push(
        (
          await ok<{ id: string }>(
            c,
            { method: 'POST', path: '/v1/campuses', body: { key: `campus-${i}`, name: `Campus ${i}` } },
            201,
          )
        ).body.id,
      );
    const answers = await race(
      c,
      ids.map((id) => ({
        method: 'PATCH',
        path: `/v1/campuses/${id}`,
        body: { key: 'wanted' },
        allowed: { 200: null, 409: 'conflict' },
      })),
    );
    expect(count(answers, 200)).toBe(1);
    expect(
      await sql(`SELECT count(*)::int AS n FROM campuses WHERE tenant_id = $1 AND key = 'wanted'`, [c.id]),
    ).toEqual([{ n: 1 }]);
    const winner = ids[answers.findIndex((a) => a.status === 200)];
    expect((await ok<{ key: string }>(c, { method: 'GET', path: `/v1/campuses/${winner}` })).body.key).toBe('wanted');
  });

  // ------------------------------------------------------------------------------------------
  // One member written by many
  // ------------------------------------------------------------------------------------------

  it('20 PATCHes of one member (two groups of fields): each group is one request’s values, and the last member.updated carries the final state', async () => {
    const c = await church();
    await ok(
      c,
      { method: 'POST', path: '/v1/custom-fields', body: { key: 'round', label: 'Round', type: 'number' } },
      201,
    );
    const member = (
      await ok<Member>(
        c,
        {
          method: 'POST',
          path: '/v1/members',
          body: { first_name: 'Orig', last_name: 'Inal', email: 'orig@example.org' },
        },
        201,
      )
    ).body;
    const statuses = ['regular', 'member', 'leader'];
    // Even: the name and email together; odd: the status and the custom fields together.
    const bodies = range(20).map((i) =>
      i % 2 === 0
        ? { first_name: `F${i}`, last_name: `L${i}`, email: `m${i}@example.org` }
        : { status: statuses[i % 3], custom_fields: { round: i } },
    );
    const answers = await race(
      c,
      bodies.map((body) => ({ method: 'PATCH', path: `/v1/members/${member.id}`, body, allowed: { 200: null } })),
    );
    const final = (await ok<Member>(c, { method: 'GET', path: `/v1/members/${member.id}` })).body;
    const nameGroups = bodies.filter((_, i) => i % 2 === 0).map((b) => JSON.stringify(b));
    const statusGroups = bodies.filter((_, i) => i % 2 === 1).map((b) => JSON.stringify(b));
    expect(nameGroups).toContain(
      JSON.stringify({ first_name: final.first_name, last_name: final.last_name, email: final.email }),
    );
    expect(statusGroups).toContain(JSON.stringify({ status: final.status, custom_fields: final.custom_fields }));

    // One member.updated per 200, each carrying the member as it was after that change: the one
    // that wrote last announces exactly what GET now shows (not a copy read before another commit).
    const updated = (await eventsOf<Member>(c, 'member.updated')).filter((e) => e.data.object.id === member.id);
    expect(updated).toHaveLength(count(answers, 200));
    const last = updated.filter((e) => e.data.object.updated_at === final.updated_at);
    expect(last.length).toBeGreaterThanOrEqual(1);
    expect(last.map((e) => e.data.object)).toContainEqual(final);
  });

  it('PATCHes mixed with three DELETEs of one member: one 204, PATCHes 200 or 404, events exactly for the committed changes', async () => {
    const c = await church();
    const member = (
      await ok<Member>(c, { method: 'POST', path: '/v1/members', body: { first_name: 'Del', last_name: 'Eted' } }, 201)
    ).body;
    const requests = range(20).map((i): Call =>
      i === 5 || i === 10 || i === 15
        ? { method: 'DELETE', path: `/v1/members/${member.id}`, allowed: { 204: null, 404: 'resource_not_found' } }
        : {
            method: 'PATCH',
            path: `/v1/members/${member.id}`,
            body: { first_name: `F${i}`, last_name: `L${i}`, email: `d${i}@example.org` },
            allowed: { 200: null, 404: 'resource_not_found' },
          },
    );
    const answers = await race(c, requests);
    const deletes = answers.filter((_, i) => requests[i].method === 'DELETE');
    const patches = answers.filter((_, i) => requests[i].method === 'PATCH');
    expect(count(deletes, 204)).toBe(1);
    expect(count(deletes, 404)).toBe(2);
    const gone = await send(c, { method: 'GET', path: `/v1/members/${member.id}` });
    expect('status' in gone && gone.status).toBe(404);

    const updated = (await eventsOf<Member>(c, 'member.updated')).filter((e) => e.data.object.id === member.id);
    const deleted = (await eventsOf<Member>(c, 'member.deleted')).filter((e) => e.data.object.id === member.id);
    expect(updated).toHaveLength(count(patches, 200));
    expect(deleted).toHaveLength(1);
    // The deletion announces the member as it was deleted: the row's last values, not a copy read before a PATCH committed.
    const [row] = await sql<{ first_name: string; last_name: string; email: string | null }>(
      `SELECT first_name, last_name, email FROM members WHERE tenant_id = $1 AND id = $2`,
      [c.id, uuidOf(member.id)],
    );
    const object = deleted[0].data.object;
    expect({ first_name: object.first_name, last_name: object.last_name, email: object.email }).toEqual(row);
  });

  // ------------------------------------------------------------------------------------------
  // Idempotency keys
  // ------------------------------------------------------------------------------------------

  it('20 POSTs with one Idempotency-Key and body: one creation, the rest replays or 409 idempotency_in_progress', async () => {
    const c = await church();
    for (const [path, body, table] of [
      ['/v1/campuses', { key: 'idem', name: 'Idem' }, 'campuses'],
      ['/v1/members', { first_name: 'Idem', last_name: 'Potent' }, 'members'],
      [
        '/v1/members/bulk',
        {
          members: [
            { first_name: 'Bulk', last_name: 'One' },
            { first_name: 'Bulk', last_name: 'Two' },
          ],
        },
        'members',
      ],
    ] as const) {
      const key = randomUUID();
      const status = path.endsWith('bulk') ? 200 : 201;
      const before = (
        await sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = $1`, [c.id])
      )[0].n;
      const answers = await race(
        c,
        range(20).map(() => ({
          method: 'POST',
          path,
          body,
          headers: { 'Idempotency-Key': key },
          allowed: { [status]: null, 409: 'idempotency_in_progress' },
        })),
      );
      const done = answers.filter((a) => a.status === status);
      expect(done.filter((a) => a.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
      for (const a of done) expect(a.body).toEqual(done[0].body);
      for (const a of answers.filter((x) => x.status === 409)) expect(a.headers['retry-after']).toBe('1');
      const after = (
        await sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = $1`, [c.id])
      )[0].n;
      expect({ path, created: after - before }).toEqual({ path, created: path.endsWith('bulk') ? 2 : 1 });
    }
    expect(await eventsOf(c, 'campus.created')).toHaveLength(1);
    expect(await eventsOf(c, 'member.created')).toHaveLength(3);
  });

  it('one Idempotency-Key with 12 different bodies at once: at most one creation, the others 409 or 422', async () => {
    const c = await church();
    const key = randomUUID();
    const answers = await race<{ id: string }>(
      c,
      range(12).map((i) => ({
        method: 'POST',
        path: '/v1/members',
        body: { first_name: `Body${i}`, last_name: 'Differs' },
        headers: { 'Idempotency-Key': key },
        allowed: { 201: null, 409: 'idempotency_in_progress', 422: 'idempotency_key_reused' },
      })),
    );
    const created = answers.filter((a) => a.status === 201);
    expect(created.filter((a) => a.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    expect(new Set(created.map((a) => a.body.id)).size).toBe(1);
    expect(await sql(`SELECT count(*)::int AS n FROM members WHERE tenant_id = $1`, [c.id])).toEqual([{ n: 1 }]);
  });

  // ------------------------------------------------------------------------------------------
  // Bulk writes and the cached list totals
  // ------------------------------------------------------------------------------------------

  it('6 bulks of 200 rows while 24 lists count: every total is whole bulks, the final one exact', async () => {
    const c = await church();
    const bulk = (n: number) => ({
      method: 'POST',
      path: '/v1/members/bulk',
      body: {
        members: range(200).map((i) => ({
          first_name: `B${n}-${i}`,
          last_name: 'Bulk',
          status: i % 2 ? 'leader' : 'member',
        })),
      },
      allowed: { 200: null },
    });
    const listAll = { method: 'GET', path: '/v1/members?limit=1', allowed: { 200: null } };
    const listLeaders = { method: 'GET', path: '/v1/members?limit=1&status=leader', allowed: { 200: null } };
    const requests = range(30).map((i) => (i % 5 === 0 ? bulk(i) : i % 2 ? listAll : listLeaders));
    const answers = await race<{ total: number }>(c, requests);
    answers.forEach((a, i) => {
      if (requests[i].path.endsWith('bulk')) expect(a.body).toMatchObject({ created: 200, failed: 0 });
      else if (requests[i] === listAll)
        expect(a.body.total % 200).toBe(0); // a bulk is seen whole or not at all
      else expect(a.body.total % 100).toBe(0);
    });
    const [{ n }] = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM members WHERE tenant_id = $1 AND deleted_at IS NULL`,
      [c.id],
    );
    expect(n).toBe(1200);
    for (let again = 0; again < 2; again++) {
      // The first read after the race may count; the second is served from the cache: both exact.
      expect((await ok<{ total: number }>(c, { method: 'GET', path: '/v1/members?limit=1' })).body.total).toBe(1200);
      expect(
        (await ok<{ total: number }>(c, { method: 'GET', path: '/v1/members?limit=1&status=leader' })).body.total,
      ).toBe(600);
    }
    expect(await eventsOf(c, 'member.created')).toHaveLength(1200);
  });

  // ------------------------------------------------------------------------------------------
  // Tokens
  // ------------------------------------------------------------------------------------------

  it('12 token creations at once from one token: exactly its quota of 10 created, 2 rate_limited', async () => {
    const c = await church();
    const answers = await race<{ id: string }>(
      c,
      range(12).map((i) => ({
        method: 'POST',
        path: '/v1/auth/tokens',
        body: { name: `parallel ${i}`, scopes: ['read:members'] },
        allowed: { 201: null, 429: 'rate_limited' },
      })),
    );
    expect(count(answers, 201)).toBe(10);
    expect(new Set(answers.filter((a) => a.status === 201).map((a) => a.body.id)).size).toBe(10);
    for (const a of answers.filter((x) => x.status === 429))
      expect(Number(a.headers['retry-after'])).toBeGreaterThan(0);
    expect(
      await sql(`SELECT count(*)::int AS n FROM api_tokens WHERE tenant_id = $1 AND name LIKE 'parallel %'`, [c.id]),
    ).toEqual([{ n: 10 }]);
  });

  it('revoking one token 10 times while it is in use, and a token revoking itself 10 times: 204 or 401, then token_revoked', async () => {
    const c = await church();
    const made = await ok<{ id: string; token: string }>(
      c,
      { method: 'POST', path: '/v1/auth/tokens', body: { name: 'doomed', scopes: ['read:members'] } },
      201,
    );
    const { id, token } = made.body;
    await race(c, [
      ...range(10).map(() => ({ method: 'DELETE', path: `/v1/auth/tokens/${id}`, allowed: { 204: null } })),
      ...range(10).map(() => ({
        method: 'GET',
        path: '/v1/members?limit=1',
        token,
        allowed: { 200: null, 401: 'token_revoked' },
      })),
    ]);
    const refused = await send<ProblemBody>(c, { method: 'GET', path: '/v1/members?limit=1', token });
    expect('status' in refused && [refused.status, refused.body.code]).toEqual([401, 'token_revoked']);
    const revokedAt = (await ok<{ revoked_at: string | null }>(c, { method: 'GET', path: `/v1/auth/tokens/${id}` }))
      .body.revoked_at;
    expect(revokedAt).toEqual(expect.any(String));
    await ok(c, { method: 'DELETE', path: `/v1/auth/tokens/${id}` }, 204);
    expect(
      (await ok<{ revoked_at: string | null }>(c, { method: 'GET', path: `/v1/auth/tokens/${id}` })).body.revoked_at,
    ).toBe(revokedAt);

    const self = (
      await ok<{ id: string; token: string }>(
        c,
        { method: 'POST', path: '/v1/auth/tokens', body: { name: 'self', scopes: ['admin:*'] } },
        201,
      )
    ).body;
    const answers = await race(
      c,
      range(10).map(() => ({
        method: 'DELETE',
        path: `/v1/auth/tokens/${self.id}`,
        token: self.token,
        allowed: { 204: null, 401: 'token_revoked' },
      })),
    );
    expect(count(answers, 204)).toBeGreaterThanOrEqual(1);
    const after = await send<ProblemBody>(c, { method: 'GET', path: `/v1/auth/tokens/${self.id}`, token: self.token });
    expect('status' in after && [after.status, after.body.code]).toEqual([401, 'token_revoked']);
  });

  // ------------------------------------------------------------------------------------------
  // Webhook endpoints
  // ------------------------------------------------------------------------------------------

  it('8 PATCHes and 8 secret rolls of one endpoint at once (4 rounds): a whole PATCH wins, and the live secrets are the last two rolled', async () => {
    const c = await church();
    const box = api.app.get<SecretBox>(SECRET_BOX);
    for (let round = 0; round < 4; round++) {
      const created = (
        await ok<{ id: string; secret: string }>(
          c,
          { method: 'POST', path: '/v1/webhook-endpoints', body: { url: LOOPBACK_URL, events: ['member.created'] } },
          201,
        )
      ).body;
      const patches = range(8).map((i) => ({
        status: i % 2 ? 'disabled' : 'enabled',
        description: `description ${round}.${i}`,
      }));
      // A roll, a PATCH, a roll, a PATCH, ...
      let next = 0;
      const requests = range(16).map((i): Call =>
        i % 2 === 0
          ? { method: 'POST', path: `/v1/webhook-endpoints/${created.id}/roll-secret`, allowed: { 200: null } }
          : {
              method: 'PATCH',
              path: `/v1/webhook-endpoints/${created.id}`,
              body: patches[next++],
              allowed: { 200: null },
            },
      );
      const answers = await race(c, requests);
      const endpoint = (
        await ok<{ status: string; description: string; disabled_reason: string | null }>(c, {
          method: 'GET',
          path: `/v1/webhook-endpoints/${created.id}`,
        })
      ).body;
      expect(patches).toContainEqual({ status: endpoint.status, description: endpoint.description });
      expect(endpoint.disabled_reason === null).toBe(endpoint.status === 'enabled');

      const rolls = answers
        .filter((_, i) => requests[i].path.endsWith('roll-secret'))
        .map((a) => a.body as { secret: string; previous_secret_expires_at: string });
      const [row] = await sql<{
        secret_sealed: Buffer;
        previous_secret_sealed: Buffer | null;
        previous_secret_expires_at: Date | null;
      }>(
        `SELECT secret_sealed, previous_secret_sealed, previous_secret_expires_at FROM webhook_endpoints WHERE tenant_id = $1 AND id = $2`,
        [c.id, uuidOf(created.id)],
      );
      const current = box.open(row.secret_sealed);
      const previous = row.previous_secret_sealed && box.open(row.previous_secret_sealed);
      // Rolls are serial: the last one's secret signs, and the one it replaced is the secret rolled just before it
      // (not the original again: a roll that read the secret before another committed would lose that roll).
      const winner = rolls.find((r) => r.secret === current);
      expect({ round, winner: Boolean(winner) }).toEqual({ round, winner: true });
      expect({ round, previousWasRolled: rolls.some((r) => r.secret === previous) }).toEqual({
        round,
        previousWasRolled: true,
      });
      expect(row.previous_secret_expires_at?.toISOString()).toBe(winner!.previous_secret_expires_at);
    }
  });

  it('secret rolls and PATCHes racing a DELETE of the endpoint (10 rounds): 200 or 404 resource_not_found, never a 500', async () => {
    const c = await church();
    for (let round = 0; round < 10; round++) {
      const endpoint = (
        await ok<{ id: string }>(
          c,
          { method: 'POST', path: '/v1/webhook-endpoints', body: { url: LOOPBACK_URL, events: ['member.created'] } },
          201,
        )
      ).body;
      const path = `/v1/webhook-endpoints/${endpoint.id}`;
      const requests = range(16).map((i): Call => {
        if (i === 4) return { method: 'DELETE', path, allowed: { 204: null } };
        if (i % 3 === 0)
          return {
            method: 'PATCH',
            path,
            body: { description: `r${round}.${i}` },
            allowed: { 200: null, 404: 'resource_not_found' },
          };
        return { method: 'POST', path: `${path}/roll-secret`, allowed: { 200: null, 404: 'resource_not_found' } };
      });
      await race(c, requests);
      expect(
        await sql(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE tenant_id = $1 AND id = $2`, [
          c.id,
          uuidOf(endpoint.id),
        ]),
      ).toEqual([{ n: 0 }]);
    }
  });

  it('an endpoint deleted (twice) while members are created and it is patched, rolled and backfilled (3 rounds): members all 201, one 204, the rest 2xx or 404', async () => {
    const c = await church();
    let members = 0;
    for (let round = 0; round < 3; round++) {
      const endpoint = (
        await ok<{ id: string }>(
          c,
          { method: 'POST', path: '/v1/webhook-endpoints', body: { url: LOOPBACK_URL, events: ['member.created'] } },
          201,
        )
      ).body;
      const path = `/v1/webhook-endpoints/${endpoint.id}`;
      const gone = 'resource_not_found';
      const backfill = { type: 'member.created', from: '2000-01-01T00:00:00Z', to: '2100-01-01T00:00:00Z' };
      const requests = range(30).map((i): Call => {
        if (i === 8 || i === 20) return { method: 'DELETE', path, allowed: { 204: null, 404: gone } };
        if (i % 6 === 1)
          return { method: 'PATCH', path, body: { description: `d${i}` }, allowed: { 200: null, 404: gone } };
        if (i % 6 === 3) return { method: 'POST', path: `${path}/roll-secret`, allowed: { 200: null, 404: gone } };
        if (i % 10 === 5)
          return { method: 'POST', path: `${path}/backfill`, body: backfill, allowed: { 202: null, 404: gone } };
        return {
          method: 'POST',
          path: '/v1/members',
          body: { first_name: `Ev${round}.${i}`, last_name: 'Ent' },
          allowed: { 201: null },
        };
      });
      const answers = await race(c, requests);
      expect(
        count(
          answers.filter((_, i) => requests[i].method === 'DELETE'),
          204,
        ),
      ).toBe(1);
      members += answers.filter((_, i) => requests[i].path === '/v1/members').length;
      const gets = await send(c, { method: 'GET', path });
      expect('status' in gets && gets.status).toBe(404);
      expect(
        await sql(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1 AND endpoint_id = $2`, [
          c.id,
          uuidOf(endpoint.id),
        ]),
      ).toEqual([{ n: 0 }]);
    }
    expect(await eventsOf(c, 'member.created')).toHaveLength(members);
    expect(await sql(`SELECT count(*)::int AS n FROM members WHERE tenant_id = $1`, [c.id])).toEqual([{ n: members }]);
  });

  // ------------------------------------------------------------------------------------------
  // Kiosk devices
  // ------------------------------------------------------------------------------------------

  const kioskWorks = async (c: TestTenant, key: string) => {
    const res = await send<ProblemBody | undefined>(c, { method: 'GET', path: '/v1/events?limit=1', token: key });
    if (!('status' in res)) throw new Error(res.error);
    if (res.status !== 200 && res.body?.code !== 'token_revoked')
      throw new Error(`kiosk key answered ${res.status} ${res.text}`);
    return res.status === 200;
  };

  it('8 key rotations of one kiosk at once: exactly one key works afterwards, the one the device shows', async () => {
    const c = await church();
    const device = (
      await ok<{ id: string; key: string }>(
        c,
        { method: 'POST', path: '/v1/devices', body: { name: 'Lobby kiosk' } },
        201,
      )
    ).body;
    const answers = await race<{ key: string }>(
      c,
      range(8).map(() => ({ method: 'POST', path: `/v1/devices/${device.id}/rotate-key`, allowed: { 200: null } })),
    );
    const keys = [device.key, ...answers.map((a) => a.body.key)];
    const working: string[] = [];
    for (const key of keys) if (await kioskWorks(c, key)) working.push(key);
    expect(working).toHaveLength(1);
    const shown = (await ok<{ key_display: string }>(c, { method: 'GET', path: `/v1/devices/${device.id}` })).body
      .key_display;
    expect(shown.endsWith(working[0].slice(-4))).toBe(true);
    expect(
      await sql(
        `SELECT count(*)::int AS n FROM api_tokens WHERE tenant_id = $1 AND device_id = $2 AND revoked_at IS NULL`,
        [c.id, uuidOf(device.id)],
      ),
    ).toEqual([{ n: 1 }]);
  });

  it('a kiosk removed while its key is rotated: one 204, rotations 200 or 404, and no key of it works afterwards', async () => {
    const c = await church();
    const device = (
      await ok<{ id: string; key: string }>(
        c,
        { method: 'POST', path: '/v1/devices', body: { name: 'Doomed kiosk' } },
        201,
      )
    ).body;
    const requests = range(10).map((i): Call =>
      i === 3 || i === 7
        ? { method: 'DELETE', path: `/v1/devices/${device.id}`, allowed: { 204: null, 404: 'resource_not_found' } }
        : {
            method: 'POST',
            path: `/v1/devices/${device.id}/rotate-key`,
            allowed: { 200: null, 404: 'resource_not_found' },
          },
    );
    const answers = await race<{ key: string }>(c, requests);
    expect(
      count(
        answers.filter((_, i) => requests[i].method === 'DELETE'),
        204,
      ),
    ).toBe(1);
    const keys = [device.key, ...answers.filter((a) => a.status === 200).map((a) => a.body.key)];
    for (const key of keys) expect({ key, works: await kioskWorks(c, key) }).toEqual({ key, works: false });
    expect(
      await sql(
        `SELECT count(*)::int AS n FROM api_tokens WHERE tenant_id = $1 AND device_id = $2 AND revoked_at IS NULL`,
        [c.id, uuidOf(device.id)],
      ),
    ).toEqual([{ n: 0 }]);
  });

  // ------------------------------------------------------------------------------------------
  // Settings
  // ------------------------------------------------------------------------------------------

  it('CORS allowlist replaced while browsers call: once the PUT is answered, the new list applies', async () => {
    const c = await church();
    const origin = (n: number) => `https://app${n}.example.org`;
    for (let round = 0; round < 6; round++) {
      const allowed = [origin(round)];
      const calls = range(16).map((i) => ({
        method: 'GET',
        path: '/v1/members?limit=1',
        headers: { Origin: origin(round - (i % 2)) },
        allowed: { 200: null, 403: 'origin_not_allowed' },
      }));
      const [put] = await race(c, [
        { method: 'PUT', path: '/v1/settings/cors', body: { allowed_origins: allowed }, allowed: { 200: null } },
        ...calls,
      ]);
      expect(put.body).toEqual({ allowed_origins: allowed });
      const now = await send(c, { method: 'GET', path: '/v1/members?limit=1', headers: { Origin: origin(round) } });
      expect({ round, status: 'status' in now && now.status }).toEqual({ round, status: 200 });
      const old = await send(c, { method: 'GET', path: '/v1/members?limit=1', headers: { Origin: origin(round - 1) } });
      expect({ round, status: 'status' in old && old.status }).toEqual({ round, status: 403 });
    }
    // Parallel replacements: one whole list wins.
    const lists = range(10).map((i) => [origin(100 + i), origin(200 + i)]);
    await race(
      c,
      lists.map((l) => ({
        method: 'PUT',
        path: '/v1/settings/cors',
        body: { allowed_origins: l },
        allowed: { 200: null },
      })),
    );
    const final = (await ok<{ allowed_origins: string[] }>(c, { method: 'GET', path: '/v1/settings/cors' })).body
      .allowed_origins;
    expect(lists).toContainEqual(final);
  });
});
