import { randomBytes, randomUUID } from 'node:crypto';
import { Agent, IncomingHttpHeaders, request as httpRequest } from 'node:http';
import type { Server } from 'node:http';
import { Client } from 'pg';
import { isConnectionLoss } from '../../src/common/errors/database-errors';
import { TestApi } from '../support/api';
import { newTenant, TestTenant } from '../support/factories';
import { TcpProxy } from '../support/tcp-proxy';
import { sleep, waitFor } from '../support/wait';
import { listenOnLoopback } from '../support/fake-http-server';
import type { MemberResponse } from '../../src/modules/members/dto/member.response';

/**
 * Losing the database connection (a PostgreSQL restart, a network cut) is a 503 service_unavailable
 * with Retry-After, never a 500, and never half-writes: a member and its member.created event
 * commit together or not at all. The API talks to PostgreSQL through a TCP proxy that the tests
 * cut (every socket closed or reset, new connections refused for a moment); the server also ends the
 * API's sessions itself (pg_terminate_backend: 57P01, what a restart sends). Judged from outside.
 *
 * Requests go over raw HTTP rather than TestApi.send: the OpenAPI description does not list 503.
 * Each create carries an Idempotency-Key and is retried with it after a 503, the client's recovery
 * path when a connection is lost at COMMIT (the outcome is then unknown to the API).
 */

/** The fields the checks read, of a member (201) or a problem (503). */
interface Body {
  id?: string;
  code?: string;
  status?: number;
}
interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  body?: Body;
}
interface Attempt extends Answer {
  key: string;
  /** How many outages had begun when the request was sent. */
  epoch: number;
}
/** What the checks read of a member (row or member.created object). */
type Member = Pick<MemberResponse, 'id' | 'last_name'>;

const TIMEOUT_MS = 10_000;
const LOOPS = 8;
const KEYS_PER_LOOP = 25;
const DEADLINE_MS = 15_000;

