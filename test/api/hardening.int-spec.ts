import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { SECRET_BOX } from '../../src/common/crypto/crypto.module';
import type { SecretBox } from '../../src/common/crypto/secret-box';
import { ID_PREFIX, parsePublicId } from '../../src/common/ids/id';
import { OAuthCodesService } from '../../src/modules/oauth/oauth-codes.service';
import { JsonObject, TestApi } from '../support/api';
import { inTenant, newTenant, newToken, TestTenant } from '../support/factories';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';

/** What an outside security review found (CONTRACT §21), each with the test that failed before the fix. */
describe('hardening', () => {
  let api: TestApi;
  let church: TestTenant;
  const as = (extra: Record<string, unknown> = {}) => ({ token: church.token, tenant: church.slug, ...extra });

  beforeAll(async () => {
    api = await TestApi.start({ WEBHOOK_ALLOW_LOOPBACK: 'true' });
    church = await newTenant(api);
  });
  afterAll(() => api.close());

  describe('CSV exports', () => {
    it('write a name that a spreadsheet would run as a formula as text, and numbers as they are', async () => {
      const names = ['=HYPERLINK("http://evil.example","Click")', '+SUM(1,2)', '-2+3', '@cmd'];
      const fund = await api.post<{ id: string }>('/v1/funds', as({ body: { name: 'General' } }));
      for (const name of names) {
        const member = await api.post<{ id: string }>(
          '/v1/members',
          as({ body: { first_name: name, last_name: 'X' } }),
        );
        expect(member.status).toBe(201);
        const gift = await api.post('/v1/donations', {
          ...as(),
          body: { amount: 1000, currency: 'USD', fund_id: fund.body.id, donor_id: member.body.id },
        });
        expect(gift.status).toBe(201);
      }
      const res = await request(api.app.getHttpServer())
        .get('/v1/reports/giving/donors')
        .set('Authorization', `Bearer ${church.token}`)
        .set('X-Tenant', church.slug)
        .set('Accept', 'text/csv');
      expect(res.status).toBe(200);
      const rows = parse<Record<string, string>>(res.text, { columns: true });
      expect(rows.map((r) => r.donor_first_name).sort()).toEqual(names.map((n) => `'${n}`).sort());
      expect(rows.every((r) => r.gifts === '1')).toBe(true);
    });
  });

  describe('idempotent replays of creations that show a secret once', () => {
    const cases: [string, string, JsonObject][] = [
      ['/v1/auth/tokens', 'token', { name: 'sync', scopes: ['read:members'] }],
      ['/v1/webhook-endpoints', 'secret', { url: 'http://127.0.0.1:9/church', events: ['member.created'] }],
      [
        '/v1/oauth/clients',
        'client_secret',
        { name: 'App', redirect_uris: ['https://app.example.org/cb'], type: 'confidential' },
      ],
      ['/v1/devices', 'key', { name: 'Lobby kiosk' }],
    ];

    it.each(cases)(
      'POST %s: the replay answers %s as null, and the record never held it',
      async (path, field, body) => {
        const headers = { 'Idempotency-Key': randomUUID() };
        const first = await api.post<Record<string, unknown>>(path, as({ body, headers }));
        expect(first.status).toBe(201);
        const secret = first.body[field];
        expect(typeof secret).toBe('string');

        const replay = await api.post<Record<string, unknown>>(path, as({ body, headers }));
        expect(replay.status).toBe(201);
        expect(replay.headers['idempotent-replayed']).toBe('true');
        expect(replay.body).toEqual({ ...first.body, [field]: null });

        const [row] = await api.db.platform.query<{ body_sealed: Buffer }[]>(
          'SELECT body_sealed FROM idempotency_keys WHERE tenant_id = $1 AND key = $2',
          [church.id, headers['Idempotency-Key']],
        );
        const kept = api.app.get<SecretBox>(SECRET_BOX).open(row.body_sealed);
        expect(kept).not.toContain(secret as string);
        expect(JSON.parse(kept)).toMatchObject({ id: first.body.id, [field]: null });
      },
    );
  });

  describe('credential routes', () => {
    const call = (token: string) => ({ token, tenant: church.slug });

    /** An OAuth access token of the org_admin, who granted an app admin:* (code, then the token endpoint). */
    async function oauthToken(): Promise<string> {
      const redirect = 'http://127.0.0.1:8765/callback';
      const client = await api.post<{ client_id: string }>('/v1/oauth/clients', {
        ...as(),
        body: { name: 'Some App', redirect_uris: [redirect], type: 'public', scopes: ['admin:*'] },
      });
      const verifier = randomBytes(32).toString('base64url');
      const code = await inTenant(api, church.id, () =>
        api.app.get(OAuthCodesService).issue({
          clientId: parsePublicId(ID_PREFIX.oauthClient, client.body.client_id)!,
          userId: church.admin.id,
          scopes: ['admin:*'],
          redirectUri: redirect,
          codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
        }),
      );
      const form = new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirect,
        client_id: client.body.client_id,
        code_verifier: verifier,
      });
      const res = await api.post<{ access_token: string }>('/v1/oauth/token', {
        body: form.toString(),
        raw: { contentType: 'application/x-www-form-urlencoded' },
      });
      expect(res.status).toBe(200);
      return res.body.access_token;
    }

    it('refuse OAuth access tokens and kiosk keys, whatever their scopes (403 token_type_not_allowed)', async () => {
      const oauth = await oauthToken();
      const kiosk = (await newToken(api, church, [], 'org_admin', 'kiosk')).token;
      expect((await api.get('/v1/members', call(oauth))).status).toBe(200);
      const mine = await newToken(api, church, ['read:members'], 'staff');
      const routes: [string, string, JsonObject | undefined][] = [
        ['GET', '/v1/auth/tokens', undefined],
        ['GET', `/v1/auth/tokens/${mine.id}`, undefined],
        ['DELETE', `/v1/auth/tokens/${mine.id}`, undefined],
        ['POST', '/v1/auth/tokens', { name: 'survivor', scopes: ['read:members'] }],
        ['GET', '/v1/oauth/authorizations', undefined],
        ['GET', '/v1/devices', undefined],
        ['POST', '/v1/devices', { name: 'Rogue kiosk' }],
      ];
      for (const token of [oauth, kiosk])
        for (const [method, path, body] of routes) {
          const res = await api.send<Problem>(method, path, { ...call(token), body });
          expect({ method, path, status: res.status, code: res.body.code }).toEqual({
            method,
            path,
            status: 403,
            code: 'token_type_not_allowed',
          });
        }
      expect(
        (await api.get<{ revoked_at: string | null }>(`/v1/auth/tokens/${mine.id}`, as())).body.revoked_at,
      ).toBeNull();
    });

    it("a PAT manages its own user's PATs only; a service token without admin:* manages none", async () => {
      const ana = await newToken(api, church, ['read:members'], 'org_admin');
      const luis = await newToken(api, church, ['read:members'], 'staff');
      const list = await api.get<{ data: { id: string }[] }>('/v1/auth/tokens?limit=250', call(ana.token));
      expect(list.status).toBe(200);
      expect(list.body.data.map((t) => t.id)).toEqual([ana.id]);
      expect((await api.get(`/v1/auth/tokens/${luis.id}`, call(ana.token))).status).toBe(404);
      expect((await api.delete(`/v1/auth/tokens/${luis.id}`, call(ana.token))).status).toBe(404);
      const service = await api.post<Problem>('/v1/auth/tokens', {
        ...call(ana.token),
        body: { name: 'backend', type: 'service', scopes: ['read:members'] },
      });
      expect({ status: service.status, code: service.body.code }).toEqual({ status: 403, code: 'scope_insufficient' });

      const backend = await newToken(api, church, ['read:members'], 'org_admin', 'service');
      for (const [method, path] of [
        ['GET', '/v1/auth/tokens'],
        ['DELETE', `/v1/auth/tokens/${luis.id}`],
        ['GET', '/v1/oauth/authorizations'],
      ]) {
        const res = await api.send<Problem>(method, path, call(backend.token));
        expect({ path, status: res.status, code: res.body.code }).toEqual({
          path,
          status: 403,
          code: 'scope_insufficient',
        });
      }
      expect((await api.get(`/v1/auth/tokens/${luis.id}`, as())).status).toBe(200);
    });

    it('revoking a token revokes the tokens it created, and theirs in turn', async () => {
      const root = await newToken(api, church, ['read:members', 'write:members'], 'org_admin');
      const child = await api.post<{ id: string; token: string }>('/v1/auth/tokens', {
        ...call(root.token),
        body: { name: 'child', scopes: ['read:members'] },
      });
      const grandchild = await api.post<{ id: string; token: string }>('/v1/auth/tokens', {
        ...call(child.body.token),
        body: { name: 'grandchild', scopes: ['read:members'] },
      });
      const sibling = await newToken(api, church, ['read:members'], 'org_admin');
      expect((await api.get('/v1/members', call(grandchild.body.token))).status).toBe(200);

      expect((await api.delete(`/v1/auth/tokens/${root.id}`, as())).status).toBe(204);
      for (const token of [root.token, child.body.token, grandchild.body.token])
        expect((await api.get<Problem>('/v1/members', call(token))).body.code).toBe('token_revoked');
      expect((await api.get('/v1/members', call(sibling.token))).status).toBe(200);
    });

    it('tokens created while their creator is being revoked are revoked with it, or not created', async () => {
      const root = await newToken(api, church, ['read:members'], 'org_admin');
      const creations = Array.from({ length: 8 }, (_, i) =>
        api.post<{ token?: string; code?: string }>('/v1/auth/tokens', {
          ...call(root.token),
          body: { name: `race ${i}`, scopes: ['read:members'] },
        }),
      );
      const [revoked, ...created] = await Promise.all([api.delete(`/v1/auth/tokens/${root.id}`, as()), ...creations]);
      expect(revoked.status).toBe(204);
      for (const res of created) {
        expect([201, 401]).toContain(res.status);
        if (res.status === 201)
          expect((await api.get<Problem>('/v1/members', call(res.body.token!))).body.code).toBe('token_revoked');
      }
      const [{ live }] = await api.db.platform.query<{ live: number }[]>(
        `SELECT count(*)::int AS live FROM api_tokens WHERE tenant_id = $1 AND created_by_token_id = $2 AND revoked_at IS NULL`,
        [church.id, root.uuid],
      );
      expect(live).toBe(0);
    });
  });

  describe('the OAuth authorization request', () => {
    const redirect = 'https://app.example.org/callback';
    let clientId: string;
    const authorize = (params: Record<string, string>, cookie?: string) =>
      request(api.app.getHttpServer())
        .get(
          `/v1/oauth/authorize?${new URLSearchParams({
            response_type: 'code',
            client_id: clientId,
            redirect_uri: redirect,
            state: 'xyz',
            code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
            code_challenge_method: 'S256',
            ...params,
          }).toString()}`,
        )
        .set(cookie ? { Cookie: cookie } : {});
    const pending = () =>
      api.db.platform.query<{ scopes: string[] }[]>(
        'SELECT scopes FROM oauth_authorization_requests WHERE tenant_id = $1 AND client_id = $2',
        [church.id, parsePublicId(ID_PREFIX.oauthClient, clientId)],
      );

    beforeAll(async () => {
      const client = await api.post<{ client_id: string }>('/v1/oauth/clients', {
        ...as(),
        body: { name: 'Ceiling App', redirect_uris: [redirect], type: 'public', scopes: ['read:members', 'admin:*'] },
      });
      clientId = client.body.client_id;
    });

    it('keeps one pending request per browser, and binds it with a __Host- cookie', async () => {
      const first = await authorize({ scope: 'read:members' });
      expect(first.status).toBe(200);
      const cookie = String(first.headers['set-cookie']).split(';')[0];
      expect(cookie).toMatch(/^__Host-oauth_browser=/);
      for (let i = 0; i < 4; i++) expect((await authorize({ scope: 'read:members' }, cookie)).status).toBe(200);
      expect(await pending()).toHaveLength(1);
      await authorize({ scope: 'read:members' });
      expect(await pending()).toHaveLength(2);
    });

    it('without scope asks for the client ceiling but never admin:*', async () => {
      await api.db.platform.query('DELETE FROM oauth_authorization_requests WHERE tenant_id = $1', [church.id]);
      expect((await authorize({})).status).toBe(200);
      expect(await pending()).toEqual([{ scopes: ['read:members'] }]);
    });
  });
});
