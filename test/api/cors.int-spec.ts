import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { JsonValue, TestApi } from '../support/api';
import { newTenant, newToken, TestTenant } from '../support/factories';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import type { CorsSettingsDto as CorsSettings } from '../../src/modules/settings/dto/cors-settings.dto';

/** Browser access (CONTRACT §8b): a per-church CORS allowlist, refused by default. */

/** Origins unique to this run, so that no other church of the shared test database lists them. */
const origin = (name: string) => `https://${name}-${randomBytes(4).toString('hex')}.example.org`;

function headerList(value: unknown): string[] {
  return (Array.isArray(value) ? value.join(',') : typeof value === 'string' ? value : '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
}

describe('CORS', () => {
  let api: TestApi;
  let church: TestTenant;
  let other: TestTenant;
  const appOrigin = origin('app');
  const otherOrigin = origin('other');

  beforeAll(async () => {
    api = await TestApi.start();
    church = await newTenant(api);
    other = await newTenant(api);
  });
  afterAll(() => api.close());

  const call = (
    tenant: TestTenant,
    extra: { headers?: Record<string, string>; body?: JsonValue; token?: string } = {},
  ) => ({
    token: extra.token ?? tenant.token,
    tenant: tenant.slug,
    lang: 'en',
    headers: extra.headers,
    body: extra.body,
  });
  const preflight = (from: string, path = '/v1/members', method = 'POST') =>
    request(api.app.getHttpServer())
      .options(path)
      .set('Origin', from)
      .set('Access-Control-Request-Method', method)
      .set('Access-Control-Request-Headers', 'authorization, x-tenant, content-type, idempotency-key');

  it('refuses a browser Origin by default: 403 origin_not_allowed, even with a valid token', async () => {
    const res = await api.get<Problem>('/v1/members', call(church, { headers: { Origin: 'https://evil.example' } }));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('origin_not_allowed');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();

    const before = (await api.get<{ total: number }>('/v1/members?limit=1', call(church))).body.total;
    const write = await api.post<Problem>(
      '/v1/members',
      call(church, { headers: { Origin: 'https://evil.example' }, body: { first_name: 'Eve', last_name: 'Il' } }),
    );
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('origin_not_allowed');
    expect((await api.get<{ total: number }>('/v1/members?limit=1', call(church))).body.total).toBe(before);

    // Server-to-server calls (no Origin) are unaffected.
    expect((await api.get('/v1/members', call(church))).status).toBe(200);
  });

  it('returns an empty allowlist for a new church', async () => {
    const res = await api.get<CorsSettings>('/v1/settings/cors', call(church));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ allowed_origins: [] });
  });

  it('lets an admin set the allowlist; GET returns it', async () => {
    const put = await api.put<CorsSettings>(
      '/v1/settings/cors',
      call(church, { body: { allowed_origins: [appOrigin, appOrigin] } }),
    );
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ allowed_origins: [appOrigin] });
    const get = await api.get<CorsSettings>('/v1/settings/cors', call(church));
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ allowed_origins: [appOrigin] });

    const otherPut = await api.put<CorsSettings>(
      '/v1/settings/cors',
      call(other, { body: { allowed_origins: [otherOrigin] } }),
    );
    expect(otherPut.status).toBe(200);
  });

  it('answers an allowed Origin with Access-Control-Allow-Origin, Vary: Origin and the exposed headers', async () => {
    const res = await api.get('/v1/members', call(church, { headers: { Origin: appOrigin } }));
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(appOrigin);
    expect(headerList(res.headers.vary)).toContain('origin');
    const exposed = headerList(res.headers['access-control-expose-headers']);
    expect(exposed).toEqual(expect.arrayContaining(['etag', 'retry-after', 'x-ratelimit-remaining', 'x-request-id']));

    const created = await api.post<{ id: string }>(
      '/v1/members',
      call(church, { headers: { Origin: appOrigin }, body: { first_name: 'Ana', last_name: 'Web' } }),
    );
    expect(created.status).toBe(201);
    expect(created.headers['access-control-allow-origin']).toBe(appOrigin);
    expect(headerList(created.headers['access-control-expose-headers'])).toContain('location');
  });

  it('answers a preflight (no X-Tenant) from an allowed origin: 204 with the allowed methods and headers', async () => {
    const res = await preflight(appOrigin);
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(appOrigin);
    expect(headerList(res.headers.vary)).toContain('origin');
    expect(headerList(res.headers['access-control-allow-methods'])).toContain('post');
    expect(headerList(res.headers['access-control-allow-headers'])).toEqual(
      expect.arrayContaining(['authorization', 'x-tenant', 'idempotency-key', 'if-none-match', 'accept-language']),
    );
    expect(res.text).toBe('');

    const patch = await preflight(appOrigin, `/v1/members/mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f`, 'PATCH');
    expect(patch.status).toBe(204);
    expect(headerList(patch.headers['access-control-allow-methods'])).toEqual(
      expect.arrayContaining(['patch', 'delete', 'put', 'get']),
    );
  });

  it('refuses a preflight from an unknown origin: 403 origin_not_allowed', async () => {
    const res = await preflight(origin('unknown'));
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect((res.body as { code: string }).code).toBe('origin_not_allowed');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const evil = await preflight('https://evil.example');
    expect(evil.status).toBe(403);
  });

  it("does not let another church's allowed origin call this church's data", async () => {
    // The preflight passes (the origin is on some church's list; it carries no X-Tenant) ...
    expect((await preflight(otherOrigin)).status).toBe(204);
    // ... but the actual request is checked against this church's list.
    const res = await api.get<Problem>('/v1/members', call(church, { headers: { Origin: otherOrigin } }));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('origin_not_allowed');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    // And the other church's token works from its own origin.
    const own = await api.get('/v1/members', call(other, { headers: { Origin: otherOrigin } }));
    expect(own.status).toBe(200);
    expect(own.headers['access-control-allow-origin']).toBe(otherOrigin);
    // While this church's origin is not allowed for the other church.
    expect((await api.get<Problem>('/v1/members', call(other, { headers: { Origin: appOrigin } }))).body.code).toBe(
      'origin_not_allowed',
    );
  });

  it('refuses invalid origins: 422 validation_failed, the list unchanged', async () => {
    const invalid = [
      'https://app.example.org/path',
      'https://app.example.org/',
      'ftp://files.example.org',
      'app.example.org',
      '*',
      'javascript:alert(1)',
      'https://user@app.example.org',
    ];
    for (const value of invalid) {
      const res = await api.put<Problem>(
        '/v1/settings/cors',
        call(church, { body: { allowed_origins: [appOrigin, value] } }),
      );
      expect({ value, status: res.status, code: res.body.code }).toEqual({
        value,
        status: 422,
        code: 'validation_failed',
      });
      expect(res.body.errors!.some((e) => e.field.startsWith('allowed_origins'))).toBe(true);
    }
    for (const body of [{}, { allowed_origins: 'https://app.example.org' }, { allowed_origins: [42] }]) {
      const res = await api.put<Problem>('/v1/settings/cors', call(church, { body }));
      expect(res.status).toBe(422);
    }
    expect((await api.get<CorsSettings>('/v1/settings/cors', call(church))).body).toEqual({
      allowed_origins: [appOrigin],
    });
  });

  it('accepts http origins with a port (local development)', async () => {
    const local = `http://localhost:${4000 + Math.floor(Math.random() * 1000)}`;
    const put = await api.put<CorsSettings>(
      '/v1/settings/cors',
      call(church, { body: { allowed_origins: [appOrigin, local] } }),
    );
    expect(put.status).toBe(200);
    const res = await api.get('/v1/members', call(church, { headers: { Origin: local } }));
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(local);
    // The origin must match exactly: another port is another origin.
    expect((await api.get('/v1/members', call(church, { headers: { Origin: `${local}1` } }))).status).toBe(403);
  });

  it('needs admin:* for the settings: 403 scope_insufficient', async () => {
    const staff = await newToken(api, church, ['read:members', 'write:members'], 'staff');
    const get = await api.get<Problem>('/v1/settings/cors', call(church, { token: staff.token }));
    expect(get.status).toBe(403);
    expect(get.body.code).toBe('scope_insufficient');
    const put = await api.put<Problem>(
      '/v1/settings/cors',
      call(church, { token: staff.token, body: { allowed_origins: [origin('sneaky')] } }),
    );
    expect(put.status).toBe(403);
    expect(put.body.code).toBe('scope_insufficient');
    expect(put.headers['www-authenticate']).toContain('admin:*');
    const after = await api.get<CorsSettings>('/v1/settings/cors', call(church));
    expect(after.body.allowed_origins.some((o) => o.includes('sneaky'))).toBe(false);
  });

  it('applies a change at once: an emptied list refuses the origin again', async () => {
    expect((await api.get('/v1/members', call(church, { headers: { Origin: appOrigin } }))).status).toBe(200);
    const put = await api.put<CorsSettings>('/v1/settings/cors', call(church, { body: { allowed_origins: [] } }));
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ allowed_origins: [] });
    const res = await api.get<Problem>('/v1/members', call(church, { headers: { Origin: appOrigin } }));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('origin_not_allowed');
    expect((await preflight(appOrigin)).status).toBe(403);
  });
});