describe('connection loss: 503 with Retry-After, never a 500, nothing half-written', () => {
  let api: TestApi;
  let proxy: TcpProxy;
  let server: Server;
  let port: number;
  let agent: Agent;
  let pg: Client;
  let church: TestTenant;
  const databaseUrl = process.env.DATABASE_URL!;
  /** Bumped at each outage, so that an answer tells which outage its request followed. */
  let epoch = 0;

  function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const all: Record<string, string> = {
      Authorization: `Bearer ${church.token}`,
      'X-Tenant': church.slug,
      'Accept-Language': 'en',
      ...headers,
    };
    const payload = body === undefined ? undefined : JSON.stringify(body);
    if (payload !== undefined) all['Content-Type'] = 'application/json';
    return new Promise((resolve, reject) => {
      const r = httpRequest(
        { host: '127.0.0.1', port, method, path, headers: all, agent, timeout: TIMEOUT_MS },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: Body | undefined;
            try {
              body = text ? (JSON.parse(text) as Body) : undefined;
            } catch {
              // not JSON: judged from the text
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
          });
          res.on('error', reject);
        },
      );
      r.on('timeout', () => r.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
      r.on('error', reject);
      r.end(payload);
    });
  }

  const create = async (key: string, lastName = key): Promise<Attempt> => {
    const at = epoch;
    return {
      ...(await send('POST', '/v1/members', { first_name: 'Cut', last_name: lastName }, { 'Idempotency-Key': key })),
      key,
      epoch: at,
    };
  };

  /** What is wrong with an answer to a create, or null. */
  function judge(a: Answer): string | null {
    if (a.status === 201) {
      const problems = api.openapi.check('POST', '/v1/members', 201, String(a.headers['content-type']), a.body);
      return problems.length ? `201 not as documented: ${problems.join('; ')}` : null;
    }
    if (a.status !== 503) return `status ${a.status}: ${a.text.slice(0, 300)}`;
    if (!String(a.headers['content-type']).startsWith('application/problem+json'))
      return `503 without problem+json (${String(a.headers['content-type'])})`;
    if (a.body?.code !== 'service_unavailable' || a.body.status !== 503) return `503 with ${a.text.slice(0, 300)}`;
    if (!/^\d+$/.test(String(a.headers['retry-after']))) return `503 without Retry-After`;
    return null;
  }

  const sql = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
    (await pg.query(text, values)).rows as T[];

  /** The church's members and member.created events, read as superuser past row-level security. */
  async function stored(): Promise<{ members: Member[]; events: Member[] }> {
    const members = await sql<Member>(`SELECT id::text, last_name FROM members WHERE tenant_id = $1 ORDER BY id`, [
      church.id,
    ]);
    const events = await sql<{ object: Member }>(
      `SELECT payload->'data'->'object' AS object FROM webhook_events WHERE tenant_id = $1 AND type = 'member.created'`,
      [church.id],
    );
    return { members, events: events.map((e) => e.object) };
  }

  const backendsWaiting = (query: string) =>
    sql<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'church-api'
          AND client_port = ANY($2::int[]) AND wait_event_type = 'Lock' AND query LIKE $1`,
      [query, proxy.upstreamPorts()],
    );

  /** Polls every 20 ms; fails after 5 s. */
  const pollFor = (what: string) => ({ what, timeout: 5_000, interval: 20 });

  /**
   * pg_terminate_backend on every session of this file's API (those behind the proxy): each gets
   * 57P01. Other files share the database and run meanwhile; their sessions are left alone.
   */
  const terminateBackends = () =>
    sql(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'church-api' AND client_port = ANY($1::int[])`,
      [proxy.upstreamPorts()],
    );

  const backendGone = (pid: number) => async () =>
    (await sql(`SELECT 1 FROM pg_stat_activity WHERE pid = $1`, [pid])).length === 0;

  /** Destroys every proxied connection (both sides) and counts the cut. */
  function cut(how: 'close' | 'reset'): number {
    epoch++;
    return proxy.cut(how);
  }

  beforeAll(async () => {
    const target = new URL(databaseUrl);
    proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    api = await TestApi.start({ DATABASE_URL: proxy.url(databaseUrl) });
    server = api.app.getHttpServer();
    port = await listenOnLoopback(server);
    agent = new Agent({ keepAlive: true, maxSockets: LOOPS * 2 });
    pg = new Client({ connectionString: databaseUrl });
    await pg.connect();
    church = await newTenant(api);
  });

  afterAll(async () => {
    await pg?.end();
    agent?.destroy();
    await api?.close();
    proxy?.close();
    process.env.DATABASE_URL = databaseUrl;
  });

  it(`${LOOPS} clients creating members through three outages (closed and refused, reset, sessions ended by the server): each answer 201 or 503, then 201 again; members = events = keys answered 201`, async () => {
    const attempts: Attempt[] = [];
    const done = new Set<string>();
    const stop = Date.now() + DEADLINE_MS;

    /** One client: creates KEYS_PER_LOOP members, retrying each key after a 503 until it is answered 201. */
    async function loop(): Promise<void> {
      for (let i = 0; i < KEYS_PER_LOOP && Date.now() < stop; i++) {
        const key = randomUUID();
        for (let tries = 0; tries < 50 && Date.now() < stop; tries++) {
          const attempt = await create(key);
          attempts.push(attempt);
          if (attempt.status === 201) {
            done.add(key);
            break;
          }
          if (attempt.status !== 503) break; // wrong: reported below, the client goes on
          await sleep(20);
        }
      }
    }

    const created = () => attempts.filter((a) => a.status === 201).length;
    const clients = Array.from({ length: LOOPS }, loop);
    const disruption = (async () => {
      await waitFor(async () => created() >= 30, pollFor('some members created'));
      // A restart: every connection closed, then nothing listens for a moment.
      proxy.refuse();
      cut('close');
      await sleep(150);
      await proxy.accept();
      await waitFor(
        async () => attempts.some((a) => a.epoch === 1 && a.status === 201),
        pollFor('members created after the first cut'),
      );
      // A network reset (RST) on every connection, reconnecting at once.
      cut('reset');
      await waitFor(
        async () => attempts.some((a) => a.epoch === 2 && a.status === 201),
        pollFor('members created after the second cut'),
      );
      // The server ends every session of the API, as a restart does (57P01 to idle and busy ones).
      epoch++;
      await terminateBackends();
    })();
    await Promise.all([...clients, disruption]);

    const wrong = attempts.map((a) => judge(a)).filter((w): w is string => w !== null);
    expect(wrong).toEqual([]);
    expect(attempts.filter((a) => a.status === 503).length).toBeGreaterThan(0);
    // Recovered without a restart: requests sent after the last disruption are created, and a new one is.
    expect(attempts.filter((a) => a.epoch === 3 && a.status === 201).length).toBeGreaterThan(0);
    expect(done.size).toBe(LOOPS * KEYS_PER_LOOP);
    const last = await create(randomUUID());
    expect(last.status).toBe(201);
    attempts.push(last);
    done.add(last.key);

    // Nothing half-written: one member and one member.created per key answered 201, no other.
    const { members, events } = await stored();
    const keys = [...done].sort();
    expect(members.map((m) => m.last_name).sort()).toEqual(keys);
    expect(events.map((e) => e.last_name).sort()).toEqual(keys);
    // Each key's 201 answers name one member (a retry after a 503 at COMMIT replays it).
    for (const key of done)
      expect(new Set(attempts.filter((a) => a.key === key && a.status === 201).map((a) => a.body?.id)).size).toBe(1);
  });

  it.each([
    ['every connection is cut', 'cut'],
    ['the server ends its session (57P01, as at a restart)', 'terminate'],
  ] as const)(
    'a request waiting on a lock (mid-query) when %s: 503, nothing written; its Idempotency-Key then creates the member once',
    async (_, how) => {
      const key = randomUUID();
      const name = `mid-query-${key}`;
      const locker = new Client({ connectionString: databaseUrl });
      await locker.connect();
      try {
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE members IN SHARE MODE');
        const pending = create(key, name);
        await waitFor(
          async () => (await backendsWaiting('%members%')).length === 1,
          pollFor('the insert to wait on the lock'),
        );
        const [{ pid }] = await backendsWaiting('%members%');
        if (how === 'cut') expect(cut('close')).toBeGreaterThan(0);
        else expect(await sql(`SELECT pg_terminate_backend($1) AS ended`, [pid])).toEqual([{ ended: true }]);
        const answer = await pending;
        expect({ status: answer.status, wrong: judge(answer) }).toEqual({ status: 503, wrong: null });
        await locker.query('ROLLBACK');
        // A cut session finds its client gone at its next read and rolls back.
        await waitFor(backendGone(pid), pollFor('the session to end'));
      } finally {
        await locker.end();
      }
      expect(await sql(`SELECT id FROM members WHERE tenant_id = $1 AND last_name = $2`, [church.id, name])).toEqual(
        [],
      );
      expect(
        await sql(
          `SELECT id FROM webhook_events WHERE tenant_id = $1 AND payload->'data'->'object'->>'last_name' = $2`,
          [church.id, name],
        ),
      ).toEqual([]);

      const retried = await create(key, name);
      expect(retried.status).toBe(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      const { members, events } = await stored();
      expect(members.filter((m) => m.last_name === name)).toHaveLength(1);
      expect(events.filter((e) => e.last_name === name).map((e) => e.id)).toEqual([retried.body?.id]);
    },
  );

  it('the connection lost at COMMIT: 503 (the outcome unknown to the API); here it committed whole, and its Idempotency-Key replays the member', async () => {
    const key = randomUUID();
    const name = `at-commit-${key}`;
    const HOLD = 7_262_020;
    // A deferred constraint trigger holds this member's COMMIT on an advisory lock the test holds.
    await sql(
      `CREATE FUNCTION connection_loss_hold_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_advisory_xact_lock(${HOLD}); RETURN NULL; END $$`,
    );
    await sql(
      `CREATE CONSTRAINT TRIGGER connection_loss_hold_commit AFTER INSERT ON members DEFERRABLE INITIALLY DEFERRED
         FOR EACH ROW WHEN (NEW.last_name LIKE 'at-commit-%') EXECUTE FUNCTION connection_loss_hold_commit()`,
    );
    const locker = new Client({ connectionString: databaseUrl });
    await locker.connect();
    try {
      await locker.query('SELECT pg_advisory_lock($1)', [HOLD]);
      const pending = create(key, name);
      await waitFor(
        async () => (await backendsWaiting('COMMIT')).length === 1,
        pollFor('the COMMIT to wait on the lock'),
      );
      const [{ pid }] = await backendsWaiting('COMMIT');
      expect(cut('close')).toBeGreaterThan(0);
      const answer = await pending;
      expect({ status: answer.status, wrong: judge(answer) }).toEqual({ status: 503, wrong: null });
      await locker.query('SELECT pg_advisory_unlock($1)', [HOLD]);
      await waitFor(backendGone(pid), pollFor('the cut session to end'));
    } finally {
      await locker.end();
      await sql(`DROP TRIGGER connection_loss_hold_commit ON members`);
      await sql(`DROP FUNCTION connection_loss_hold_commit()`);
    }
    // The server had the COMMIT: the member and its event are both there (never one without the other).
    const { members, events } = await stored();
    expect(members.filter((m) => m.last_name === name)).toHaveLength(1);
    const [event] = events.filter((e) => e.last_name === name);
    expect(events.filter((e) => e.last_name === name)).toHaveLength(1);

    const retried = await create(key, name);
    expect({ status: retried.status, replayed: retried.headers['idempotent-replayed'], id: retried.body?.id }).toEqual({
      status: 201,
      replayed: 'true',
      id: event.id,
    });
    expect((await stored()).members.filter((m) => m.last_name === name)).toHaveLength(1);
  });

  it('a CORS preflight while the database refuses connections: 503 service_unavailable, then answered again', async () => {
    const origin = `https://app-${randomBytes(3).toString('hex')}.example.org`; // never cached: the preflight must ask the database
    const preflight = () =>
      send('OPTIONS', '/v1/members', undefined, { Origin: origin, 'Access-Control-Request-Method': 'GET' });
    cut('close');
    proxy.refuse();
    let during: Answer;
    try {
      during = await preflight();
    } finally {
      await proxy.accept();
    }
    expect({ status: during.status, code: during.body?.code, retryAfter: during.headers['retry-after'] }).toEqual({
      status: 503,
      code: 'service_unavailable',
      retryAfter: '5',
    });
    let after = await preflight();
    for (let i = 0; i < 20 && after.status === 503; i++) after = await preflight();
    expect(after.status).toBe(403); // the origin is on no allowlist: refused, as before the outage
  });

  it('a tenant script (webhook bookkeeping, on a raw pool client) whose connection is cut fails with the loss, and the process and the pool carry on', async () => {
    const pending = api.db.runScriptInTenant(church.id, [`SELECT pg_sleep(1) AS held`]).then(
      () => null,
      (e: unknown) => e,
    );
    await waitFor(
      async () =>
        (
          await sql(
            `SELECT 1 FROM pg_stat_activity WHERE application_name = 'church-api' AND query LIKE '%pg_sleep(1) AS held%' AND state = 'active'`,
          )
        ).length === 1,
      pollFor('the script to run'),
    );
    expect(cut('close')).toBeGreaterThan(0);
    expect(isConnectionLoss(await pending)).toBe(true);
    expect(await api.db.runScriptInTenant(church.id, [`SELECT 1 AS one`])).toEqual([[{ one: 1 }]]);
  });
});
