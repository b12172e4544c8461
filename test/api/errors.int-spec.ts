import type { Response } from 'supertest';
import { generateToken } from '../../src/platform/auth/token-format';
import { TokensService } from '../../src/platform/auth/tokens.service';
import { TenantsService } from '../../src/platform/tenancy/tenants.service';
import { TestApi } from '../support/api';
import { inTenant, newTenant, newToken, TestTenant, uniqueSlug } from '../support/factories';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import { FORMAT_CATALOG } from '../../src/common/errors/catalog';
import { as, expectProblem } from '../support/http';

const TYPE_BASE = 'https://docs.example.org/errors/';
/** What must never reach a client: stack frames, file paths, driver and SQL text. */
const LEAK =
  /(\n\s*at\s|\bat\s+\S+\s+\(|node_modules|\/src\/|\.ts:\d+|\.js:\d+|QueryFailedError|TypeORM|SELECT\s|INSERT\s+INTO|DELETE\s+FROM|UPDATE\s+\w+\s+SET|syntax error|violates|duplicate key|SQLSTATE|stack)/i;

/**
 * Every error is RFC 9457 problem JSON: status and code, the problem content type, a type URL
 * ending with the code, a request id equal to X-Request-Id, localized text, and nothing internal.
 */
function expectFullProblem(res: Response, status: number, code: string): Problem {
  const body = expectProblem(res, status, code);
  expect(body.status).toBe(status);
  expect(body.type).toBe(TYPE_BASE + code);
  expect(body.type.endsWith(`/${code}`)).toBe(true);
  expect(body.request_id).toMatch(/^req_[0-9a-f]{32}$/);
  expect(res.headers['x-request-id']).toBe(body.request_id);
  expect(typeof body.title).toBe('string');
  expect(body.title.length).toBeGreaterThan(0);
  expect(typeof body.detail).toBe('string');
  expect(res.headers['x-powered-by']).toBeUndefined();
  expect(JSON.stringify(body)).not.toMatch(LEAK);
  expect(Object.keys(body)).not.toContain('stack');
  return body;
}

describe('errors (RFC 9457)', () => {
  let api: TestApi;
  let church: TestTenant;
  let other: TestTenant;
  let memberId: string;

  beforeAll(async () => {
    api = await TestApi.start();
    // Business plan: this file makes many calls within seconds, more than a starter church's 60 per minute.
    church = await newTenant(api, { plan: 'business' });
    other = await newTenant(api, { plan: 'business' });
    const created = await api.post<{ id: string }>('/v1/members', {
      ...as(church),
      body: { first_name: 'Ana', last_name: 'Ruiz' },
    });
    expect(created.status).toBe(201);
    memberId = created.body.id;
  });
  afterAll(() => api.close());

  describe('400', () => {
    it('missing_tenant', async () => {
      expectFullProblem(await api.get('/v1/members', { token: church.token }), 400, 'missing_tenant');
    });

    it('invalid_json: a broken JSON body', async () => {
      const res = await api.post('/v1/members', {
        ...as(church),
        body: '{"first_name": "Ana", "last_name":',
        raw: { contentType: 'application/json' },
      });
      expectFullProblem(res, 400, 'invalid_json');
    });

    it.each([
      ['limit out of range', '?limit=0', 'limit'],
      ['limit too large', '?limit=251', 'limit'],
      ['unknown sort field', '?sort=shoe_size', 'sort'],
      ['unknown filter', '?shoe_size=42', 'shoe_size'],
      ['bad filter value', '?active=maybe', 'active'],
    ])('invalid_parameter: %s', async (_label, query, field) => {
      const body = expectFullProblem(await api.get(`/v1/members${query}`, as(church)), 400, 'invalid_parameter');
      expect(body.errors?.map((e) => e.field)).toContain(field);
      for (const e of body.errors ?? [])
        expect(e).toEqual({ field: expect.any(String), issue: expect.any(String), message: expect.any(String) });
    });

    it('invalid_parameter: a garbage cursor is a 400, never a 500', async () => {
      expectFullProblem(await api.get('/v1/members?cursor=not-a-cursor', as(church)), 400, 'invalid_parameter');
    });

    it('invalid_parameter lists every bad parameter at once', async () => {
      const body = expectFullProblem(
        await api.get('/v1/members?limit=0&sort=shoe_size&shoe_size=1', as(church)),
        400,
        'invalid_parameter',
      );
      expect(body.errors?.map((e) => e.field).sort()).toEqual(['limit', 'shoe_size', 'sort']);
    });
  });

  describe('401', () => {
    it('unauthorized: no token', async () => {
      const res = await api.get('/v1/members', { tenant: church.slug });
      expectFullProblem(res, 401, 'unauthorized');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    });

    it('unauthorized: an unknown token', async () => {
      const res = await api.get('/v1/members', { tenant: church.slug, token: generateToken('pat') });
      expectFullProblem(res, 401, 'unauthorized');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    });

    it('token_expired', async () => {
      const issued = await newToken(api, church, ['read:members']);
      await api.db.platform.query(`UPDATE api_tokens SET expires_at = now() - interval '1 minute' WHERE id = $1`, [
        issued.uuid,
      ]);
      const res = await api.get('/v1/members', { tenant: church.slug, token: issued.token });
      expectFullProblem(res, 401, 'token_expired');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    });

    it('token_revoked', async () => {
      const issued = await newToken(api, church, ['read:members']);
      await inTenant(api, church.id, () => api.app.get(TokensService).revoke(issued.uuid));
      const res = await api.get('/v1/members', { tenant: church.slug, token: issued.token });
      expectFullProblem(res, 401, 'token_revoked');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    });
  });

  describe('403', () => {
    it('tenant_forbidden', async () => {
      expectFullProblem(
        await api.get('/v1/members', { token: church.token, tenant: other.slug }),
        403,
        'tenant_forbidden',
      );
      expectFullProblem(
        await api.get('/v1/members', { token: church.token, tenant: uniqueSlug('ghost') }),
        403,
        'tenant_forbidden',
      );
    });

    it('scope_insufficient', async () => {
      const issued = await newToken(api, church, ['read:members']);
      const res = await api.post('/v1/campuses', {
        tenant: church.slug,
        token: issued.token,
        body: { key: 'nope', name: 'Nope' },
      });
      const body = expectFullProblem(res, 403, 'scope_insufficient');
      expect(body.detail).toContain('write:campuses');
      expect(res.headers['www-authenticate']).toContain('error="insufficient_scope"');
    });

    it('tenant_inactive', async () => {
      const suspended = await newTenant(api, { plan: 'business' });
      await api.app.get(TenantsService).update(suspended.slug, { status: 'suspended' });
      expectFullProblem(await api.get('/v1/members', as(suspended)), 403, 'tenant_inactive');
    });
  });

  describe('404', () => {
    it('resource_not_found: a well-formed id that does not exist', async () => {
      const body = expectFullProblem(
        await api.get(`/v1/members/mem_${'0'.repeat(32)}`, as(church)),
        404,
        'resource_not_found',
      );
      expect(body.detail.length).toBeGreaterThan(0);
    });

    it.each([
      ['a wrong prefix', `cmp_${'0'.repeat(32)}`],
      ['a malformed body', 'mem_xyz'],
      ['an upper-case body', `mem_${'A'.repeat(32)}`],
      ['garbage', "1'%20OR%20'1'='1"],
    ])('resource_not_found: %s is a 404, never a 500', async (_label, id) => {
      expectFullProblem(await api.get(`/v1/members/${id}`, as(church)), 404, 'resource_not_found');
    });

    it("resource_not_found: another church's member", async () => {
      expectFullProblem(await api.get(`/v1/members/${memberId}`, as(other)), 404, 'resource_not_found');
      expectFullProblem(
        await api.patch(`/v1/members/${memberId}`, { ...as(other), body: { first_name: 'X' } }),
        404,
        'resource_not_found',
      );
      expectFullProblem(await api.delete(`/v1/members/${memberId}`, as(other)), 404, 'resource_not_found');
      expect((await api.get(`/v1/members/${memberId}`, as(church))).status).toBe(200);
    });

    it('resource_not_found: a deleted member', async () => {
      const created = await api.post<{ id: string }>('/v1/members', {
        ...as(church),
        body: { first_name: 'Del', last_name: 'Eted' },
      });
      expect((await api.delete(`/v1/members/${created.body.id}`, as(church))).status).toBe(204);
      expectFullProblem(await api.get(`/v1/members/${created.body.id}`, as(church)), 404, 'resource_not_found');
    });

    it('route_not_found: an unknown route', async () => {
      expectFullProblem(await api.get('/v1/no-such-thing', as(church)), 404, 'route_not_found');
      expectFullProblem(await api.get('/nowhere'), 404, 'route_not_found');
      expectFullProblem(await api.post('/v1/members/bulk/extra', { ...as(church), body: {} }), 404, 'route_not_found');
    });
  });

  describe('409', () => {
    it('conflict: a duplicate campus key', async () => {
      const first = await api.post('/v1/campuses', { ...as(church), body: { key: 'north', name: 'North' } });
      expect(first.status).toBe(201);
      const body = expectFullProblem(
        await api.post('/v1/campuses', { ...as(church), body: { key: 'north', name: 'North again' } }),
        409,
        'conflict',
      );
      expect(body.detail.length).toBeGreaterThan(0);
      // Keys are unique per church, not globally.
      expect((await api.post('/v1/campuses', { ...as(other), body: { key: 'north', name: 'North' } })).status).toBe(
        201,
      );
    });

    it('conflict: two concurrent creates of one key give one 201 and one 409, never a 500', async () => {
      const body = { key: 'race', name: 'Race' };
      // The losers may reach the unique index; TypeORM then logs the driver error to the console (kept quiet here).
      const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
      const results = await Promise.all([1, 2, 3].map(() => api.post('/v1/campuses', { ...as(church), body }))).finally(
        () => log.mockRestore(),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 409, 409]);
      for (const r of results.filter((x) => x.status === 409)) expectFullProblem(r, 409, 'conflict');
    });
  });

  describe('413', () => {
    it('payload_too_large: a JSON body over 5 MB', async () => {
      const big = JSON.stringify({ first_name: 'x'.repeat(5 * 1024 * 1024 + 10), last_name: 'Big' });
      const res = await api.post('/v1/members', { ...as(church), body: big, raw: { contentType: 'application/json' } });
      expectFullProblem(res, 413, 'payload_too_large');
    });

    it('a body just under the limit is parsed (and then validated)', async () => {
      const large = JSON.stringify({ first_name: 'x'.repeat(4 * 1024 * 1024), last_name: 'Big' });
      const res = await api.post('/v1/members', {
        ...as(church),
        body: large,
        raw: { contentType: 'application/json' },
      });
      const body = expectFullProblem(res, 422, 'validation_failed');
      expect(body.errors?.map((e) => e.field)).toEqual(['first_name']);
    });

    it('payload_too_large: a bulk of 501 members; 500 are accepted', async () => {
      const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ first_name: `Bulk${i}`, last_name: 'Row' }));
      expectFullProblem(
        await api.post('/v1/members/bulk', { ...as(church), body: { members: rows(501) } }),
        413,
        'payload_too_large',
      );
      const ok = await api.post<{ created: number }>('/v1/members/bulk', {
        ...as(church),
        body: { members: rows(500) },
      });
      expect(ok.status).toBe(200);
      expect(ok.body.created).toBe(500);
    });
  });

  describe('415', () => {
    it('unsupported_media_type: a text/plain body on POST /v1/members', async () => {
      const res = await api.post('/v1/members', {
        ...as(church),
        body: 'first_name=Ana&last_name=Ruiz',
        raw: { contentType: 'text/plain' },
      });
      expectFullProblem(res, 415, 'unsupported_media_type');
    });

    it('unsupported_media_type: a form body', async () => {
      const res = await api.post('/v1/members', {
        ...as(church),
        body: 'first_name=Ana&last_name=Ruiz',
        raw: { contentType: 'application/x-www-form-urlencoded' },
      });
      expectFullProblem(res, 415, 'unsupported_media_type');
    });

    it('application/json; charset=utf-8 is accepted (control)', async () => {
      const res = await api.post('/v1/members', {
        ...as(church),
        body: JSON.stringify({ first_name: 'Ana', last_name: 'Utf' }),
        raw: { contentType: 'application/json; charset=utf-8' },
      });
      expect(res.status).toBe(201);
    });
  });

  describe('422', () => {
    it('validation_failed lists every field with field, issue and message', async () => {
      const res = await api.post('/v1/members', {
        ...as(church),
        lang: 'en',
        body: { email: 'not-an-email', gender: 'other', shoe_size: 42 },
      });
      const body = expectFullProblem(res, 422, 'validation_failed');
      expect(body.errors).toBeDefined();
      for (const e of body.errors!) {
        expect(e).toEqual({
          field: expect.any(String),
          issue: expect.stringMatching(/^[a-z_]+$/),
          message: expect.any(String),
        });
        expect(e.message.length).toBeGreaterThan(0);
      }
      const byField = Object.fromEntries(body.errors!.map((e) => [e.field, e.issue]));
      expect(byField).toMatchObject({
        first_name: 'required',
        last_name: 'required',
        email: 'invalid_format',
        shoe_size: 'unknown_field',
      });
      expect(byField.gender).toBeDefined();
    });

    it('validation_failed names nested fields with a dotted path', async () => {
      const res = await api.post('/v1/members', {
        ...as(church),
        body: { first_name: 'A', last_name: 'B', address: { city: 42 } },
      });
      const body = expectFullProblem(res, 422, 'validation_failed');
      expect(body.errors?.map((e) => e.field)).toContain('address.city');
    });

    it('a JSON array where an object is expected is 422, not 500', async () => {
      expectFullProblem(await api.post('/v1/members', { ...as(church), body: [1, 2] }), 422, 'validation_failed');
    });
  });

  describe('languages', () => {
    it('the same error in es (default), en and pt has different titles and a matching Content-Language', async () => {
      const call = (lang?: string) => api.get('/v1/members', { token: church.token, lang });
      const answers = { default: await call(), es: await call('es'), en: await call('en'), pt: await call('pt') };
      const titles = Object.fromEntries(
        Object.entries(answers).map(([k, res]) => [k, expectFullProblem(res, 400, 'missing_tenant').title]),
      );
      expect(titles).toEqual({
        default: 'Falta el encabezado X-Tenant',
        es: 'Falta el encabezado X-Tenant',
        en: 'Missing X-Tenant',
        pt: expect.any(String),
      });
      expect(new Set([titles.es, titles.en, titles.pt]).size).toBe(3);
      expect(answers.default.headers['content-language']).toBe('es');
      expect(answers.es.headers['content-language']).toBe('es');
      expect(answers.en.headers['content-language']).toBe('en');
      expect(answers.pt.headers['content-language']).toBe('pt');
    });

    it('field messages follow the language too', async () => {
      const call = (lang: string) => api.post('/v1/members', { ...as(church), lang, body: {} });
      const [es, en, pt] = [await call('es'), await call('en'), await call('pt')].map((res) =>
        expectFullProblem(res, 422, 'validation_failed'),
      );
      expect(new Set([es.title, en.title, pt.title]).size).toBe(3);
      expect(new Set([es.errors![0].message, en.errors![0].message, pt.errors![0].message]).size).toBe(3);
      expect(new Set([es.detail, en.detail, pt.detail]).size).toBe(3);
      // The code and the issues are stable English whatever the language.
      expect(new Set([es, en, pt].map((p) => JSON.stringify(p.errors!.map((e) => [e.field, e.issue])))).size).toBe(1);
    });

    it('the expected format named in a field message is in the language too; technical names stay as they are', async () => {
      const call = (lang: string) =>
        api.post('/v1/members', {
          ...as(church),
          lang,
          body: { first_name: 'Ana', last_name: 'Ruiz', phone: '3312345678', birthdate: '17/04/1988' },
        });
      const messages = async (lang: string) =>
        expectFullProblem(await call(lang), 422, 'validation_failed').errors!.map((e) => e.message);
      expect(await messages('en')).toEqual([
        'This value does not have the expected format (E.164, e.g. +5213312345678).',
        'This value does not have the expected format (YYYY-MM-DD).',
      ]);
      expect(await messages('es')).toEqual([
        'Este valor no tiene el formato esperado (E.164, p. ej. +5213312345678).',
        'Este valor no tiene el formato esperado (YYYY-MM-DD).',
      ]);
      expect(await messages('pt')).toEqual([
        'Este valor não tem o formato esperado (E.164, ex.: +5213312345678).',
        'Este valor não tem o formato esperado (YYYY-MM-DD).',
      ]);
      // Every described format has both translations.
      expect(Object.keys(FORMAT_CATALOG.pt).sort()).toEqual(Object.keys(FORMAT_CATALOG.es).sort());
    });

    it("an unsupported language ('fr') falls back to es", async () => {
      const res = await api.get('/v1/members', { token: church.token, lang: 'fr' });
      expect(expectFullProblem(res, 400, 'missing_tenant').title).toBe('Falta el encabezado X-Tenant');
      expect(res.headers['content-language']).toBe('es');
    });

    it('a region tag and q-values are honoured', async () => {
      const ptBr = await api.get('/v1/members', { token: church.token, lang: 'pt-BR' });
      expect(expectFullProblem(ptBr, 400, 'missing_tenant').title).toBe(
        (await api.get<Problem>('/v1/members', { token: church.token, lang: 'pt' })).body.title,
      );
      expect(ptBr.headers['content-language']).toBe('pt');
      const ranked = await api.get('/v1/members', { token: church.token, lang: 'fr;q=1, en;q=0.8, es;q=0.5' });
      expect(expectFullProblem(ranked, 400, 'missing_tenant').title).toBe('Missing X-Tenant');
      expect(ranked.headers['content-language']).toBe('en');
    });
  });

  describe('headers on every response', () => {
    const expectRequestId = (res: Response) => {
      expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
      expect(res.headers['x-powered-by']).toBeUndefined();
    };

    it('success answers (200, 201, 204, 304) carry X-Request-Id and no X-Powered-By', async () => {
      const list = await api.get('/v1/members', as(church));
      expect(list.status).toBe(200);
      expectRequestId(list);
      const created = await api.post<{ id: string }>('/v1/members', {
        ...as(church),
        body: { first_name: 'Req', last_name: 'Id' },
      });
      expect(created.status).toBe(201);
      expectRequestId(created);
      const one = await api.get(`/v1/members/${created.body.id}`, as(church));
      expect(one.status).toBe(200);
      const notModified = await api.get(`/v1/members/${created.body.id}`, {
        ...as(church),
        headers: { 'If-None-Match': one.headers.etag },
      });
      expect(notModified.status).toBe(304);
      expectRequestId(notModified);
      const deleted = await api.delete(`/v1/members/${created.body.id}`, as(church));
      expect(deleted.status).toBe(204);
      expectRequestId(deleted);
      const health = await api.get('/healthz');
      expect(health.status).toBe(200);
      expectRequestId(health);
    });

    it('error answers carry X-Request-Id equal to the body request_id and no X-Powered-By', async () => {
      const answers = [
        await api.get<Problem>('/v1/members'),
        await api.get<Problem>('/v1/members', { tenant: church.slug }),
        await api.get<Problem>('/v1/nowhere'),
        await api.post<Problem>('/v1/members', { ...as(church), body: 'x', raw: { contentType: 'text/plain' } }),
      ];
      for (const res of answers) {
        expectRequestId(res);
        expect(res.body.request_id).toBe(res.headers['x-request-id']);
      }
    });

    it('each request gets its own id', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 5; i++) ids.add((await api.get('/v1/members', as(church))).headers['x-request-id']);
      expect(ids.size).toBe(5);
    });
  });
});
