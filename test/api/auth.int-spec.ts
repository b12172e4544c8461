import { createHash } from 'node:crypto';
import { AppError } from '../../src/common/errors/app-error';
import { generateToken } from '../../src/platform/auth/token-format';
import { TokensService } from '../../src/platform/auth/tokens.service';
import { TenantsService } from '../../src/platform/tenancy/tenants.service';
import { TestApi } from '../support/api';
import { inTenant, newTenant, newToken, TestTenant, uniqueSlug } from '../support/factories';
import { expectProblem } from '../support/http';

const DAY_SECONDS = 86_400;

interface TokenRow {
  id: string;
  type: string;
  scopes: string[];
  token_hash: Buffer;
  token_prefix: string;
  last4: string;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
}

describe('auth', () => {
  let api: TestApi;
  let church: TestTenant;
  let other: TestTenant;

  const tokenRow = async (uuid: string): Promise<TokenRow> => {
    const rows: TokenRow[] = await api.db.platform.query('SELECT * FROM api_tokens WHERE id = $1', [uuid]);
    expect(rows).toHaveLength(1);
    return rows[0];
  };

  beforeAll(async () => {
    api = await TestApi.start();
    // Business plan: this file makes many calls within seconds, more than a starter church's 60 per minute.
    church = await newTenant(api, { plan: 'business' });
    other = await newTenant(api, { plan: 'business' });
  });
  afterAll(() => api.close());

  describe('bearer token', () => {
    it('no Authorization header is 401 unauthorized with WWW-Authenticate: Bearer', async () => {
      const res = await api.get('/v1/members', { tenant: church.slug });
      expectProblem(res, 401, 'unauthorized');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    });

    it('a malformed token is 401 unauthorized', async () => {
      const res = await api.get('/v1/members', { tenant: church.slug, token: 'chp_abc' });
      expectProblem(res, 401, 'unauthorized');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    });

    it('a well-shaped token with a wrong checksum is 401 unauthorized', async () => {
      // One character of the random part changed: same shape, the CRC no longer matches.
      const value = church.token;
      const flipped = value[10] === 'a' ? 'b' : 'a';
      const mistyped = value.slice(0, 10) + flipped + value.slice(11);
      expect(mistyped).toMatch(/^chs_[0-9A-Za-z]{36}$/);
      const res = await api.get('/v1/members', { tenant: church.slug, token: mistyped });
      expectProblem(res, 401, 'unauthorized');
    });

    it('a well-formed token that was never issued is 401 unauthorized', async () => {
      const res = await api.get('/v1/members', { tenant: church.slug, token: generateToken('pat') });
      expectProblem(res, 401, 'unauthorized');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    });

    it('a token outside the Authorization header (access_token in the query string or body) is not accepted', async () => {
      // "Every call requires the header Authorization: Bearer <token>": a token in a URL ends up in
      // access logs, proxies and Referer headers, so the query and body forms of RFC 6750 stay off.
      const created = await api.post<{ id: string }>('/v1/members', {
        tenant: church.slug,
        token: church.token,
        body: { first_name: 'Url', last_name: 'Token' },
      });
      expect(created.status).toBe(201);
      expectProblem(
        await api.get(`/v1/members/${created.body.id}?access_token=${church.token}`, { tenant: church.slug }),
        401,
        'unauthorized',
      );
      expectProblem(
        await api.delete(`/v1/members/${created.body.id}`, {
          tenant: church.slug,
          body: { access_token: church.token },
        }),
        401,
        'unauthorized',
      );
      expect(
        (await api.get(`/v1/members/${created.body.id}`, { tenant: church.slug, token: church.token })).status,
      ).toBe(200);
    });

    it('the same request with the issued token succeeds (control)', async () => {
      const res = await api.get('/v1/members', { tenant: church.slug, token: church.token });
      expect(res.status).toBe(200);
    });
  });

  describe('X-Tenant', () => {
    it('missing X-Tenant is 400 missing_tenant, titled exactly "Missing X-Tenant" in English', async () => {
      const res = await api.get('/v1/members', { token: church.token, lang: 'en' });
      const body = expectProblem(res, 400, 'missing_tenant');
      expect(body.title).toBe('Missing X-Tenant');
    });

    it('the default language is Spanish', async () => {
      const res = await api.get('/v1/members', { token: church.token });
      const body = expectProblem(res, 400, 'missing_tenant');
      expect(body.title).toBe('Falta el encabezado X-Tenant');
      expect(res.headers['content-language']).toBe('es');
    });

    it('missing X-Tenant wins over a missing token (400, not 401)', async () => {
      const res = await api.get('/v1/members');
      expectProblem(res, 400, 'missing_tenant');
    });

    it('an empty X-Tenant is missing too', async () => {
      const res = await api.get('/v1/members', { token: church.token, headers: { 'X-Tenant': ' ' } });
      expectProblem(res, 400, 'missing_tenant');
    });
  });

  describe('revocation and expiry', () => {
    it('a revoked token is refused on the very next call: 401 token_revoked, "Token revoked"', async () => {
      const issued = await newToken(api, church, ['read:members']);
      const before = await api.get('/v1/members', { tenant: church.slug, token: issued.token });
      expect(before.status).toBe(200);

      await inTenant(api, church.id, () => api.app.get(TokensService).revoke(issued.uuid));

      const after = await api.get('/v1/members', { tenant: church.slug, token: issued.token, lang: 'en' });
      const body = expectProblem(after, 401, 'token_revoked');
      expect(body.title).toBe('Token revoked');
      expect(after.headers['www-authenticate']).toMatch(/^Bearer/);
    });

    it('an expired token is 401 token_expired', async () => {
      const issued = await newToken(api, church, ['read:members']);
      expect((await api.get('/v1/members', { tenant: church.slug, token: issued.token })).status).toBe(200);

      await api.db.platform.query(`UPDATE api_tokens SET expires_at = now() - interval '1 minute' WHERE id = $1`, [
        issued.uuid,
      ]);

      const res = await api.get('/v1/members', { tenant: church.slug, token: issued.token });
      expectProblem(res, 401, 'token_expired');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    });
  });

  describe('church of the token', () => {
    it('a token of church A with X-Tenant of church B is 403 tenant_forbidden', async () => {
      const res = await api.get('/v1/members', { tenant: other.slug, token: church.token });
      expectProblem(res, 403, 'tenant_forbidden');
    });

    it('a non-existent church gets the same answer as an existing one', async () => {
      const existing = await api.get('/v1/members', { tenant: other.slug, token: church.token, lang: 'en' });
      const missing = await api.get('/v1/members', { tenant: uniqueSlug('nowhere'), token: church.token, lang: 'en' });
      const a = expectProblem(existing, 403, 'tenant_forbidden');
      const b = expectProblem(missing, 403, 'tenant_forbidden');
      expect({ ...b, request_id: undefined }).toEqual({ ...a, request_id: undefined });
    });

    it('a suspended church is 403 tenant_inactive', async () => {
      const suspended = await newTenant(api, { plan: 'business' });
      expect((await api.get('/v1/members', { tenant: suspended.slug, token: suspended.token })).status).toBe(200);
      await api.app.get(TenantsService).update(suspended.slug, { status: 'suspended' });
      const res = await api.get('/v1/members', { tenant: suspended.slug, token: suspended.token });
      expectProblem(res, 403, 'tenant_inactive');
    });
  });

  describe('scopes', () => {
    it('a token lacking the scope is 403 scope_insufficient naming the scope in detail and WWW-Authenticate', async () => {
      const issued = await newToken(api, church, ['read:campuses']);
      const res = await api.get('/v1/members', { tenant: church.slug, token: issued.token, lang: 'en' });
      const body = expectProblem(res, 403, 'scope_insufficient');
      expect(body.detail).toContain('read:members');
      const header = res.headers['www-authenticate'];
      expect(header).toMatch(/^Bearer/);
      expect(header).toContain('error="insufficient_scope"');
      expect(header).toContain('scope="read:members"');
    });

    it('the scope is named in the Spanish detail too', async () => {
      const issued = await newToken(api, church, ['read:members']);
      const res = await api.post('/v1/members', {
        tenant: church.slug,
        token: issued.token,
        body: { first_name: 'A', last_name: 'B' },
      });
      const body = expectProblem(res, 403, 'scope_insufficient');
      expect(body.detail).toContain('write:members');
      expect(res.headers['www-authenticate']).toContain('scope="write:members"');
    });

    it('admin:* passes every scope check', async () => {
      const calls = [
        await api.get('/v1/members', { tenant: church.slug, token: church.token }),
        await api.post('/v1/members', {
          tenant: church.slug,
          token: church.token,
          body: { first_name: 'Ana', last_name: 'Admin' },
        }),
        await api.get('/v1/campuses', { tenant: church.slug, token: church.token }),
        await api.post('/v1/campuses', {
          tenant: church.slug,
          token: church.token,
          body: { key: `admin-${Date.now()}`, name: 'Admin Campus' },
        }),
      ];
      expect(calls.map((r) => r.status)).toEqual([200, 201, 200, 201]);
    });

    it('write does not imply read', async () => {
      const issued = await newToken(api, church, ['write:members']);
      const created = await api.post<{ id: string }>('/v1/members', {
        tenant: church.slug,
        token: issued.token,
        body: { first_name: 'Wri', last_name: 'Ter' },
      });
      expect(created.status).toBe(201);
      const list = await api.get('/v1/members', { tenant: church.slug, token: issued.token });
      expectProblem(list, 403, 'scope_insufficient');
      const one = await api.get(`/v1/members/${created.body.id}`, { tenant: church.slug, token: issued.token });
      expectProblem(one, 403, 'scope_insufficient');
    });

    it('a scope of one resource does not open another', async () => {
      const issued = await newToken(api, church, ['read:members', 'write:members']);
      expect((await api.get('/v1/members', { tenant: church.slug, token: issued.token })).status).toBe(200);
      expectProblem(
        await api.get('/v1/campuses', { tenant: church.slug, token: issued.token }),
        403,
        'scope_insufficient',
      );
    });
  });

  describe('role bounds when issuing', () => {
    const rejection = async (promise: Promise<unknown>): Promise<AppError> => {
      const error = await promise.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AppError);
      return error as AppError;
    };

    it('a volunteer may not get write:members', async () => {
      const error = await rejection(newToken(api, church, ['write:members'], 'volunteer'));
      expect(error.code).toBe('scope_not_allowed');
      expect(error.status).toBe(403);
      expect(error.params.scope).toBe('write:members');
    });

    it('a volunteer may get the scopes of its role', async () => {
      const issued = await newToken(api, church, ['read:members', 'read:events', 'write:attendance'], 'volunteer');
      expect((await tokenRow(issued.uuid)).scopes.sort()).toEqual(['read:events', 'read:members', 'write:attendance']);
    });

    it('staff may not issue a service token', async () => {
      const error = await rejection(newToken(api, church, ['read:members'], 'staff', 'service'));
      expect(error.code).toBe('scope_not_allowed');
    });

    it('staff may not get admin:* nor write:donations', async () => {
      expect((await rejection(newToken(api, church, ['admin:*'], 'staff'))).code).toBe('scope_not_allowed');
      expect((await rejection(newToken(api, church, ['write:donations'], 'staff'))).code).toBe('scope_not_allowed');
    });

    it('finance may get read:donations but not write:members', async () => {
      const issued = await newToken(api, church, ['read:donations', 'read:members'], 'finance');
      expect((await tokenRow(issued.uuid)).scopes.sort()).toEqual(['read:donations', 'read:members']);
      expect((await rejection(newToken(api, church, ['write:members'], 'finance'))).code).toBe('scope_not_allowed');
    });

    it('a kiosk key gets read:events, read:members and write:attendance by default', async () => {
      const issued = await newToken(api, church, [], 'org_admin', 'kiosk');
      expect((await tokenRow(issued.uuid)).scopes.sort()).toEqual(['read:events', 'read:members', 'write:attendance']);
      expect((await api.get('/v1/events', { tenant: church.slug, token: issued.token })).status).toBe(200);
      // Its read:members serves the check-in search only (CONTRACT §11): every members route is 403.
      expectProblem(
        await api.get('/v1/members', { tenant: church.slug, token: issued.token }),
        403,
        'scope_insufficient',
      );
      expectProblem(
        await api.post('/v1/members', {
          tenant: church.slug,
          token: issued.token,
          body: { first_name: 'K', last_name: 'I' },
        }),
        403,
        'scope_insufficient',
      );
    });

    it('a kiosk key may not get write:members, even from an org_admin', async () => {
      const error = await rejection(newToken(api, church, ['write:members'], 'org_admin', 'kiosk'));
      expect(error.code).toBe('scope_not_allowed');
    });

    it('an unknown scope is a validation error', async () => {
      const error = await rejection(newToken(api, church, ['read:everything' as never]));
      expect(error.code).toBe('validation_failed');
    });
  });

  describe('token values and storage', () => {
    it.each([
      ['pat', 'chp_'],
      ['service', 'chs_'],
      ['kiosk', 'chk_'],
    ] as const)('a %s token is prefixed %s', async (type, prefix) => {
      const issued = await newToken(api, church, type === 'kiosk' ? [] : ['read:members'], 'org_admin', type);
      expect(issued.token.startsWith(prefix)).toBe(true);
      expect(issued.token).toMatch(/^ch[psk]_[0-9A-Za-z]{36}$/);
      expect(issued.id).toMatch(/^tok_[0-9a-f]{32}$/);
      const row = await tokenRow(issued.uuid);
      expect(row.type).toBe(type);
      expect(row.token_prefix).toBe(prefix);
    });

    it('stores only the SHA-256 of the value, plus the last 4 characters', async () => {
      const issued = await newToken(api, church, ['read:members']);
      const row = await tokenRow(issued.uuid);
      expect(Buffer.from(row.token_hash).equals(createHash('sha256').update(issued.token).digest())).toBe(true);
      expect(row.last4).toBe(issued.token.slice(-4));

      const [{ text }] = await api.db.platform.query<{ text: string }[]>(
        'SELECT row_to_json(t)::text AS text FROM api_tokens t WHERE id = $1',
        [issued.uuid],
      );
      expect(text).not.toContain(issued.token);
      expect(text).not.toContain(issued.token.slice(4)); // the secret body without its prefix
      expect(text).not.toContain(issued.token.slice(4, 20));
      expect(text).not.toContain(Buffer.from(issued.token).toString('hex'));
    });

    it('the value appears in no column of any table', async () => {
      const issued = await newToken(api, church, ['read:members']);
      const tables: { table_name: string }[] = await api.db.platform.query(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
      );
      expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(['api_tokens', 'users', 'tenants']));
      for (const { table_name } of tables) {
        const [{ n }] = await api.db.platform.query<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM "${table_name}" t WHERE strpos(row_to_json(t)::text, $1) > 0`,
          [issued.token.slice(4, 20)],
        );
        expect({ table: table_name, n }).toEqual({ table: table_name, n: 0 });
      }
    });

    it('a PAT expires in 90 days, a service token in 365 days, a kiosk key never', async () => {
      const pat = await newToken(api, church, ['read:members'], 'org_admin', 'pat');
      const service = await newToken(api, church, ['read:members'], 'org_admin', 'service');
      const kiosk = await newToken(api, church, [], 'org_admin', 'kiosk');
      const now = Date.now();
      const days = (row: TokenRow) => (row.expires_at!.getTime() - now) / 1000;
      const patRow = await tokenRow(pat.uuid);
      const serviceRow = await tokenRow(service.uuid);
      expect(Math.abs(days(patRow) - 90 * DAY_SECONDS)).toBeLessThanOrEqual(60);
      expect(Math.abs(days(serviceRow) - 365 * DAY_SECONDS)).toBeLessThanOrEqual(60);
      expect((await tokenRow(kiosk.uuid)).expires_at).toBeNull();
    });
  });

  describe('last_used_at', () => {
    const lastUsed = async (uuid: string) => (await tokenRow(uuid)).last_used_at;

    it('is set after the first authenticated call and not rewritten on an immediate second call', async () => {
      const issued = await newToken(api, church, ['read:members']);
      expect(await lastUsed(issued.uuid)).toBeNull();

      expect((await api.get('/v1/members', { tenant: church.slug, token: issued.token })).status).toBe(200);
      let first: Date | null = null;
      for (let waited = 0; waited < 2000 && !first; waited += 50) {
        first = await lastUsed(issued.uuid);
        if (!first) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(first).toBeInstanceOf(Date);
      expect(Math.abs(first!.getTime() - Date.now())).toBeLessThan(10_000);

      // Far enough apart that a second write would store a different millisecond.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await api.get('/v1/members', { tenant: church.slug, token: issued.token })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await lastUsed(issued.uuid))?.getTime()).toBe(first!.getTime());
    });
  });
});
