import { ChurchApiError, ChurchClient, ChurchNetworkError, type ChurchClientOptions } from '../src/index';
import { retryAfterMs } from '../src/transport';

/** One request as the fake fetch saw it. */
interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

type Reply = Response | Error | ((seen: Seen) => Response | Error);

/** A fetch that records each request and answers from a script (the last answer repeats). */
function fakeFetch(...replies: Reply[]) {
  const seen: Seen[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    const entry: Seen = {
      method: request.method,
      url: new URL(request.url),
      headers: request.headers,
      body: request.body ? await request.text() : '',
    };
    seen.push(entry);
    const reply = replies[Math.min(seen.length, replies.length) - 1];
    const answer = typeof reply === 'function' ? reply(entry) : reply;
    if (answer instanceof Error) throw answer;
    return answer.clone();
  };
  return { fetch, seen };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers },
  });

const problem = (status: number, code: string, extra: Record<string, unknown> = {}) => ({
  type: `https://docs.example.org/errors/${code}`,
  title: code,
  status,
  detail: `detail of ${code}`,
  code,
  request_id: 'req_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
  ...extra,
});

const member = (id: string) => ({ id, first_name: 'Ana', last_name: 'Ruiz' });

function client(fetch: ChurchClientOptions['fetch'], options: Partial<ChurchClientOptions> = {}) {
  return new ChurchClient({
    token: 'chp_test',
    tenant: 'grace',
    baseUrl: 'http://api.test/',
    language: 'en',
    retries: { baseDelayMs: 1, maxDelayMs: 5 },
    fetch,
    ...options,
  });
}

describe('ChurchClient requests', () => {
  it('sends the token, the church, the language and JSON; path parameters are encoded', async () => {
    const { fetch, seen } = fakeFetch(json(200, { id: 'mem_1' }));
    await client(fetch).members.addTag('mem_1', 'Choir & Band');
    expect(seen[0].method).toBe('PUT');
    expect(seen[0].url.pathname).toBe('/v1/members/mem_1/tags/Choir%20%26%20Band');
    expect(seen[0].headers.get('authorization')).toBe('Bearer chp_test');
    expect(seen[0].headers.get('x-tenant')).toBe('grace');
    expect(seen[0].headers.get('accept-language')).toBe('en');
    expect(seen[0].headers.get('idempotency-key')).toBeNull();
  });

  it('sends filters by their names (age[gte]) and the body as JSON; a call may change the language', async () => {
    const { fetch, seen } = fakeFetch(json(200, { data: [], next_cursor: null, total: 0 }), json(201, member('m')));
    const c = client(fetch);
    await c.members.list({ campus: 'north', 'age[gte]': 18, sort: '-created_at' }).page();
    expect(seen[0].url.search).toBe('?campus=north&age[gte]=18&sort=-created_at');
    await c.members.create({ first_name: 'Ana', last_name: 'Ruiz' }, { language: 'pt' });
    expect(JSON.parse(seen[1].body)).toEqual({ first_name: 'Ana', last_name: 'Ruiz' });
    expect(seen[1].headers.get('content-type')).toBe('application/json');
    expect(seen[1].headers.get('accept-language')).toBe('pt');
  });

  it('answers undefined for a 204', async () => {
    const { fetch } = fakeFetch(new Response(null, { status: 204 }));
    await expect(client(fetch).members.delete('mem_1')).resolves.toBeUndefined();
  });

  it('refuses a client without token, church or base URL', () => {
    expect(() => new ChurchClient({ token: '', tenant: 'grace', baseUrl: 'http://api.test' })).toThrow(/token/);
    expect(() => new ChurchClient({ token: 't', tenant: 'grace', baseUrl: '' })).toThrow(/baseUrl/);
  });
});

