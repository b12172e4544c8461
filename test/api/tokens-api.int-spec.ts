import { ID_PREFIX, toPublicId } from '../../src/common/ids/id';
import { JsonValue, TestApi } from '../support/api';
import { newTenant, newToken, TestTenant } from '../support/factories';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import type { CreatedTokenResponse, TokenResponse } from '../../src/modules/api-tokens/dto/token.response';

/** A token as issued (not replayed): its value is shown. */
type IssuedToken = CreatedTokenResponse & { token: string };

/** /v1/auth/tokens (CONTRACT §5): creation within the caller's role and token, listing without values, revocation. */

const TOKEN_ID = /^tok_[0-9a-f]{32}$/;

describe('tokens API', () => {
  let api: TestApi;
  let church: TestTenant;

  beforeAll(async () => {
    api = await TestApi.start();
    church = await newTenant(api);
  });
  afterAll(() => api.close());

  const as = (token: string, extra: { body?: JsonValue; headers?: Record<string, string> } = {}) => ({
    token,
    tenant: church.slug,
    lang: 'en',
    ...extra,
  });

  describe('POST /v1/auth/tokens', () => {
    it('creates a PAT: 201, the value once, metadata, Location and Cache-Control: no-store; the token works at once', async () => {
      const before = Date.now();
      const res = await api.post<IssuedToken>(
        '/v1/auth/tokens',
        as(church.token, { body: { name: 'Planning sync', scopes: ['read:members', 'write:members'] } }),
      );
      expect(res.status).toBe(201);
      const body = res.body;
      expect(body.id).toMatch(TOKEN_ID);
      expect(body.token).toMatch(/^chp_[0-9A-Za-z]{36}$/);
      expect(body).toMatchObject({
        name: 'Planning sync',
        type: 'pat',
        scopes: ['read:members', 'write:members'],
        user_id: toPublicId(ID_PREFIX.user, church.admin.id),
        last_used_at: null,
        revoked_at: null,
      });
      expect(body.display).toBe(`${body.token.slice(0, 4)}…${body.token.slice(-4)}`);
      expect(Date.parse(body.created_at)).toBeGreaterThanOrEqual(before - 1000);
      // PATs live 90 days.
      expect(Date.parse(body.expires_at!) - Date.parse(body.created_at)).toBe(90 * 86_400_000);
      expect(res.headers.location).toBe(`/v1/auth/tokens/${body.id}`);
      expect(res.headers['cache-control']).toBe('no-store');

      const used = await api.get<List<unknown>>('/v1/members', as(body.token));
      expect(used.status).toBe(200);
      const write = await api.post<{ id: string }>(
        '/v1/members',
        as(body.token, { body: { first_name: 'Ana', last_name: 'Ruiz' } }),
      );
      expect(write.status).toBe(201);
      // ... but only within its scopes.
      const campuses = await api.get<Problem>('/v1/campuses', as(body.token));
      expect(campuses.status).toBe(403);
      expect(campuses.body.code).toBe('scope_insufficient');
    });

    it('creates a service token (chs_, no owner, one year) for an org_admin', async () => {
      const res = await api.post<IssuedToken>(
        '/v1/auth/tokens',
        as(church.token, { body: { name: 'Nightly export', scopes: ['read:members'], type: 'service' } }),
      );
      expect(res.status).toBe(201);
      expect(res.body.token).toMatch(/^chs_[0-9A-Za-z]{36}$/);
      expect(res.body).toMatchObject({ type: 'service', user_id: null, scopes: ['read:members'] });
      expect(Date.parse(res.body.expires_at!) - Date.parse(res.body.created_at)).toBe(365 * 86_400_000);
      expect((await api.get('/v1/members', as(res.body.token))).status).toBe(200);
    });

    it('refuses scopes beyond the caller role: 403 scope_not_allowed', async () => {
      const staff = await newToken(api, church, ['read:members', 'write:members'], 'staff');
      for (const scope of ['admin:*', 'write:donations']) {
        const res = await api.post<Problem>(
          '/v1/auth/tokens',
          as(staff.token, { body: { name: 'Too much', scopes: ['read:members', scope] } }),
        );
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('scope_not_allowed');
        expect(res.body.detail).toContain(scope);
      }
      const volunteer = await newToken(api, church, ['read:members'], 'volunteer');
      const res = await api.post<Problem>(
        '/v1/auth/tokens',
        as(volunteer.token, { body: { name: 'Writer', scopes: ['write:members'] } }),
      );
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('scope_not_allowed');
    });

    it("refuses scopes beyond the calling token's own scopes, even for an org_admin", async () => {
      const narrow = await newToken(api, church, ['read:members'], 'org_admin');
      const res = await api.post<Problem>(
        '/v1/auth/tokens',
        as(narrow.token, { body: { name: 'Escalate', scopes: ['read:members', 'write:members'] } }),
      );
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('scope_not_allowed');
      expect(res.body.detail).toContain('write:members');
      const admin = await api.post<Problem>(
        '/v1/auth/tokens',
        as(narrow.token, { body: { name: 'Escalate', scopes: ['admin:*'] } }),
      );
      expect(admin.status).toBe(403);
      expect(admin.body.code).toBe('scope_not_allowed');
      // Within its own scopes it may.
      const ok = await api.post<IssuedToken>(
        '/v1/auth/tokens',
        as(narrow.token, { body: { name: 'Reader', scopes: ['read:members'] } }),
      );
      expect(ok.status).toBe(201);
      expect(ok.body.user_id).toBe(toPublicId(ID_PREFIX.user, narrow.user.id));
    });

    it('refuses a service token to a staff user: 403 scope_not_allowed', async () => {
      const staff = await newToken(api, church, ['read:members', 'write:members'], 'staff');
      const res = await api.post<Problem>(
        '/v1/auth/tokens',
        as(staff.token, { body: { name: 'Service', scopes: ['read:members'], type: 'service' } }),
      );
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('scope_not_allowed');
    });

    it('refuses token creation to a kiosk key: 403', async () => {
      const kiosk = await newToken(api, church, [], 'org_admin', 'kiosk');
      expect(kiosk.token).toMatch(/^chk_/);
      const res = await api.post<Problem>(
        '/v1/auth/tokens',
        as(kiosk.token, { body: { name: 'From kiosk', scopes: ['read:members'] } }),
      );
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('token_type_not_allowed'); // a kiosk key manages no credentials (CONTRACT §21)
    });

    it('validates the body: 422 validation_failed', async () => {
      const res = await api.post<Problem & { errors: { field: string }[] }>(
        '/v1/auth/tokens',
        as(church.token, { body: { name: '', scopes: ['read:everything'], type: 'root' } }),
      );
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      const fields = res.body.errors.map((e) => e.field);
      expect(fields).toEqual(expect.arrayContaining(['name', 'type']));
      expect(fields.some((f) => f.startsWith('scopes'))).toBe(true);
    });
  });

  describe('GET /v1/auth/tokens', () => {
    it('lists metadata only: no token value and no hash anywhere', async () => {
      const created = await api.post<IssuedToken>(
        '/v1/auth/tokens',
        as(church.token, { body: { name: 'Listed', scopes: ['read:members'] } }),
      );
      expect(created.status).toBe(201);
      const res = await api.get<List<TokenResponse>>('/v1/auth/tokens?limit=250', as(church.token));
      expect(res.status).toBe(200);
      const text = JSON.stringify(res.body);
      expect(text).not.toContain(created.body.token);
      expect(text).not.toMatch(/ch[pskor]_[0-9A-Za-z]{36}/);
      for (const item of res.body.data) {
        expect(item).not.toHaveProperty('token');
        expect(Object.keys(item).some((k) => /hash|secret/i.test(k))).toBe(false);
        expect(item.id).toMatch(TOKEN_ID);
      }
      const listed = res.body.data.find((t) => t.id === created.body.id)!;
      const { token: _value, ...metadata } = created.body;
      expect(listed).toEqual(metadata);

      const one = await api.get<TokenResponse>(`/v1/auth/tokens/${created.body.id}`, as(church.token));
      expect(one.status).toBe(200);
      expect(one.body).toEqual(metadata);
      expect(one.body).not.toHaveProperty('token');
    });

    it('shows a non-admin only its own tokens; an admin:* token sees every token of the church', async () => {
      const staff = await newToken(api, church, ['read:members', 'write:members'], 'staff');
      const mine = await api.post<IssuedToken>(
        '/v1/auth/tokens',
        as(staff.token, { body: { name: 'Staff helper', scopes: ['read:members'] } }),
      );
      expect(mine.status).toBe(201);
      expect(mine.body.user_id).toBe(toPublicId(ID_PREFIX.user, staff.user.id));
      const other = await newToken(api, church, ['read:members'], 'staff');

      const staffList = await api.get<List<TokenResponse>>('/v1/auth/tokens?limit=250', as(staff.token));
      expect(staffList.status).toBe(200);
      expect(staffList.body.data.map((t) => t.id).sort()).toEqual([staff.id, mine.body.id].sort());
      expect(staffList.body.total).toBe(2);
      for (const t of staffList.body.data) expect(t.user_id).toBe(toPublicId(ID_PREFIX.user, staff.user.id));

      const adminList = await api.get<List<TokenResponse>>('/v1/auth/tokens?limit=250', as(church.token));
      const ids = adminList.body.data.map((t) => t.id);
      expect(ids).toEqual(expect.arrayContaining([staff.id, mine.body.id, other.id]));
      expect(adminList.body.total).toBeGreaterThan(3);

      // Another staff user's token is not visible to this staff user, not even by id.
      const peek = await api.get<Problem>(`/v1/auth/tokens/${other.id}`, as(staff.token));
      expect(peek.status).toBe(404);
      expect(peek.body.code).toBe('resource_not_found');
    });

    it('is confined to the church', async () => {
      const other = await newTenant(api);
      const res = await api.get<List<TokenResponse>>('/v1/auth/tokens', { token: other.token, tenant: other.slug });
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(1); // the other church's own admin token
      const adminTokenOfA = (await api.get<List<TokenResponse>>('/v1/auth/tokens?limit=1', as(church.token))).body
        .data[0];
      const peek = await api.get<Problem>(`/v1/auth/tokens/${adminTokenOfA.id}`, {
        token: other.token,
        tenant: other.slug,
      });
      expect(peek.status).toBe(404);
    });
  });

  describe('DELETE /v1/auth/tokens/{id}', () => {
    it('revokes at once: 204, then 401 token_revoked on the very next call', async () => {
      const created = await api.post<IssuedToken>(
        '/v1/auth/tokens',
        as(church.token, { body: { name: 'Short lived', scopes: ['read:members'] } }),
      );
      expect((await api.get('/v1/members', as(created.body.token))).status).toBe(200);

      const del = await api.delete(`/v1/auth/tokens/${created.body.id}`, as(church.token));
      expect(del.status).toBe(204);
      expect(del.text).toBe('');

      const after = await api.get<Problem & { title: string }>('/v1/members', as(created.body.token));
      expect(after.status).toBe(401);
      expect(after.body.code).toBe('token_revoked');
      expect(after.body.title).toBe('Token revoked');
      expect(after.headers['www-authenticate']).toMatch(/^Bearer /);

      const meta = await api.get<TokenResponse>(`/v1/auth/tokens/${created.body.id}`, as(church.token));
      expect(meta.body.revoked_at).not.toBeNull();
      const live = await api.get<List<TokenResponse>>('/v1/auth/tokens?revoked=false&limit=250', as(church.token));
      expect(live.body.data.map((t) => t.id)).not.toContain(created.body.id);
    });

    it('lets a non-admin revoke its own token, and not anyone else’s (404)', async () => {
      const staff = await newToken(api, church, ['read:members', 'write:members'], 'staff');
      const own = await api.post<IssuedToken>(
        '/v1/auth/tokens',
        as(staff.token, { body: { name: 'Mine', scopes: ['read:members'] } }),
      );
      const victim = await newToken(api, church, ['read:members'], 'staff');

      const refused = await api.delete<Problem>(`/v1/auth/tokens/${victim.id}`, as(staff.token));
      expect(refused.status).toBe(404);
      expect(refused.body.code).toBe('resource_not_found');
      expect((await api.get('/v1/members', as(victim.token))).status).toBe(200);
      const adminsToken = (await api.get<List<TokenResponse>>('/v1/auth/tokens?limit=1', as(church.token))).body
        .data[0];
      expect((await api.delete(`/v1/auth/tokens/${adminsToken.id}`, as(staff.token))).status).toBe(404);
      expect((await api.get('/v1/members', as(church.token))).status).toBe(200);

      expect((await api.delete(`/v1/auth/tokens/${own.body.id}`, as(staff.token))).status).toBe(204);
      expect((await api.get<Problem>('/v1/members', as(own.body.token))).body.code).toBe('token_revoked');
    });

    it('answers 404 for a malformed or unknown id', async () => {
      for (const id of [
        'abc',
        'tok_123',
        'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
        'tok_0192F0C1A2B37C4D8E9F0A1B2C3D4E5F',
        'tok_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
      ]) {
        const del = await api.delete<Problem>(`/v1/auth/tokens/${id}`, as(church.token));
        expect(del.status).toBe(404);
        expect(del.body.code).toBe('resource_not_found');
        expect((await api.get<Problem>(`/v1/auth/tokens/${id}`, as(church.token))).status).toBe(404);
      }
    });
  });

  describe('endpoint quota', () => {
    it('allows 10 creations per hour per token: the 11th is 429 rate_limited with Retry-After; another token still creates', async () => {
      const first = await newToken(api, church, ['admin:*'], 'org_admin');
      const second = await newToken(api, church, ['admin:*'], 'org_admin');
      for (let i = 1; i <= 10; i++) {
        const res = await api.post<IssuedToken>(
          '/v1/auth/tokens',
          as(first.token, { body: { name: `Batch ${i}`, scopes: ['read:members'] } }),
        );
        expect(res.status).toBe(201);
        expect(res.headers['ratelimit-policy']).toContain('"tokens"');
      }
      const eleventh = await api.post<Problem>(
        '/v1/auth/tokens',
        as(first.token, { body: { name: 'Batch 11', scopes: ['read:members'] } }),
      );
      expect(eleventh.status).toBe(429);
      expect(eleventh.body.code).toBe('rate_limited');
      const retryAfter = Number(eleventh.headers['retry-after']);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(eleventh.headers['x-ratelimit-bucket']).toBe('tokens');
      expect(eleventh.headers['x-ratelimit-limit']).toBe('10');
      expect(eleventh.headers['x-ratelimit-remaining']).toBe('0');

      // The refused request created nothing.
      const batch = await api.get<List<TokenResponse>>('/v1/auth/tokens?limit=250', as(church.token));
      expect(
        batch.body.data
          .filter((t) => t.name.startsWith('Batch '))
          .map((t) => t.name)
          .sort(),
      ).toHaveLength(10);
      expect(batch.body.data.some((t) => t.name === 'Batch 11')).toBe(false);

      // The quota is per token: another token of the same church still creates, and the first still reads.
      const other = await api.post<IssuedToken>(
        '/v1/auth/tokens',
        as(second.token, { body: { name: 'Other token', scopes: ['read:members'] } }),
      );
      expect(other.status).toBe(201);
      expect((await api.get('/v1/members', as(first.token))).status).toBe(200);
    });
  });
});
