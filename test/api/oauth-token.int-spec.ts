import { createHash, randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { TenantContext } from '../../src/common/context/tenant-context';
import { ID_PREFIX, parsePublicId } from '../../src/common/ids/id';
import type { Role, Scope } from '../../src/platform/auth/scopes';
import { OAuthCodesService } from '../../src/modules/oauth/oauth-codes.service';
import { UsersService } from '../../src/platform/users/users.service';
import type { UserEntity } from '../../src/platform/users/user.entity';
import { TestApi, TypedResponse } from '../support/api';
import { inTenant, newOAuthClientThroughApi, newTenant, newToken, TestTenant } from '../support/factories';
import { listenOnLoopback } from '../support/fake-http-server';
import { freePort } from '../support/processes';
import type {
  OAuthErrorResponse as OAuthErr,
  OAuthTokenResponse as Tokens,
} from '../../src/modules/oauth/dto/oauth-token.response';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import type { CreatedOAuthClientResponse } from '../../src/modules/oauth/dto/oauth-client.response';

/**
 * The token endpoint, revocation, metadata and the authorized-apps list (CONTRACT §5, §14), over
 * HTTP on PostgreSQL. Codes come from OAuthCodesService.issue inside the church's transaction, as
 * the consent page issues them (the browser flow is tested in oauth-browser). The last block drives
 * the endpoints with openid-client, a client nobody here wrote.
 */

const FORM = 'application/x-www-form-urlencoded';
const REDIRECT = 'http://127.0.0.1:8765/callback';

const sha256 = (value: string) => createHash('sha256').update(value).digest();
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
const newVerifier = () => randomBytes(32).toString('base64url');
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** A client as registered (not replayed): a confidential one shows its secret. */
type Client = CreatedOAuthClientResponse & { client_secret?: string };

describe('OAuth token endpoint, revocation, metadata and authorized apps', () => {
  let api: TestApi;
  let server: Server;
  let issuer: string;
  let church: TestTenant;
  let other: TestTenant;
  let staff: UserEntity;
  let app: Client;
  let server2server: Client;
  let otherApp: Client;
  let foreignApp: Client;

  /** POST a form to the token or revocation endpoint. */
  const post = <T = Tokens & OAuthErr>(
    path: '/v1/oauth/token' | '/v1/oauth/revoke',
    params: Record<string, string | undefined>,
    headers: Record<string, string> = {},
  ) => {
    const body = new URLSearchParams(
      Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined),
    ).toString();
    return api.post<T>(path, { raw: { contentType: FORM }, body, headers });
  };

  const rows = <T>(tenant: TestTenant, sql: string, params: unknown[] = []) =>
    inTenant(api, tenant.id, () => TenantContext.current().manager.query<T[]>(sql, params));

  const newStaff = (tenant: TestTenant, role: Role = 'staff') =>
    inTenant(api, tenant.id, () =>
      api.app.get(UsersService).create({ email: `${role}-${randomBytes(8).toString('hex')}@example.org`, role }),
    );

  /** A code as the consent page issues it (inside the church's transaction). */
  const issueCode = (opts: {
    client?: Client;
    user?: UserEntity;
    scopes?: Scope[];
    challenge: string;
    redirectUri?: string;
    tenant?: TestTenant;
  }) =>
    inTenant(api, (opts.tenant ?? church).id, () =>
      api.app.get(OAuthCodesService).issue({
        clientId: parsePublicId(ID_PREFIX.oauthClient, (opts.client ?? app).client_id)!,
        userId: (opts.user ?? staff).id,
        scopes: opts.scopes ?? ['read:members'],
        redirectUri: opts.redirectUri ?? REDIRECT,
        codeChallenge: opts.challenge,
      }),
    );

  const exchange = (
    code: string,
    verifier: string,
    extra: Record<string, string | undefined> = {},
    headers: Record<string, string> = {},
  ) =>
    post(
      '/v1/oauth/token',
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        client_id: app.client_id,
        ...extra,
      },
      headers,
    );

  /** A fresh authorization of `app` for `staff`: the token response. */
  const authorize = async (scopes: Scope[] = ['read:members'], user = staff): Promise<Tokens> => {
    const verifier = newVerifier();
    const res = await exchange(await issueCode({ scopes, user, challenge: s256(verifier) }), verifier);
    if (res.status !== 200) throw new Error(`exchange: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };

  const refresh = (refreshToken: string, extra: Record<string, string> = {}) =>
    post('/v1/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: app.client_id,
      ...extra,
    });

  const members = (token: string, tenant = church) => api.get<Problem>('/v1/members', { token, tenant: tenant.slug });

  const expectOAuthError = (
    res: TypedResponse<Tokens & OAuthErr>,
    status: number,
    error: string,
    description: RegExp,
  ) => {
    expect({ status: res.status, error: res.body.error }).toEqual({ status, error });
    expect(res.body.error_description).toMatch(description);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.pragma).toBe('no-cache');
    expect(res.body).not.toHaveProperty('access_token');
  };

  beforeAll(async () => {
    const port = await freePort(); // the issuer must name the address the app listens on
    issuer = `http://127.0.0.1:${port}`;
    api = await TestApi.start({ PUBLIC_URL: issuer });
    server = api.app.getHttpServer();
    await listenOnLoopback(server, port);
    church = await newTenant(api);
    other = await newTenant(api);
    staff = await newStaff(church);
    app = await newOAuthClientThroughApi(api, church, {
      name: 'Check-in App',
      redirect_uris: [REDIRECT],
      scopes: ['read:members', 'write:members', 'read:events', 'read:donations', 'admin:*'],
    });
    server2server = await newOAuthClientThroughApi(api, church, {
      name: 'Giving Sync',
      type: 'confidential',
      redirect_uris: [REDIRECT],
      scopes: ['read:members'],
    });
    otherApp = await newOAuthClientThroughApi(api, church, {
      name: 'Another App',
      redirect_uris: [REDIRECT],
      scopes: ['read:members'],
    });
    foreignApp = await newOAuthClientThroughApi(api, other, {
      name: 'Foreign App',
      redirect_uris: [REDIRECT],
      scopes: ['read:members'],
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  describe('authorization_code', () => {
    it('answers RFC 6749 §5.1 with no-store, and stores only hashes (code, access and refresh token)', async () => {
      const verifier = newVerifier();
      const code = await issueCode({ scopes: ['read:members', 'read:events'], challenge: s256(verifier) });
      const res = await exchange(code, verifier);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers.pragma).toBe('no-cache');
      expect(res.body).toEqual({
        access_token: expect.stringMatching(/^cho_[0-9A-Za-z]{36}$/),
        token_type: 'Bearer',
        expires_in: 3600,
        refresh_token: expect.stringMatching(/^chr_[0-9A-Za-z]{36}$/),
        scope: 'read:members read:events',
      });
      const [codeRow] = await rows<{ used_at: Date; grant_id: string }>(
        church,
        'SELECT used_at, grant_id FROM oauth_codes WHERE code_hash = $1',
        [sha256(code)],
      );
      expect(codeRow.used_at).toBeTruthy();
      const [access] = await rows<{
        type: string;
        name: string;
        user_id: string;
        scopes: string[];
        grant_id: string;
        expires_at: Date;
      }>(church, 'SELECT type, name, user_id, scopes, grant_id, expires_at FROM api_tokens WHERE token_hash = $1', [
        sha256(res.body.access_token),
      ]);
      expect(access).toMatchObject({
        type: 'oauth',
        name: 'Check-in App',
        user_id: staff.id,
        scopes: ['read:members', 'read:events'],
        grant_id: codeRow.grant_id,
      });
      expect(Math.abs(access.expires_at.getTime() - Date.now() - 3_600_000)).toBeLessThan(60_000);
      const [refreshRow] = await rows<{ grant_id: string; expires_at: Date }>(
        church,
        'SELECT grant_id, expires_at FROM oauth_refresh_tokens WHERE token_hash = $1',
        [sha256(res.body.refresh_token)],
      );
      expect(refreshRow.grant_id).toBe(codeRow.grant_id);
      expect(Math.abs(refreshRow.expires_at.getTime() - Date.now() - 30 * 86_400_000)).toBeLessThan(60_000);
      // No secret in clear anywhere.
      const dump = JSON.stringify(
        await rows(
          church,
          `SELECT (SELECT json_agg(c) FROM oauth_codes c) AS codes, (SELECT json_agg(r) FROM oauth_refresh_tokens r) AS refresh`,
        ),
      );
      for (const secret of [code, res.body.access_token, res.body.refresh_token]) expect(dump).not.toContain(secret);
    });

    it('the access token works on GET /v1/members within the granted scopes only (403 outside), and writes are audited under the client’s name', async () => {
      const tokens = await authorize(['read:members', 'write:members']);
      expect((await members(tokens.access_token)).status).toBe(200);
      const events = await api.get<Problem>('/v1/events', { token: tokens.access_token, tenant: church.slug });
      expect({ status: events.status, code: events.body.code }).toEqual({ status: 403, code: 'scope_insufficient' });
      const created = await api.post<{ id: string }>('/v1/members', {
        token: tokens.access_token,
        tenant: church.slug,
        body: { first_name: 'Ana', last_name: 'OAuth' },
      });
      expect(created.status).toBe(201);
      const audit = await api.get<{
        data: { action: string; token_name: string; resource_id: string; user_id: string }[];
      }>(`/v1/audit-log?resource_id=${created.body.id}`, {
        token: church.token,
        tenant: church.slug,
      });
      expect(audit.body.data).toEqual([
        expect.objectContaining({ action: 'members.create', token_name: 'Check-in App' }),
      ]);
    });

    it('caps the scopes by the user’s role (a volunteer’s grant never holds write:members), and a token is refused by another church', async () => {
      const volunteer = await newStaff(church, 'volunteer');
      const tokens = await authorize(['read:members', 'write:members'], volunteer);
      expect(tokens.scope).toBe('read:members');
      const foreign = await members(tokens.access_token, other);
      expect({ status: foreign.status, code: foreign.body.code }).toEqual({ status: 403, code: 'tenant_forbidden' });
    });

    it('a replayed code is invalid_grant and revokes the tokens of the first exchange', async () => {
      const verifier = newVerifier();
      const code = await issueCode({ challenge: s256(verifier) });
      const first = await exchange(code, verifier);
      expect(first.status).toBe(200);
      expect((await members(first.body.access_token)).status).toBe(200);
      expectOAuthError(await exchange(code, verifier), 400, 'invalid_grant', /already been used.*revoked/);
      const after = await members(first.body.access_token);
      expect({ status: after.status, code: after.body.code }).toEqual({ status: 401, code: 'token_revoked' });
      expectOAuthError(await refresh(first.body.refresh_token), 400, 'invalid_grant', /revoked/);
    });

    it('two parallel exchanges of one code: exactly one gets tokens, and the other, a replay, revokes them', async () => {
      const verifier = newVerifier();
      const code = await issueCode({ challenge: s256(verifier) });
      const answers = await Promise.all([exchange(code, verifier), exchange(code, verifier)]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
      const winner = answers.find((a) => a.status === 200)!;
      expect(answers.find((a) => a.status === 400)!.body.error).toBe('invalid_grant');
      expect((await members(winner.body.access_token)).body.code).toBe('token_revoked');
      const [count] = await rows<{ n: number }>(
        church,
        'SELECT count(*)::int AS n FROM oauth_grants g JOIN oauth_codes c ON c.grant_id = g.id WHERE c.code_hash = $1',
        [sha256(code)],
      );
      expect(count.n).toBe(1);
    });

    it('PKCE is S256 only: a missing or malformed verifier is invalid_request, a plain-method challenge or a wrong verifier is invalid_grant', async () => {
      const verifier = newVerifier();
      const code = await issueCode({ challenge: s256(verifier) });
      expectOAuthError(
        await exchange(code, undefined as unknown as string),
        400,
        'invalid_request',
        /code_verifier is missing.*PKCE.*S256/,
      );
      expectOAuthError(await exchange(code, 'short'), 400, 'invalid_request', /43 to 128 characters/);
      expectOAuthError(
        await exchange(code, newVerifier()),
        400,
        'invalid_grant',
        /code_verifier does not match the code_challenge \(S256\)/,
      );
      // A client that sent the verifier itself as the challenge (code_challenge_method=plain) cannot redeem it.
      const plain = newVerifier();
      expectOAuthError(
        await exchange(await issueCode({ challenge: plain }), plain),
        400,
        'invalid_grant',
        /code_verifier does not match/,
      );
      // The right verifier still works: a failed check does not burn the code.
      expect((await exchange(code, verifier)).status).toBe(200);
    });

    it('a redirect_uri other than the request’s, or none, is refused', async () => {
      const verifier = newVerifier();
      const code = await issueCode({ challenge: s256(verifier) });
      expectOAuthError(
        await exchange(code, verifier, { redirect_uri: 'http://127.0.0.1:8765/callback/' }),
        400,
        'invalid_grant',
        /redirect_uri does not match/,
      );
      expectOAuthError(
        await exchange(code, verifier, { redirect_uri: undefined }),
        400,
        'invalid_request',
        /redirect_uri is missing/,
      );
    });

    it('an expired code (10 minutes) is invalid_grant', async () => {
      const verifier = newVerifier();
      const code = await issueCode({ challenge: s256(verifier) });
      await rows(church, `UPDATE oauth_codes SET expires_at = now() - interval '1 second' WHERE code_hash = $1`, [
        sha256(code),
      ]);
      expectOAuthError(await exchange(code, verifier), 400, 'invalid_grant', /expired/);
      const [fresh] = await rows<{ lifetime: number }>(
        church,
        `SELECT extract(epoch FROM expires_at - created_at)::int AS lifetime FROM oauth_codes WHERE code_hash <> $1 LIMIT 1`,
        [sha256(code)],
      );
      expect(fresh.lifetime).toBe(600);
    });

    it('a code of another client, or of another church, is invalid_grant', async () => {
      const verifier = newVerifier();
      const code = await issueCode({ challenge: s256(verifier) });
      expectOAuthError(
        await exchange(code, verifier, { client_id: otherApp.client_id }),
        400,
        'invalid_grant',
        /issued to another client/,
      );
      // The other church's client cannot redeem this church's code, and its own code names its own church.
      expectOAuthError(
        await exchange(code, verifier, { client_id: foreignApp.client_id }),
        400,
        'invalid_grant',
        /unknown/,
      );
      const otherStaff = await newStaff(other);
      const foreignCode = await issueCode({
        tenant: other,
        client: foreignApp,
        user: otherStaff,
        challenge: s256(verifier),
      });
      expectOAuthError(await exchange(foreignCode, verifier), 400, 'invalid_grant', /unknown/);
      const theirs = await exchange(foreignCode, verifier, { client_id: foreignApp.client_id });
      expect(theirs.status).toBe(200);
      expect((await members(theirs.body.access_token, other)).status).toBe(200);
      expect((await members(theirs.body.access_token, church)).body.code).toBe('tenant_forbidden');
    });
  });

  describe('client authentication', () => {
    const confidentialCode = async () => {
      const verifier = newVerifier();
      return { verifier, code: await issueCode({ client: server2server, challenge: s256(verifier) }) };
    };

    it('a confidential client authenticates with client_secret_basic or client_secret_post', async () => {
      const a = await confidentialCode();
      expect(
        (
          await exchange(
            a.code,
            a.verifier,
            { client_id: undefined },
            { Authorization: basic(server2server.client_id, server2server.client_secret!) },
          )
        ).status,
      ).toBe(200);
      const b = await confidentialCode();
      expect(
        (
          await exchange(b.code, b.verifier, {
            client_id: server2server.client_id,
            client_secret: server2server.client_secret,
          })
        ).status,
      ).toBe(200);
    });

    it('a bad secret is 401 invalid_client, with WWW-Authenticate: Basic', async () => {
      const { code, verifier } = await confidentialCode();
      const viaBasic = await exchange(
        code,
        verifier,
        { client_id: undefined },
        { Authorization: basic(server2server.client_id, 'wrong-secret') },
      );
      expectOAuthError(viaBasic, 401, 'invalid_client', /client_secret does not match/);
      expect(viaBasic.headers['www-authenticate']).toMatch(/^Basic realm="church-api"/);
      const viaPost = await exchange(code, verifier, {
        client_id: server2server.client_id,
        client_secret: 'wrong-secret',
      });
      expectOAuthError(viaPost, 400, 'invalid_client', /client_secret does not match/);
      expect(viaPost.headers['www-authenticate']).toBeUndefined();
      expectOAuthError(
        await exchange(code, verifier, { client_id: server2server.client_id }),
        400,
        'invalid_client',
        /confidential: authenticate/,
      );
      expectOAuthError(
        await exchange(code, verifier, { client_id: undefined }, { Authorization: 'Basic !!!' }),
        401,
        'invalid_client',
        /not Basic credentials/,
      );
      // After all those failures the code is still good for the real client.
      expect(
        (
          await exchange(
            code,
            verifier,
            { client_id: undefined },
            { Authorization: basic(server2server.client_id, server2server.client_secret!) },
          )
        ).status,
      ).toBe(200);
    });

    it('a public client must not send a secret; unknown or missing client_id is invalid_client; two methods at once is invalid_request', async () => {
      const verifier = newVerifier();
      const code = await issueCode({ challenge: s256(verifier) });
      expectOAuthError(
        await exchange(code, verifier, { client_secret: 'anything' }),
        400,
        'invalid_client',
        /public: it must not send a client_secret/,
      );
      expectOAuthError(
        await exchange(code, verifier, { client_id: 'app_00000000000000000000000000000000' }),
        400,
        'invalid_client',
        /client_id is unknown/,
      );
      expectOAuthError(
        await exchange(code, verifier, { client_id: 'garbage' }),
        400,
        'invalid_client',
        /client_id is unknown/,
      );
      const unknownBasic = await exchange(
        code,
        verifier,
        { client_id: undefined },
        { Authorization: basic('app_00000000000000000000000000000000', 'x') },
      );
      expectOAuthError(unknownBasic, 401, 'invalid_client', /client_id is unknown/);
      expect(unknownBasic.headers['www-authenticate']).toMatch(/^Basic/);
      expectOAuthError(
        await exchange(code, verifier, { client_id: undefined }),
        400,
        'invalid_client',
        /client_id is missing/,
      );
      expectOAuthError(
        await exchange(
          code,
          verifier,
          { client_id: server2server.client_id, client_secret: 'x' },
          { Authorization: basic(server2server.client_id, server2server.client_secret!) },
        ),
        400,
        'invalid_request',
        /authenticates twice/,
      );
      // A Bearer header is not client authentication: ignored (the client_id in the body counts).
      expect((await exchange(code, verifier, {}, { Authorization: `Bearer ${church.token}` })).status).toBe(200);
    });
  });

  describe('malformed requests', () => {
    it('grant_type missing or unknown, a repeated parameter, a JSON body: RFC 6749 errors, never problem+json', async () => {
      expectOAuthError(
        await post('/v1/oauth/token', { client_id: app.client_id }),
        400,
        'invalid_request',
        /grant_type is missing/,
      );
      expectOAuthError(
        await post('/v1/oauth/token', { grant_type: 'password', client_id: app.client_id }),
        400,
        'unsupported_grant_type',
        /"password" is not supported/,
      );
      const repeated = await api.post<Tokens & OAuthErr>('/v1/oauth/token', {
        raw: { contentType: FORM },
        body: `grant_type=refresh_token&grant_type=authorization_code&client_id=${app.client_id}`,
      });
      expectOAuthError(repeated, 400, 'invalid_request', /grant_type is sent more than once/);
      const json = await api.post<Tokens & OAuthErr>('/v1/oauth/token', {
        body: { grant_type: 'authorization_code', client_id: app.client_id },
      });
      expectOAuthError(json, 400, 'invalid_request', /must be application\/x-www-form-urlencoded/);
      const nul = await api.post<Tokens & OAuthErr>('/v1/oauth/token', {
        raw: { contentType: FORM },
        body: `grant_type=authorization_code&client_id=${app.client_id}&code=%00`,
      });
      expectOAuthError(nul, 400, 'invalid_request', /not readable/);
      const big = await api.post<Tokens & OAuthErr>('/v1/oauth/token', {
        raw: { contentType: FORM },
        body: `grant_type=x&code=${'a'.repeat(70_000)}`,
      });
      expectOAuthError(big, 400, 'invalid_request', /larger than 64 KB/);
    });
  });

  describe('browser apps (CORS)', () => {
    it('an origin on the CORS allowlist of the client’s church may read the answers; another origin gets no CORS header', async () => {
      const appOrigin = 'https://checkin-web.example.org';
      const put = await api.put('/v1/settings/cors', {
        token: church.token,
        tenant: church.slug,
        body: { allowed_origins: [appOrigin] },
      });
      expect(put.status).toBe(200);
      // A preflight (a page that sends Authorization: Basic, say) is answered for an allowlisted origin.
      const preflight = await api.send('OPTIONS', '/v1/oauth/token', {
        headers: { Origin: appOrigin, 'Access-Control-Request-Method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe(appOrigin);
      const verifier = newVerifier();
      const allowed = await exchange(
        await issueCode({ challenge: s256(verifier) }),
        verifier,
        {},
        { Origin: appOrigin },
      );
      expect(allowed.status).toBe(200);
      expect(allowed.headers['access-control-allow-origin']).toBe(appOrigin);
      expect(allowed.headers.vary).toMatch(/Origin/);
      const noOrigin = await refresh(allowed.body.refresh_token);
      expect(noOrigin.headers['access-control-allow-origin']).toBeUndefined();
      const elsewhere = await post(
        '/v1/oauth/token',
        { grant_type: 'refresh_token', refresh_token: noOrigin.body.refresh_token, client_id: app.client_id },
        { Origin: 'https://evil.example.org' },
      );
      expect(elsewhere.status).toBe(200);
      expect(elsewhere.headers['access-control-allow-origin']).toBeUndefined();
      // An error after the client is known is readable too (the page can tell the user what failed).
      const failed = await post(
        '/v1/oauth/token',
        { grant_type: 'refresh_token', refresh_token: elsewhere.body.refresh_token, client_id: otherApp.client_id },
        { Origin: appOrigin },
      );
      expect(failed.body.error).toBe('invalid_grant');
      expect(failed.headers['access-control-allow-origin']).toBe(appOrigin);
    });
  });

  describe('refresh_token', () => {
    it('rotates: a new pair each time, the scope kept; the old access token stays valid until it expires', async () => {
      const first = await authorize(['read:members', 'read:events']);
      const second = await refresh(first.refresh_token);
      expect(second.status).toBe(200);
      expect(second.headers['cache-control']).toBe('no-store');
      expect(second.body.refresh_token).not.toBe(first.refresh_token);
      expect(second.body.access_token).not.toBe(first.access_token);
      expect(second.body.scope).toBe('read:members read:events');
      const third = await refresh(second.body.refresh_token, { scope: 'read:members' });
      expect(third.body.scope).toBe('read:members');
      expectOAuthError(
        await refresh(third.body.refresh_token, { scope: 'write:members' }),
        400,
        'invalid_scope',
        /write:members.*not granted/,
      );
      for (const token of [first.access_token, second.body.access_token, third.body.access_token])
        expect((await members(token)).status).toBe(200);
      const [rotated] = await rows<{ rotated_at: Date; replaced_by: string }>(
        church,
        'SELECT rotated_at, replaced_by FROM oauth_refresh_tokens WHERE token_hash = $1',
        [sha256(first.refresh_token)],
      );
      const [successor] = await rows<{ id: string }>(
        church,
        'SELECT id FROM oauth_refresh_tokens WHERE token_hash = $1',
        [sha256(second.body.refresh_token)],
      );
      expect(rotated.replaced_by).toBe(successor.id);
    });

    it('a rotated refresh token presented after the grace revokes the whole family', async () => {
      const first = await authorize();
      const second = (await refresh(first.refresh_token)).body;
      const third = (await refresh(second.refresh_token)).body;
      await rows(
        church,
        `UPDATE oauth_refresh_tokens SET rotated_at = now() - interval '1 minute' WHERE token_hash = $1`,
        [sha256(first.refresh_token)],
      );
      expectOAuthError(
        await refresh(first.refresh_token),
        400,
        'invalid_grant',
        /already used.*every token of this authorization is now revoked/,
      );
      expectOAuthError(await refresh(third.refresh_token), 400, 'invalid_grant', /revoked/);
      for (const token of [first.access_token, second.access_token, third.access_token])
        expect((await members(token)).body.code).toBe('token_revoked');
    });

    it('two parallel refreshes with the same token both succeed (the grace) with fresh pairs of the same family', async () => {
      const first = await authorize();
      const answers = await Promise.all([refresh(first.refresh_token), refresh(first.refresh_token)]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const [a, b] = answers.map((x) => x.body);
      expect(a.refresh_token).not.toBe(b.refresh_token);
      const grants = await rows<{ grant_id: string }>(
        church,
        'SELECT DISTINCT grant_id FROM oauth_refresh_tokens WHERE token_hash = ANY($1::bytea[])',
        [[first.refresh_token, a.refresh_token, b.refresh_token].map(sha256)],
      );
      expect(grants).toHaveLength(1);
      for (const token of [a.access_token, b.access_token]) expect((await members(token)).status).toBe(200);
      // Both successors work; revoking one revokes the family, the other included.
      expect((await refresh(a.refresh_token)).status).toBe(200);
      expect((await post('/v1/oauth/revoke', { token: b.refresh_token, client_id: app.client_id })).status).toBe(200);
      expectOAuthError(await refresh(b.refresh_token), 400, 'invalid_grant', /revoked/);
      expect((await members(a.access_token)).body.code).toBe('token_revoked');
    });

    it('an expired refresh token, another client’s, or a malformed one is invalid_grant; a role lowered since the consent caps the access token at once and the refreshed scopes', async () => {
      const demoted = await newStaff(church, 'staff');
      const tokens = await authorize(['read:members', 'write:members'], demoted);
      expectOAuthError(
        await refresh(tokens.refresh_token, { client_id: otherApp.client_id }),
        400,
        'invalid_grant',
        /issued to another client/,
      );
      expectOAuthError(await refresh('chr_notatoken'), 400, 'invalid_grant', /not a refresh token of this server/);
      const write = () =>
        api.post<Problem>('/v1/members', {
          token: tokens.access_token,
          tenant: church.slug,
          body: { first_name: 'Role', last_name: 'Cap' },
        });
      expect((await write()).status).toBe(201);
      await rows(church, `UPDATE users SET role = 'volunteer' WHERE id = $1`, [demoted.id]);
      // The access token already issued acts within the lowered role at once, not only after a refresh.
      const refused = await write();
      expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 403, code: 'scope_insufficient' });
      expect((await members(tokens.access_token)).status).toBe(200);
      const capped = await refresh(tokens.refresh_token);
      expect(capped.body.scope).toBe('read:members');
      await rows(
        church,
        `UPDATE oauth_refresh_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`,
        [sha256(capped.body.refresh_token)],
      );
      expectOAuthError(await refresh(capped.body.refresh_token), 400, 'invalid_grant', /expired/);
    });
  });

  describe('access tokens', () => {
    it('an expired access token is 401 token_expired', async () => {
      const tokens = await authorize();
      await rows(church, `UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [
        sha256(tokens.access_token),
      ]);
      const res = await members(tokens.access_token);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 401, code: 'token_expired' });
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    });
  });

  describe('POST /v1/oauth/revoke (RFC 7009)', () => {
    it('revoking an access token revokes it alone; revoking a refresh token revokes its authorization', async () => {
      const tokens = await authorize();
      const revoked = await post('/v1/oauth/revoke', {
        token: tokens.access_token,
        token_type_hint: 'access_token',
        client_id: app.client_id,
      });
      expect(revoked.status).toBe(200);
      expect(revoked.text).toBe('');
      expect(revoked.headers['cache-control']).toBe('no-store');
      expect((await members(tokens.access_token)).body.code).toBe('token_revoked');
      const next = await refresh(tokens.refresh_token);
      expect(next.status).toBe(200);
      expect(
        (await post('/v1/oauth/revoke', { token: next.body.refresh_token, client_id: app.client_id })).status,
      ).toBe(200);
      expect((await members(next.body.access_token)).body.code).toBe('token_revoked');
      expectOAuthError(await refresh(next.body.refresh_token), 400, 'invalid_grant', /revoked/);
    });

    it('an unknown, malformed or already revoked token is a 200; another client’s token is refused and stays valid; the client must authenticate', async () => {
      const tokens = await authorize();
      for (const token of [
        'cho_unknown',
        `cho_${'A'.repeat(36)}`,
        'garbage',
        tokens.access_token,
        tokens.access_token,
      ]) {
        expect((await post('/v1/oauth/revoke', { token, client_id: app.client_id })).status).toBe(200);
      }
      const mine = await authorize();
      expectOAuthError(
        await post('/v1/oauth/revoke', { token: mine.refresh_token, client_id: otherApp.client_id }),
        400,
        'invalid_request',
        /another client/,
      );
      expect((await members(mine.access_token)).status).toBe(200);
      expectOAuthError(
        await post('/v1/oauth/revoke', { token: mine.access_token }),
        400,
        'invalid_client',
        /client_id is missing/,
      );
      expectOAuthError(
        await post('/v1/oauth/revoke', {
          token: mine.access_token,
          client_id: server2server.client_id,
          client_secret: 'nope',
        }),
        400,
        'invalid_client',
        /does not match/,
      );
      expectOAuthError(
        await post('/v1/oauth/revoke', { client_id: app.client_id }),
        400,
        'invalid_request',
        /token is missing/,
      );
    });
  });

  describe('the authorized apps of a staff member', () => {
    it('GET /v1/oauth/authorizations lists the apps the caller authorized, through a PAT of theirs (never an OAuth token); DELETE revokes every token of that app', async () => {
      const pat = await newToken(api, church, ['read:members'], 'staff');
      const user = pat.user;
      const one = await authorize(['read:members'], user);
      const two = await authorize(['read:members', 'read:events'], user);
      const list = await api.get<{
        data: { id: string; client_id: string; client_name: string; scopes: string[]; authorized_at: string }[];
        total: number;
      }>('/v1/oauth/authorizations', {
        token: pat.token,
        tenant: church.slug,
      });
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual([
        expect.objectContaining({
          id: app.client_id,
          client_id: app.client_id,
          client_name: 'Check-in App',
          scopes: ['read:events', 'read:members'],
        }),
      ]);
      // An OAuth access token manages no credentials, not even its own user's apps (CONTRACT §21).
      const viaOAuth = await api.get<Problem>('/v1/oauth/authorizations', {
        token: one.access_token,
        tenant: church.slug,
      });
      expect({ status: viaOAuth.status, code: viaOAuth.body.code }).toEqual({
        status: 403,
        code: 'token_type_not_allowed',
      });
      // Another staff member sees nothing of it, and cannot revoke it.
      const stranger = await newToken(api, church, ['read:members'], 'staff');
      expect(
        (await api.get<{ data: unknown[] }>('/v1/oauth/authorizations', { token: stranger.token, tenant: church.slug }))
          .body.data,
      ).toEqual([]);
      expect(
        (
          await api.delete<Problem>(`/v1/oauth/authorizations/${app.client_id}`, {
            token: stranger.token,
            tenant: church.slug,
          })
        ).status,
      ).toBe(404);
      expect((await members(one.access_token)).status).toBe(200);

      expect(
        (await api.delete(`/v1/oauth/authorizations/${app.client_id}`, { token: pat.token, tenant: church.slug }))
          .status,
      ).toBe(204);
      for (const token of [one.access_token, two.access_token])
        expect((await members(token)).body.code).toBe('token_revoked');
      for (const token of [one.refresh_token, two.refresh_token])
        expectOAuthError(await refresh(token), 400, 'invalid_grant', /revoked/);
      expect(
        (await api.get<{ data: unknown[] }>('/v1/oauth/authorizations', { token: pat.token, tenant: church.slug })).body
          .data,
      ).toEqual([]);
      expect(
        (
          await api.delete<Problem>(`/v1/oauth/authorizations/${app.client_id}`, {
            token: pat.token,
            tenant: church.slug,
          })
        ).body.code,
      ).toBe('resource_not_found');
      expect(
        (await api.delete<Problem>('/v1/oauth/authorizations/garbage', { token: pat.token, tenant: church.slug }))
          .status,
      ).toBe(404);
    });
  });

  describe('GET /.well-known/oauth-authorization-server (RFC 8414)', () => {
    it('names the issuer (PUBLIC_URL), the endpoints, S256 only, the client authentication methods and iss in the redirect', async () => {
      const res = await api.get<Record<string, unknown>>('/.well-known/oauth-authorization-server');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        issuer,
        authorization_endpoint: `${issuer}/v1/oauth/authorize`,
        token_endpoint: `${issuer}/v1/oauth/token`,
        revocation_endpoint: `${issuer}/v1/oauth/revoke`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        authorization_response_iss_parameter_supported: true,
      });
      expect(res.body.scopes_supported).toEqual(expect.arrayContaining(['read:members', 'admin:*']));
    });
  });

  describe('a standard client (openid-client v6) drives the protocol', () => {
    type OpenIdClient = typeof import('openid-client');
    let oc: OpenIdClient;

    beforeAll(async () => {
      oc = await import('openid-client');
    });

    /** What the redirect to the app carries after consent (the consent page itself is oauth-browser's). */
    const callbackFor = async (client: Client, challenge: string, state: string, scopes: Scope[]) =>
      new URL(
        `${REDIRECT}?${new URLSearchParams({ code: await issueCode({ client, challenge, scopes }), state, iss: issuer }).toString()}`,
      );

    it('public client: discovery, authorization code with PKCE, the API, refresh, revocation', async () => {
      const config = await oc.discovery(new URL(issuer), app.client_id, undefined, oc.None(), {
        execute: [oc.allowInsecureRequests],
        algorithm: 'oauth2',
      });
      expect(config.serverMetadata().issuer).toBe(issuer);
      const verifier = oc.randomPKCECodeVerifier();
      const state = oc.randomState();
      const tokens = await oc.authorizationCodeGrant(
        config,
        await callbackFor(app, await oc.calculatePKCECodeChallenge(verifier), state, ['read:members']),
        {
          pkceCodeVerifier: verifier,
          expectedState: state,
        },
      );
      expect(tokens.token_type).toBe('bearer');
      expect(tokens.expiresIn()).toBeGreaterThan(3590);
      expect(tokens.scope).toBe('read:members');
      expect((await members(tokens.access_token)).status).toBe(200);

      const refreshed = await oc.refreshTokenGrant(config, tokens.refresh_token!);
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
      expect((await members(refreshed.access_token)).status).toBe(200);

      await oc.tokenRevocation(config, refreshed.refresh_token!);
      expect((await members(refreshed.access_token)).body.code).toBe('token_revoked');
      await expect(oc.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });

      // A wrong verifier: the library surfaces the server's error and its description.
      const other = oc.randomPKCECodeVerifier();
      await expect(
        oc.authorizationCodeGrant(
          config,
          await callbackFor(app, await oc.calculatePKCECodeChallenge(other), state, ['read:members']),
          { pkceCodeVerifier: verifier, expectedState: state },
        ),
      ).rejects.toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('code_verifier') });
    });

    it('confidential client: client_secret_basic and client_secret_post', async () => {
      for (const auth of [
        oc.ClientSecretBasic(server2server.client_secret),
        oc.ClientSecretPost(server2server.client_secret),
      ]) {
        const config = await oc.discovery(new URL(issuer), server2server.client_id, undefined, auth, {
          execute: [oc.allowInsecureRequests],
          algorithm: 'oauth2',
        });
        const verifier = oc.randomPKCECodeVerifier();
        const state = oc.randomState();
        const tokens = await oc.authorizationCodeGrant(
          config,
          await callbackFor(server2server, await oc.calculatePKCECodeChallenge(verifier), state, ['read:members']),
          {
            pkceCodeVerifier: verifier,
            expectedState: state,
          },
        );
        expect((await members(tokens.access_token)).status).toBe(200);
        const refreshed = await oc.refreshTokenGrant(config, tokens.refresh_token!);
        await oc.tokenRevocation(config, refreshed.access_token);
        expect((await members(refreshed.access_token)).body.code).toBe('token_revoked');
      }
      // Wrong secrets: through Basic, a 401 challenge (RFC 6749 §5.2); through the body, the invalid_client error itself.
      const verifier = oc.randomPKCECodeVerifier();
      const state = oc.randomState();
      const challenge = await oc.calculatePKCECodeChallenge(verifier);
      const wrongBasic = await oc.discovery(
        new URL(issuer),
        server2server.client_id,
        undefined,
        oc.ClientSecretBasic('wrong'),
        { execute: [oc.allowInsecureRequests], algorithm: 'oauth2' },
      );
      await expect(
        oc.authorizationCodeGrant(wrongBasic, await callbackFor(server2server, challenge, state, ['read:members']), {
          pkceCodeVerifier: verifier,
          expectedState: state,
        }),
      ).rejects.toMatchObject({
        code: 'OAUTH_WWW_AUTHENTICATE_CHALLENGE',
        status: 401,
        cause: [expect.objectContaining({ scheme: 'basic' })],
      });
      const wrongPost = await oc.discovery(
        new URL(issuer),
        server2server.client_id,
        undefined,
        oc.ClientSecretPost('wrong'),
        { execute: [oc.allowInsecureRequests], algorithm: 'oauth2' },
      );
      await expect(
        oc.authorizationCodeGrant(wrongPost, await callbackFor(server2server, challenge, state, ['read:members']), {
          pkceCodeVerifier: verifier,
          expectedState: state,
        }),
      ).rejects.toMatchObject({
        error: 'invalid_client',
        status: 400,
        error_description: expect.stringContaining('client_secret does not match'),
      });
    });
  });
});