describe('idempotency and retries', () => {
  it('sends a UUID v4 Idempotency-Key on a creating POST and the same key on its retry after a 503', async () => {
    const { fetch, seen } = fakeFetch(
      json(503, problem(503, 'service_unavailable'), { 'retry-after': '0' }),
      json(201, member('m')),
    );
    const created = await client(fetch).members.create({ first_name: 'Ana', last_name: 'Ruiz' });
    expect(created.id).toBe('m');
    expect(seen).toHaveLength(2);
    const key = seen[0].headers.get('idempotency-key');
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(seen[1].headers.get('idempotency-key')).toBe(key);
    expect(seen[1].body).toBe(seen[0].body);
  });

  it('makes a new key for each call, and takes the caller’s own', async () => {
    const { fetch, seen } = fakeFetch(json(201, member('m')));
    const c = client(fetch);
    await c.donations.create({ amount: 100, currency: 'MXN', fund_id: 'fnd_1' });
    await c.donations.create({ amount: 100, currency: 'MXN', fund_id: 'fnd_1' });
    await c.donations.create({ amount: 100, currency: 'MXN', fund_id: 'fnd_1' }, { idempotencyKey: 'my-key' });
    const keys = seen.map((s) => s.headers.get('idempotency-key'));
    expect(new Set(keys).size).toBe(3);
    expect(keys[2]).toBe('my-key');
  });

  it('retries a network error of a creating POST with the same key', async () => {
    const { fetch, seen } = fakeFetch(new TypeError('fetch failed'), json(201, member('m')));
    await client(fetch).members.create({ first_name: 'Ana', last_name: 'Ruiz' });
    expect(seen).toHaveLength(2);
    expect(seen[1].headers.get('idempotency-key')).toBe(seen[0].headers.get('idempotency-key'));
  });

  it('retries 409 idempotency_in_progress and 429, honouring Retry-After', async () => {
    const started = Date.now();
    const { fetch, seen } = fakeFetch(
      json(409, problem(409, 'idempotency_in_progress'), { 'retry-after': '0' }),
      json(429, problem(429, 'rate_limited'), { 'retry-after': '1' }),
      json(201, member('m')),
    );
    await client(fetch).members.create({ first_name: 'Ana', last_name: 'Ruiz' });
    expect(seen).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
  });

  it('gives up after maxAttempts and throws the last answer', async () => {
    const { fetch, seen } = fakeFetch(json(503, problem(503, 'service_unavailable')));
    const error = await client(fetch, { retries: { maxAttempts: 3, baseDelayMs: 1 } })
      .members.get('mem_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChurchApiError);
    expect((error as ChurchApiError).status).toBe(503);
    expect(seen).toHaveLength(3);
  });

  it('throws a ChurchNetworkError with its cause once the attempts are spent', async () => {
    const cause = new TypeError('fetch failed');
    const { fetch, seen } = fakeFetch(cause);
    const error = (await client(fetch)
      .members.get('mem_1')
      .catch((e: unknown) => e)) as ChurchNetworkError;
    expect(error).toBeInstanceOf(ChurchNetworkError);
    expect(error.attempts).toBe(4);
    expect(error.cause).toBe(cause);
    expect(seen).toHaveLength(4);
  });

  it('does not repeat a POST that takes no Idempotency-Key after a 503 or a network error', async () => {
    for (const failure of [json(503, problem(503, 'service_unavailable')), new TypeError('fetch failed')]) {
      const { fetch, seen } = fakeFetch(failure, json(200, { secret: 'whsec_x' }));
      await expect(client(fetch).webhookEndpoints.rollSecret('whe_1')).rejects.toBeInstanceOf(Error);
      expect(seen).toHaveLength(1);
      expect(seen[0].headers.get('idempotency-key')).toBeNull();
    }
  });

  it('does not retry other errors, nor a Retry-After longer than maxRetryAfterMs', async () => {
    const { fetch, seen } = fakeFetch(json(429, problem(429, 'rate_limited'), { 'retry-after': '3600' }));
    await expect(client(fetch).members.get('mem_1')).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
    expect(seen).toHaveLength(1);
    const conflict = fakeFetch(json(409, problem(409, 'conflict')));
    await expect(client(conflict.fetch).groups.close('grp_1')).rejects.toMatchObject({ code: 'conflict' });
    expect(conflict.seen).toHaveLength(1);
  });

  it('retries: false makes one attempt', async () => {
    const { fetch, seen } = fakeFetch(json(503, problem(503, 'service_unavailable')));
    await expect(client(fetch, { retries: false }).members.get('mem_1')).rejects.toMatchObject({ status: 503 });
    expect(seen).toHaveLength(1);
  });

  it('timeoutMs aborts an attempt that gets no answer, and the next attempt is made', async () => {
    const seen: string[] = [];
    const silent = (request: Request) =>
      new Promise<Response>((_, reject) => {
        seen.push(request.method);
        request.signal.addEventListener('abort', () => reject(request.signal.reason as Error));
      });
    const error = (await client(silent, { timeoutMs: 30, retries: { maxAttempts: 2, baseDelayMs: 1 } })
      .members.get('mem_1')
      .catch((e: unknown) => e)) as ChurchNetworkError;
    expect(error).toBeInstanceOf(ChurchNetworkError);
    expect(error.message).toMatch(/no answer within 30 ms \(2 attempts\)/);
    expect(seen).toEqual(['GET', 'GET']);
  });

  it('an abort stops the call during its backoff', async () => {
    const { fetch, seen } = fakeFetch(json(503, problem(503, 'service_unavailable'), { 'retry-after': '30' }));
    const controller = new AbortController();
    const call = client(fetch).members.get('mem_1', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 50);
    await expect(call).rejects.toThrow('stop');
    expect(seen).toHaveLength(1);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
    const inFive = retryAfterMs(new Date(Date.now() + 5_000).toUTCString())!;
    expect(inFive).toBeGreaterThan(3_000);
    expect(inFive).toBeLessThanOrEqual(5_000);
  });
});

describe('errors', () => {
  it('throws a ChurchApiError with the problem fields', async () => {
    const errors = [{ field: 'email', issue: 'invalid_format', message: 'must be an e-mail address' }];
    const body = problem(422, 'validation_failed', { errors });
    const { fetch } = fakeFetch(json(422, body, { 'x-request-id': 'req_x' }));
    const error = (await client(fetch)
      .members.create({ first_name: 'Ana', last_name: 'Ruiz', email: 'nope' })
      .catch((e: unknown) => e)) as ChurchApiError;
    expect(error).toBeInstanceOf(ChurchApiError);
    expect(error).toMatchObject({
      name: 'ChurchApiError',
      status: 422,
      code: 'validation_failed',
      title: 'validation_failed',
      detail: 'detail of validation_failed',
      request_id: 'req_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
      errors,
    });
    expect(error.message).toBe('422 validation_failed: detail of validation_failed');
  });

  it('names a body that is not a problem by its status', async () => {
    const { fetch } = fakeFetch(new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    const error = (await client(fetch)
      .members.get('mem_1')
      .catch((e: unknown) => e)) as ChurchApiError;
    expect(error).toMatchObject({ status: 502, code: 'http_502', title: 'Bad Gateway', errors: [] });
    expect(error.detail).toContain('Bad gateway');
  });
});

describe('lists', () => {
  it('follows next_cursor as cursor and asks for the count on the first page only', async () => {
    const pages = [
      { data: [member('m1'), member('m2')], next_cursor: 'c1', total: 3 },
      { data: [member('m3')], next_cursor: null, total: null },
    ];
    const { fetch, seen } = fakeFetch(json(200, pages[0]), json(200, pages[1]));
    const ids: string[] = [];
    for await (const m of client(fetch).members.list({ campus: 'north', limit: 2 })) ids.push(m.id);
    expect(ids).toEqual(['m1', 'm2', 'm3']);
    expect(seen.map((s) => Object.fromEntries(s.url.searchParams))).toEqual([
      { campus: 'north', limit: '2' },
      { campus: 'north', limit: '2', cursor: 'c1', total: 'false' },
    ]);
  });

  it('pages() gives the pages and toArray(max) stops early; nothing is fetched before iterating', async () => {
    const { fetch, seen } = fakeFetch((request) =>
      request.url.searchParams.get('cursor') === 'c1'
        ? json(200, { data: [member('m3'), member('m4')], next_cursor: null, total: null })
        : json(200, { data: [member('m1'), member('m2')], next_cursor: 'c1', total: 4 }),
    );
    const list = client(fetch).members.list();
    expect(seen).toHaveLength(0);
    expect((await list.toArray(1)).map((m) => m.id)).toEqual(['m1']);
    expect(seen).toHaveLength(1);
    const totals: (number | null | undefined)[] = [];
    for await (const page of list.pages()) totals.push(page.total);
    expect(totals).toEqual([4, null]);
  });

  it('a list route without a total parameter is not sent one', async () => {
    const { fetch, seen } = fakeFetch(
      json(200, { data: [{ id: 'chg_1' }], next_cursor: 'c1', total: null }),
      json(200, { data: [], next_cursor: null, total: null }),
    );
    await client(fetch).members.history('mem_1').toArray();
    expect(seen[1].url.search).toBe('?cursor=c1');
  });
});

describe('changes', () => {
  const change = (id: string) => ({ id, object_type: 'member', object_id: 'mem_1', op: 'upsert', changed_at: '' });

  it('follow() reads while has_more, then polls from next_cursor; an abort ends the iteration', async () => {
    const { fetch, seen } = fakeFetch(
      json(200, { data: [change('chg_1'), change('chg_2')], next_cursor: 'c2', has_more: true }),
      json(200, { data: [change('chg_3')], next_cursor: 'c3', has_more: false }),
      json(200, { data: [], next_cursor: 'c3', has_more: false }),
      json(200, { data: [change('chg_4')], next_cursor: 'c4', has_more: false }),
    );
    const controller = new AbortController();
    const feed = client(fetch).changes.follow({
      since: 'c0',
      types: ['member', 'household'],
      intervalMs: 5,
      signal: controller.signal,
    });
    const ids: string[] = [];
    for await (const c of feed) {
      ids.push(c.id);
      if (c.id === 'chg_4') controller.abort();
    }
    expect(ids).toEqual(['chg_1', 'chg_2', 'chg_3', 'chg_4']);
    expect(seen.map((s) => s.url.searchParams.get('since'))).toEqual(['c0', 'c2', 'c3', 'c3']);
    expect(seen[0].url.searchParams.get('types')).toBe('member,household');
    expect(feed.cursor).toBe('c4'); // chg_4 was handed out: resume after it
  });

  it('head() answers the cursor', async () => {
    const { fetch, seen } = fakeFetch(json(200, { cursor: 'MS4w' }));
    await expect(client(fetch).changes.head()).resolves.toEqual({ cursor: 'MS4w' });
    expect(seen[0].url.pathname).toBe('/v1/changes/head');
  });
});
