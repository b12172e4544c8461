import { createHash } from 'node:crypto';
import { ID_PREFIX, parsePublicId } from '../../src/common/ids/id';
import { TenantContext } from '../../src/common/context/tenant-context';
import { SCOPES } from '../../src/platform/auth/scopes';
import { OAuthCodesService } from '../../src/modules/oauth/oauth-codes.service';
import { JsonObject, TestApi } from '../support/api';
import { inTenant, newTenant, newToken, TestTenant } from '../support/factories';
import { runCli, runCliOk } from '../support/processes';
import type { CreatedOAuthClientResponse as ClientBody } from '../../src/modules/oauth/dto/oauth-client.response';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';

/**
 * OAuth clients (CONTRACT §14): `/v1/oauth/clients` (admin:*) and `oauth:client:create`. Exact
 * redirect URIs (https, or http on a loopback host), a scope ceiling from SCOPES, the secret of a
 * confidential client shown once and stored as a SHA-256 hash.
 */

const FORM = 'application/x-www-form-urlencoded';
const sha256 = (value: string) => createHash('sha256').update(value).digest();
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
const VERIFIER = 'v'.repeat(20) + 'erifier-of-the-clients-suite-0123456789';

describe('OAuth clients', () => {
  let api: TestApi;
  let church: TestTenant;
  let other: TestTenant;

  const create = (body: JsonObject, tenant = church, token = tenant.token) =>
    api.post<ClientBody & Problem>('/v1/oauth/clients', { token, tenant: tenant.slug, body, lang: 'en' });

  /** Rows of a church's table, read through row-level security as the app does. */
  const rows = <T>(tenant: TestTenant, sql: string, params: unknown[] = []) =>
    inTenant(api, tenant.id, () => TenantContext.current().manager.query<T[]>(sql, params));

  beforeAll(async () => {
    api = await TestApi.start();
    church = await newTenant(api);
    other = await newTenant(api);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('registers a public client: 201, Location, client_id app_…, no secret; GET and the list show it', async () => {
    const res = await create({
      name: 'Check-in App',
      redirect_uris: ['https://checkin.example.org/cb', 'http://127.0.0.1:8765/callback'],
      scopes: ['read:members', 'read:events'],
    });
    expect(res.status).toBe(201);
    expect(res.body.client_id).toMatch(/^app_[0-9a-f]{32}$/);
    expect(res.body).toMatchObject({
      id: res.body.client_id,
      name: 'Check-in App',
      type: 'public',
      scopes: ['read:members', 'read:events'],
      client_secret_display: null,
    });
    expect(res.body.client_secret).toBeUndefined();
    expect(res.headers.location).toBe(`/v1/oauth/clients/${res.body.id}`);
    const got = await api.get<ClientBody>(`/v1/oauth/clients/${res.body.id}`, {
      token: church.token,
      tenant: church.slug,
    });
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ ...res.body });
    const list = await api.get<{ data: ClientBody[] }>('/v1/oauth/clients?type=public', {
      token: church.token,
      tenant: church.slug,
    });
    expect(list.body.data.map((c) => c.id)).toContain(res.body.id);
  });

  it('defaults to a public client whose ceiling is every scope but admin:*', async () => {
    const res = await create({ name: 'Defaults', redirect_uris: ['https://d.example.org/cb'] });
    expect(res.status).toBe(201);
    expect(res.body.type).toBe('public');
    expect(res.body.scopes).toEqual(SCOPES.filter((s) => s !== 'admin:*'));
  });

  it('a confidential client gets its secret once; only its SHA-256 is stored; GET shows the last 4 characters', async () => {
    const res = await create({
      name: 'Giving Sync',
      type: 'confidential',
      redirect_uris: ['https://giving.example.org/oauth'],
      scopes: ['read:donations'],
    });
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const secret = res.body.client_secret!;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.client_secret_display).toBe(`…${secret.slice(-4)}`);
    const got = await api.get<ClientBody>(`/v1/oauth/clients/${res.body.id}`, {
      token: church.token,
      tenant: church.slug,
    });
    expect(got.body.client_secret).toBeUndefined();
    expect(JSON.stringify(got.body)).not.toContain(secret);
    const [row] = await rows<{ secret_hash: Buffer; secret_last4: string }>(
      church,
      'SELECT secret_hash, secret_last4 FROM oauth_clients WHERE id = $1',
      [parsePublicId(ID_PREFIX.oauthClient, res.body.id)],
    );
    expect(row.secret_hash.equals(sha256(secret))).toBe(true);
    expect(row.secret_last4).toBe(secret.slice(-4));
  });

  it('refuses redirect URIs that are not https or loopback http, carry a fragment or user information, or repeat; unknown scopes; a missing name', async () => {
    const res = await create({
      name: 'Bad URIs',
      redirect_uris: [
        'http://app.example.org/cb',
        'https://ok.example.org/cb#frag',
        'https://user:pw@ok.example.org/cb',
        'app.example.org/cb',
        'https://ok.example.org/a',
        'https://ok.example.org/a',
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors!.map((e) => [e.field, e.issue])).toEqual([
      ['redirect_uris[0]', 'invalid_format'],
      ['redirect_uris[1]', 'invalid_format'],
      ['redirect_uris[2]', 'invalid_format'],
      ['redirect_uris[3]', 'invalid_format'],
      ['redirect_uris[5]', 'duplicate'],
    ]);
    const shape = await create({
      name: '',
      redirect_uris: ['https://ok.example.org/a'],
      scopes: ['read:members', 'read:everything'],
      type: 'secret',
    });
    expect(shape.status).toBe(422);
    expect(shape.body.errors!.map((e) => [e.field, e.issue])).toEqual(
      expect.arrayContaining([
        ['name', 'too_short'],
        ['scopes', 'one_of'],
        ['type', 'one_of'],
      ]),
    );
    const none = await create({ name: 'None', redirect_uris: [] });
    expect(none.body.errors!.map((e) => e.field)).toEqual(['redirect_uris']);
    // Spanish names the format in Spanish.
    const es = await api.post<Problem>('/v1/oauth/clients', {
      token: church.token,
      tenant: church.slug,
      body: { name: 'X', redirect_uris: ['http://x.example.org/'] },
      lang: 'es',
    });
    expect(es.body.errors![0].message).toContain('URL https absoluta');
    // Loopback http in its three spellings is accepted (native apps, RFC 8252).
    const loopback = await create({
      name: 'Native',
      redirect_uris: ['http://127.0.0.1/cb', 'http://[::1]:9000/cb', 'http://localhost:3000/cb'],
    });
    expect(loopback.status).toBe(201);
  });

  it('needs admin:* (403 scope_insufficient) and is confined to the church (another church’s id is a 404)', async () => {
    const staff = await newToken(api, church, ['read:members', 'write:members'], 'staff');
    const refused = await create({ name: 'Nope', redirect_uris: ['https://x.example.org/cb'] }, church, staff.token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('scope_insufficient');
    const theirs = await create({ name: 'Theirs', redirect_uris: ['https://theirs.example.org/cb'] }, other);
    for (const [method, body] of [
      ['get', undefined],
      ['patch', { name: 'Mine now' }],
      ['delete', undefined],
    ] as const) {
      const res = await api[method]<Problem>(`/v1/oauth/clients/${theirs.body.id}`, {
        token: church.token,
        tenant: church.slug,
        body,
      });
      expect({ method, status: res.status, code: res.body.code }).toEqual({
        method,
        status: 404,
        code: 'resource_not_found',
      });
    }
    const list = await api.get<{ data: ClientBody[] }>('/v1/oauth/clients?limit=250', {
      token: church.token,
      tenant: church.slug,
    });
    expect(list.body.data.map((c) => c.id)).not.toContain(theirs.body.id);
    expect(
      (await api.get<Problem>('/v1/oauth/clients/app_garbage', { token: church.token, tenant: church.slug })).status,
    ).toBe(404);
  });

  it('PATCH changes the name, the redirect URIs and the ceiling, not the type', async () => {
    const made = await create({ name: 'Before', redirect_uris: ['https://before.example.org/cb'] });
    const res = await api.patch<ClientBody>(`/v1/oauth/clients/${made.body.id}`, {
      token: church.token,
      tenant: church.slug,
      body: { name: 'After', redirect_uris: ['https://after.example.org/cb'], scopes: ['read:groups'] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'After',
      redirect_uris: ['https://after.example.org/cb'],
      scopes: ['read:groups'],
      type: 'public',
    });
    const type = await api.patch<Problem>(`/v1/oauth/clients/${made.body.id}`, {
      token: church.token,
      tenant: church.slug,
      body: { type: 'confidential' },
    });
    expect(type.status).toBe(422);
    expect(type.body.errors!.map((e) => [e.field, e.issue])).toEqual([['type', 'unknown_field']]);
    const cleared = await api.patch<Problem>(`/v1/oauth/clients/${made.body.id}`, {
      token: church.token,
      tenant: church.slug,
      body: { redirect_uris: [] },
    });
    expect(cleared.status).toBe(422);
  });

  it('DELETE removes the client and revokes what it holds: its access tokens get 401 token_revoked, its codes and refresh tokens stop working', async () => {
    const made = await create({
      name: 'Doomed',
      redirect_uris: ['https://doomed.example.org/cb'],
      scopes: ['read:members'],
    });
    const staff = await newToken(api, church, ['read:members'], 'staff');
    const issue = () =>
      inTenant(api, church.id, () =>
        api.app.get(OAuthCodesService).issue({
          clientId: parsePublicId(ID_PREFIX.oauthClient, made.body.id)!,
          userId: staff.user.id,
          scopes: ['read:members'],
          redirectUri: 'https://doomed.example.org/cb',
          codeChallenge: s256(VERIFIER),
        }),
      );
    const exchange = (code: string) =>
      api.post<{ access_token: string; refresh_token: string; error?: string }>('/v1/oauth/token', {
        raw: { contentType: FORM },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: 'https://doomed.example.org/cb',
          code_verifier: VERIFIER,
          client_id: made.body.id,
        }).toString(),
      });
    const tokens = (await exchange(await issue())).body;
    const pending = await issue();
    expect((await api.get('/v1/members', { token: tokens.access_token, tenant: church.slug })).status).toBe(200);

    expect(
      (await api.delete(`/v1/oauth/clients/${made.body.id}`, { token: church.token, tenant: church.slug })).status,
    ).toBe(204);
    const after = await api.get<Problem>('/v1/members', { token: tokens.access_token, tenant: church.slug });
    expect({ status: after.status, code: after.body.code }).toEqual({ status: 401, code: 'token_revoked' });
    expect((await exchange(pending)).body.error).toBe('invalid_client');
    expect(
      (await api.get(`/v1/oauth/clients/${made.body.id}`, { token: church.token, tenant: church.slug })).status,
    ).toBe(404);
    expect(
      (await api.delete(`/v1/oauth/clients/${made.body.id}`, { token: church.token, tenant: church.slug })).status,
    ).toBe(404);
  });

  describe('npm run cli -- oauth:client:create', () => {
    it('prints the client_id alone (a public client by default), and the client exists with those redirect URIs', async () => {
      const result = await runCliOk([
        'oauth:client:create',
        '--tenant',
        church.slug,
        '--name',
        'CLI App',
        '--redirect-uri',
        'http://127.0.0.1:8765/callback',
        '--redirect-uri',
        'https://cli.example.org/cb',
      ]);
      expect(result.stdout).toMatch(/^app_[0-9a-f]{32}\n$/);
      const id = result.stdout.trim();
      const got = await api.get<ClientBody>(`/v1/oauth/clients/${id}`, { token: church.token, tenant: church.slug });
      expect(got.body).toMatchObject({
        name: 'CLI App',
        type: 'public',
        redirect_uris: ['http://127.0.0.1:8765/callback', 'https://cli.example.org/cb'],
      });
    });

    it('--type confidential --scopes … --json prints the client with its secret once', async () => {
      const result = await runCliOk([
        'oauth:client:create',
        '--tenant',
        church.slug,
        '--name',
        'CLI Server',
        '--redirect-uri',
        'https://srv.example.org/cb',
        '--type',
        'confidential',
        '--scopes',
        'read:members,read:events',
        '--json',
      ]);
      const body = JSON.parse(result.stdout) as ClientBody;
      expect(body).toMatchObject({ name: 'CLI Server', type: 'confidential', scopes: ['read:members', 'read:events'] });
      expect(body.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const text = await runCliOk([
        'oauth:client:create',
        '--tenant',
        church.slug,
        '--name',
        'CLI Server 2',
        '--redirect-uri',
        'https://srv.example.org/cb',
        '--type',
        'confidential',
      ]);
      expect(text.stdout).toMatch(/^app_[0-9a-f]{32}\n[A-Za-z0-9_-]{43}\n$/);
    });

    it('refuses a bad redirect URI, an unknown type and a missing --redirect-uri with a message and a non-zero exit', async () => {
      const bad = await runCli([
        'oauth:client:create',
        '--tenant',
        church.slug,
        '--name',
        'Bad',
        '--redirect-uri',
        'http://evil.example.org/cb',
      ]);
      expect(bad.code).not.toBe(0);
      expect(bad.stdout).toBe('');
      expect(bad.stderr).toMatch(/validation_failed.*redirect_uris\[0\]: invalid_format/);
      const type = await runCli([
        'oauth:client:create',
        '--tenant',
        church.slug,
        '--name',
        'Bad',
        '--redirect-uri',
        'https://x.example.org/cb',
        '--type',
        'secret',
      ]);
      expect(type.code).not.toBe(0);
      expect(type.stderr).toMatch(/--type must be one of public, confidential/);
      const missing = await runCli(['oauth:client:create', '--tenant', church.slug, '--name', 'Bad']);
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toMatch(/--redirect-uri is required/);
    });
  });
});
