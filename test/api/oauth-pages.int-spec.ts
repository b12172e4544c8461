import { createHash } from 'node:crypto';
import { ID_PREFIX, parsePublicId } from '../../src/common/ids/id';
import { APP_CONFIG, AppConfig } from '../../src/config/app-config';
import { SCOPES } from '../../src/platform/auth/scopes';
import { AUTHORIZATION_REQUEST_LIFETIME_MS } from '../../src/modules/oauth/authorization-requests.service';
import { accountKey, addressKey, SIGN_IN_LIMITS } from '../../src/modules/oauth/sign-in-throttle';
import { TenantsService } from '../../src/platform/tenancy/tenants.service';
import { TestApi, TypedResponse } from '../support/api';
import { newTenant, TestTenant } from '../support/factories';
import { authorizePath, cookieFrom, form, hiddenFields, newOAuthClient, newStaff, pkce } from '../support/oauth-pages';

/**
 * GET /v1/oauth/authorize and its pages over HTTP (CONTRACT §14): the checks before any redirect,
 * the errors that go back to the client, the pending request kept on the server, the sign-in
 * (argon2, throttled per account and per address), the consent, CSRF and the pages' headers.
 * The browser flow is oauth-browser.int-spec.ts.
 */
describe('OAuth authorize pages', () => {
  let api: TestApi;
  let church: TestTenant;
  let other: TestTenant;
  let iss: string;
  const CALLBACK = 'https://checkin.example.org/oauth/callback';
  let app: { clientId: string };

  const sha256 = (value: string) => createHash('sha256').update(value).digest();
  const FORM = { contentType: 'application/x-www-form-urlencoded' };

  /** A fresh browser: its cookie jar is the __Host-oauth_browser cookie the first page sets. */
  interface Browser {
    cookie?: string;
    lang?: string;
    /** X-Forwarded-For (TRUST_PROXY=1 in this file): the client address the throttle counts. */
    address?: string;
  }

  function headersOf(browser: Browser): Record<string, string> {
    return {
      ...(browser.cookie ? { Cookie: browser.cookie } : {}),
      ...(browser.address ? { 'X-Forwarded-For': browser.address } : {}),
    };
  }

  async function open(browser: Browser, params: Record<string, string | undefined>): Promise<TypedResponse<unknown>> {
    const res = await api.get(authorizePath(params), { lang: browser.lang, headers: headersOf(browser) });
    browser.cookie ??= cookieFrom(res.headers['set-cookie'], '__Host-oauth_browser');
    return res;
  }

  async function post(browser: Browser, path: string, fields: Record<string, string>): Promise<TypedResponse<unknown>> {
    return api.post(path, { lang: browser.lang, headers: headersOf(browser), body: form(fields), raw: FORM });
  }

  function goodParams(overrides: Record<string, string | undefined> = {}) {
    return {
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: CALLBACK,
      scope: 'read:members read:events',
      state: 'st-123',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      ...overrides,
    };
  }

  /** Opens the sign-in page of a good request; returns the page's hidden fields. */
  async function start(
    browser: Browser,
    overrides: Record<string, string | undefined> = {},
  ): Promise<Record<string, string>> {
    const res = await open(browser, goodParams(overrides));
    expect(res.status).toBe(200);
    return hiddenFields(res.text);
  }

  const location = (res: TypedResponse<unknown>) => new URL(String(res.headers.location));

  beforeAll(async () => {
    api = await TestApi.start({ TRUST_PROXY: '1' });
    church = await newTenant(api);
    await api.app.get(TenantsService).update(church.slug, { name: 'Iglesia Gracia & Paz' });
    other = await newTenant(api);
    app = await newOAuthClient(api, church, {
      name: 'Check-in <App>',
      redirectUris: [CALLBACK, 'http://127.0.0.1:8123/cb'],
      scopes: ['read:members', 'write:members', 'read:events', 'read:donations'],
    });
    iss = api.app.get<AppConfig>(APP_CONFIG).PUBLIC_URL!.replace(/\/+$/, '');
  });
  afterAll(() => api?.close());

  describe('a bad client or redirect_uri: an error page, never a redirect', () => {
    it.each([
      ['no client_id', { client_id: undefined }],
      ['an unknown app_ id', { client_id: 'app_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }],
      ['a malformed client_id', { client_id: 'not-a-client' }],
      ['client_id twice', { client_id: undefined, extra: 'x' }],
    ])('%s: 400 page, no Location', async (_label, overrides) => {
      const params: Record<string, string | undefined> = goodParams(overrides);
      let path = authorizePath(params);
      if ('extra' in overrides) path += `&client_id=${app.clientId}&client_id=${app.clientId}`;
      const res = await api.get(path, { lang: 'en' });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain('Unknown app');
      expect(res.text).not.toContain('checkin.example.org');
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it.each([
      ['missing', undefined],
      ['not registered', 'https://evil.example.com/oauth/callback'],
      ['a registered one with a path added', `${CALLBACK}/more`],
      ['a registered one with a query added', `${CALLBACK}?next=https://evil.example.com`],
      ['a registered one with a trailing slash', `${CALLBACK}/`],
      ['another case', CALLBACK.toUpperCase()],
      ['the loopback one on another port', 'http://127.0.0.1:9999/cb'],
    ])('redirect_uri %s: 400 page, no Location, the app named', async (_label, redirectUri) => {
      // Even with other errors that would otherwise go back to the client.
      const res = await api.get(
        authorizePath(
          goodParams({ redirect_uri: redirectUri, response_type: 'token', code_challenge_method: 'plain' }),
        ),
        { lang: 'en' },
      );
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain('Return address not registered');
      expect(res.text).toContain('Check-in &lt;App&gt;'); // the client's name, escaped
      expect(res.text).not.toContain('<App>');
    });

    it('a client of a suspended church: 403 page, no redirect', async () => {
      const suspended = await newTenant(api);
      const client = await newOAuthClient(api, suspended, { redirectUris: [CALLBACK], scopes: ['read:members'] });
      await api.app.get(TenantsService).update(suspended.slug, { status: 'suspended' });
      const res = await api.get(authorizePath(goodParams({ client_id: client.clientId })), { lang: 'en' });
      expect(res.status).toBe(403);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain('Account suspended');
    });
  });

  describe('other errors go back to the redirect_uri with error, error_description, state and iss', () => {
    it.each([
      ['response_type missing', { response_type: undefined }, 'invalid_request', /response_type is required/],
      ['response_type=token', { response_type: 'token' }, 'unsupported_response_type', /response_type must be code/],
      [
        'code_challenge_method missing',
        { code_challenge_method: undefined },
        'invalid_request',
        /code_challenge_method is required and must be S256/,
      ],
      ['code_challenge_method=plain', { code_challenge_method: 'plain' }, 'invalid_request', /plain is not supported/],
      ['code_challenge_method=s256', { code_challenge_method: 's256' }, 'invalid_request', /must be S256/],
      ['code_challenge missing', { code_challenge: undefined }, 'invalid_request', /code_challenge is required/],
      ['code_challenge too short', { code_challenge: 'abc' }, 'invalid_request', /43 characters/],
      ['an unknown scope', { scope: 'read:members read:everything' }, 'invalid_scope', /unknown scope read:everything/],
      [
        'a scope the client has not registered',
        { scope: 'read:members write:donations' },
        'invalid_scope',
        /scope write:donations is not registered for this client/,
      ],
    ])('%s', async (_label, overrides, error, description) => {
      const state = 'a state/with spaces & symbols=?';
      const res = await open({}, goodParams({ ...overrides, state }));
      expect(res.status).toBe(302);
      const url = location(res);
      expect(`${url.origin}${url.pathname}`).toBe(CALLBACK);
      expect(url.searchParams.get('error')).toBe(error);
      expect(url.searchParams.get('error_description')).toMatch(description);
      expect(url.searchParams.get('error_description')).toMatch(/^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/);
      expect(url.searchParams.get('state')).toBe(state);
      expect(url.searchParams.get('iss')).toBe(iss);
      expect(url.searchParams.get('code')).toBeNull();
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      // Nothing is kept for a refused request.
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('a parameter sent twice is invalid_request; without state, none is echoed', async () => {
      const res = await api.get(`${authorizePath(goodParams({ state: undefined }))}&scope=read:members`);
      expect(res.status).toBe(302);
      expect(location(res).searchParams.get('error')).toBe('invalid_request');
      expect(location(res).searchParams.get('error_description')).toBe('scope was sent more than once');
      expect(location(res).searchParams.has('state')).toBe(false);
    });

    it('the metadata names the same issuer as the iss of the redirects (RFC 9207)', async () => {
      const meta = await api.get<{ issuer?: string }>('/.well-known/oauth-authorization-server');
      if (meta.status === 200) expect(meta.body.issuer).toBe(iss);
    });
  });

  describe('the sign-in page', () => {
    it('keeps the request on the server: the page carries only a handle and a CSRF token; headers; es by default', async () => {
      const browser: Browser = {};
      const { challenge } = pkce();
      const res = await open(browser, goodParams({ code_challenge: challenge, state: 'keep-me-secret-state' }));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
      // Security headers (CONTRACT §14): CSP without script or inline style, no framing, no referrer, no caching.
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('script-src');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("form-action 'self' https://checkin.example.org");
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-language']).toBe('es');
      expect(res.text).not.toMatch(/<script/i);
      expect(res.text).not.toMatch(/ style="/);
      // The style element's text is what the hash allows.
      const style = /<style>([\s\S]*?)<\/style>/.exec(res.text)![1];
      expect(csp).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
      expect(res.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      // The browser binding: a __Host- cookie (Secure, Path=/, no Domain), HttpOnly, SameSite=Lax.
      const setCookie = String(res.headers['set-cookie']);
      expect(setCookie).toMatch(/^__Host-oauth_browser=[A-Za-z0-9_-]{43}; Path=\/; Secure; HttpOnly; SameSite=Lax$/);
      // Spanish by default, with the church's and the app's names (escaped).
      expect(res.text).toContain('<html lang="es">');
      expect(res.text).toContain('Inicie sesión');
      expect(res.text).toContain('Iglesia Gracia &amp; Paz');
      expect(res.text).toContain('<strong>Check-in &lt;App&gt;</strong>');
      // Only the handle and the CSRF token: none of the request's parameters is in the page.
      const fields = hiddenFields(res.text);
      expect(Object.keys(fields).sort()).toEqual(['csrf', 'request']);
      expect(fields.request).toMatch(/^[A-Za-z0-9_-]{43}$/);
      for (const leaked of [challenge, 'keep-me-secret-state', CALLBACK, app.clientId, 'read:members'])
        expect(res.text).not.toContain(leaked);
      // The row holds hashes of the handle, the token and the cookie, and everything else.
      const rows: {
        handle_hash: Buffer;
        csrf_hash: Buffer;
        browser_hash: Buffer;
        state: string;
        code_challenge: string;
        redirect_uri: string;
        scopes: string[];
        lifetime: number;
      }[] = await api.db.platform.query(
        `SELECT handle_hash, csrf_hash, browser_hash, state, code_challenge, redirect_uri, scopes, extract(epoch FROM expires_at - created_at) * 1000 AS lifetime
             FROM oauth_authorization_requests WHERE handle_hash = $1`,
        [sha256(fields.request)],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        state: 'keep-me-secret-state',
        code_challenge: challenge,
        redirect_uri: CALLBACK,
        scopes: ['read:members', 'read:events'],
      });
      expect(rows[0].csrf_hash.equals(sha256(fields.csrf))).toBe(true);
      expect(rows[0].browser_hash.equals(sha256(browser.cookie!.split('=')[1]))).toBe(true);
      expect(Number(rows[0].lifetime)).toBe(AUTHORIZATION_REQUEST_LIFETIME_MS);
      const plain: { n: number }[] = await api.db.platform.query(
        `SELECT count(*)::int AS n FROM oauth_authorization_requests WHERE handle_hash = $1`,
        [Buffer.from(fields.request)],
      );
      expect(plain[0].n).toBe(0);
    });

    it.each([
      ['en', 'Sign in', 'to continue to', 'en'],
      ['pt-BR,pt;q=0.9', 'Entre na sua conta', 'para continuar em', 'pt'],
      ['fr, de;q=0.5', 'Inicie sesión', 'para continuar en', 'es'],
    ])('Accept-Language %s', async (lang, heading, subtitle, content) => {
      const res = await open({ lang }, goodParams());
      expect(res.headers['content-language']).toBe(content);
      expect(res.text).toContain(`<html lang="${content}">`);
      expect(res.text).toContain(heading);
      expect(res.text).toContain(subtitle);
    });

    it('two tabs of one browser keep one cookie, each request its own handle', async () => {
      const browser: Browser = {};
      const first = await start(browser);
      const again = await open(browser, goodParams());
      expect(again.headers['set-cookie']).toBeUndefined();
      expect(hiddenFields(again.text).request).not.toBe(first.request);
    });
  });

  describe('sign-in and consent', () => {
    it('a staff member signs in, sees the scopes in plain words, allows: 303 with code, state and iss; the code holds requested ∩ client’s ∩ role’s', async () => {
      const volunteer = await newStaff(api, church, 'volunteer');
      const browser: Browser = { lang: 'en' };
      const { challenge } = pkce();
      // read:members and read:events on the client's list; the volunteer role holds both; write:members it does not.
      const keys = await start(browser, { scope: 'read:members write:members read:events', code_challenge: challenge });
      const consent = await post(browser, '/v1/oauth/authorize/sign-in', {
        ...keys,
        email: volunteer.email.toUpperCase(),
        password: volunteer.password,
      });
      expect(consent.status).toBe(200);
      expect(consent.headers['x-frame-options']).toBe('DENY');
      expect(consent.text).toContain(
        '<strong>Check-in &lt;App&gt;</strong> wants to access <strong>Iglesia Gracia &amp; Paz</strong>',
      );
      expect(consent.text).toContain(`Signed in as <strong>${volunteer.email}</strong>`);
      expect(consent.text).toContain('See people');
      expect(consent.text).toContain('See events');
      expect(consent.text).not.toContain('Add and edit people');
      expect(consent.text).toContain('checkin.example.org');
      expect(consent.text).toMatch(/name="decision" value="allow">Allow</);
      expect(consent.text).toMatch(/name="decision" value="deny">Deny</);
      expect(hiddenFields(consent.text)).toEqual(keys);

      const allowed = await post(browser, '/v1/oauth/authorize/decision', { ...keys, decision: 'allow' });
      expect(allowed.status).toBe(303);
      expect(allowed.headers['cache-control']).toBe('no-store');
      const url = location(allowed);
      expect(`${url.origin}${url.pathname}`).toBe(CALLBACK);
      expect(url.searchParams.get('state')).toBe('st-123');
      expect(url.searchParams.get('iss')).toBe(iss);
      const code = url.searchParams.get('code')!;
      expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const codes: { user_id: string; scopes: string[]; redirect_uri: string; code_challenge: string }[] =
        await api.db.platform.query(
          `SELECT user_id, scopes, redirect_uri, code_challenge FROM oauth_codes WHERE code_hash = $1`,
          [sha256(code)],
        );
      expect(codes).toEqual([
        {
          user_id: volunteer.id,
          scopes: ['read:members', 'read:events'],
          redirect_uri: CALLBACK,
          code_challenge: challenge,
        },
      ]);

      // The request is over: a second Allow (a double click, a replayed form) issues nothing.
      const again = await post(browser, '/v1/oauth/authorize/decision', { ...keys, decision: 'allow' });
      expect(again.status).toBe(400);
      expect(again.headers.location).toBeUndefined();
      expect(again.text).toContain('This sign-in is no longer valid');
      const count: { n: number }[] = await api.db.platform.query(
        `SELECT count(*)::int AS n FROM oauth_codes WHERE user_id = $1`,
        [volunteer.id],
      );
      expect(count[0].n).toBe(1);
    });

    it('two Allows at once (a double click, two tabs): one ends the request with a code, the other gets the error page', async () => {
      const staff = await newStaff(api, church, 'staff');
      const browser: Browser = {};
      const keys = await start(browser);
      expect(
        (await post(browser, '/v1/oauth/authorize/sign-in', { ...keys, email: staff.email, password: staff.password }))
          .status,
      ).toBe(200);
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => post(browser, '/v1/oauth/authorize/decision', { ...keys, decision: 'allow' })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([303, 400, 400, 400]);
      const codes: { n: number }[] = await api.db.platform.query(
        `SELECT count(*)::int AS n FROM oauth_codes WHERE user_id = $1`,
        [staff.id],
      );
      expect(codes[0].n).toBe(1);
    });

    it('Deny: 303 with error=access_denied, state and iss, and no code', async () => {
      const staff = await newStaff(api, church, 'staff');
      const browser: Browser = {};
      const keys = await start(browser, { state: 'deny-state' });
      expect(
        (await post(browser, '/v1/oauth/authorize/sign-in', { ...keys, email: staff.email, password: staff.password }))
          .status,
      ).toBe(200);
      const denied = await post(browser, '/v1/oauth/authorize/decision', { ...keys, decision: 'deny' });
      expect(denied.status).toBe(303);
      const url = location(denied);
      expect(Object.fromEntries(url.searchParams)).toEqual({
        error: 'access_denied',
        error_description: 'the staff member denied the request',
        state: 'deny-state',
        iss,
      });
      const count: { n: number }[] = await api.db.platform.query(
        `SELECT count(*)::int AS n FROM oauth_codes WHERE user_id = $1`,
        [staff.id],
      );
      expect(count[0].n).toBe(0);
    });

    it('a role that holds none of the requested scopes: the page says so, and the client hears invalid_scope', async () => {
      const finance = await newStaff(api, church, 'finance');
      const browser: Browser = { lang: 'en' };
      const keys = await start(browser, { scope: 'read:events' });
      const page = await post(browser, '/v1/oauth/authorize/sign-in', {
        ...keys,
        email: finance.email,
        password: finance.password,
      });
      expect(page.status).toBe(200);
      expect(page.text).toContain('Your role (<strong>finance</strong>) allows none of the permissions');
      expect(page.text).not.toMatch(/value="allow"/);
      const res = await post(browser, '/v1/oauth/authorize/decision', { ...keys, decision: 'allow' });
      expect(res.status).toBe(303);
      expect(location(res).searchParams.get('error')).toBe('invalid_scope');
    });

    it('no scope asked for: the client’s list, capped by the role', async () => {
      const leader = await newStaff(api, church, 'group_leader');
      const browser: Browser = {};
      const keys = await start(browser, { scope: undefined });
      await post(browser, '/v1/oauth/authorize/sign-in', { ...keys, email: leader.email, password: leader.password });
      const res = await post(browser, '/v1/oauth/authorize/decision', { ...keys, decision: 'allow' });
      const code = location(res).searchParams.get('code')!;
      const rows: { scopes: string[] }[] = await api.db.platform.query(
        `SELECT scopes FROM oauth_codes WHERE code_hash = $1`,
        [sha256(code)],
      );
      // The client has read:members, write:members, read:events, read:donations; a group leader holds read:members and read:events of them.
      expect(rows[0].scopes).toEqual(['read:members', 'read:events']);
    });

    it('admin:* is shown as full control', async () => {
      const adminApp = await newOAuthClient(api, church, {
        name: 'Sync',
        redirectUris: [CALLBACK],
        scopes: [...SCOPES],
      });
      const admin = await newStaff(api, church, 'org_admin');
      const browser: Browser = { lang: 'en' };
      const keys = await start(browser, { client_id: adminApp.clientId, scope: 'admin:*' });
      const page = await post(browser, '/v1/oauth/authorize/sign-in', {
        ...keys,
        email: admin.email,
        password: admin.password,
      });
      expect(page.text).toContain('Full control of the account');
      expect(page.text).toContain('scope admin');
    });
  });

  describe('wrong credentials and the throttle', () => {
    it('a wrong password, an unknown e-mail and a staff member of another church get the same generic answer', async () => {
      const staff = await newStaff(api, church, 'staff');
      const outsider = await newStaff(api, other, 'staff');
      const browser: Browser = { lang: 'en', address: '198.51.100.1' };
      const keys = await start(browser);
      for (const [email, password] of [
        [staff.email, 'wrong password!!'],
        ['nobody@example.org', staff.password],
        [outsider.email, outsider.password],
      ]) {
        const res = await post(browser, '/v1/oauth/authorize/sign-in', { ...keys, email, password });
        expect(res.status).toBe(400);
        expect(res.text).toContain('Wrong email or password.');
        expect(res.text).toContain(`value="${email}"`); // the e-mail is kept, the password is not
        expect(res.text).not.toContain(password);
        expect(hiddenFields(res.text)).toEqual(keys);
      }
      // Counted under digests: neither what was typed as an e-mail nor the address is stored.
      const stored: { account: string; address: string }[] = await api.db.platform.query(
        `SELECT account, address FROM oauth_sign_in_failures WHERE tenant_id = $1`,
        [church.id],
      );
      expect(stored.map((r) => r.account)).toContain(accountKey('nobody@example.org'));
      expect(stored.map((r) => r.address)).toContain(addressKey('198.51.100.1'));
      expect(JSON.stringify(stored)).not.toMatch(/example\.org|198\.51/);
      const missing = await post(browser, '/v1/oauth/authorize/sign-in', { ...keys, email: staff.email });
      expect(missing.status).toBe(400);
      expect(missing.text).toContain('Enter your email and your password.');
      // Still pending: the right password goes on.
      expect(
        (await post(browser, '/v1/oauth/authorize/sign-in', { ...keys, email: staff.email, password: staff.password }))
          .status,
      ).toBe(200);
    });

    it(`per account: after ${SIGN_IN_LIMITS.perAccount} failures in 15 minutes even the right password gets 429 with Retry-After, until the failures age out`, async () => {
      const staff = await newStaff(api, church, 'staff');
      const browser: Browser = { lang: 'en', address: '198.51.100.2' };
      const keys = await start(browser);
      for (let i = 0; i < SIGN_IN_LIMITS.perAccount; i++) {
        // From different addresses: the account's count does not depend on where the guesses come from.
        const res = await post({ ...browser, address: `198.51.100.${10 + i}` }, '/v1/oauth/authorize/sign-in', {
          ...keys,
          email: staff.email,
          password: `wrong-${i}-password`,
        });
        expect(res.status).toBe(400);
      }
      const blocked = await post(browser, '/v1/oauth/authorize/sign-in', {
        ...keys,
        email: staff.email.toUpperCase(),
        password: staff.password,
      });
      expect(blocked.status).toBe(429);
      expect(blocked.headers['content-type']).toMatch(/^text\/html/);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(14 * 60);
      expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
      expect(blocked.text).toContain('Too many failed attempts. Try again in 15 min.');
      // Another staff member of the church is not blocked.
      const colleague = await newStaff(api, church, 'staff');
      const other = await start(browser);
      expect(
        (
          await post(browser, '/v1/oauth/authorize/sign-in', {
            ...other,
            email: colleague.email,
            password: colleague.password,
          })
        ).status,
      ).toBe(200);
      // The failures leave the window (written back 16 minutes): the right password signs in, and clears the account.
      await api.db.platform.query(
        `UPDATE oauth_sign_in_failures SET failed_at = failed_at - interval '16 minutes' WHERE account = $1`,
        [accountKey(staff.email)],
      );
      // (The colleague's request replaced the first one: one pending request per browser.)
      const again = await start(browser);
      expect(
        (await post(browser, '/v1/oauth/authorize/sign-in', { ...again, email: staff.email, password: staff.password }))
          .status,
      ).toBe(200);
      const left: { n: number }[] = await api.db.platform.query(
        `SELECT count(*)::int AS n FROM oauth_sign_in_failures WHERE account = $1`,
        [accountKey(staff.email)],
      );
      expect(left[0].n).toBe(0);
    });

    it(`per address: after ${SIGN_IN_LIMITS.perAddress} failures from one address, any account from it gets 429; another address does not`, async () => {
      const staff = await newStaff(api, church, 'staff');
      const guesser: Browser = { lang: 'en', address: '203.0.113.7' };
      const keys = await start(guesser);
      for (let i = 0; i < SIGN_IN_LIMITS.perAddress; i++) {
        const res = await post(guesser, '/v1/oauth/authorize/sign-in', {
          ...keys,
          email: `guess-${i}@example.org`,
          password: 'password-guess',
        });
        expect(res.status).toBe(400);
      }
      const blocked = await post(guesser, '/v1/oauth/authorize/sign-in', {
        ...keys,
        email: staff.email,
        password: staff.password,
      });
      expect(blocked.status).toBe(429);
      const elsewhere: Browser = { lang: 'en', address: '203.0.113.8' };
      const fresh = await start(elsewhere);
      expect(
        (
          await post(elsewhere, '/v1/oauth/authorize/sign-in', {
            ...fresh,
            email: staff.email,
            password: staff.password,
          })
        ).status,
      ).toBe(200);
    });
  });

  describe('CSRF, the browser binding and the request’s lifetime', () => {
    it('a form without its CSRF token, with a wrong one, or from another browser is refused with a 403 page; nothing is signed in', async () => {
      const staff = await newStaff(api, church, 'staff');
      const browser: Browser = { lang: 'en' };
      const keys = await start(browser);
      const signIn = { email: staff.email, password: staff.password };
      const attempts: [string, Browser, Record<string, string>][] = [
        ['no csrf', browser, { request: keys.request, ...signIn }],
        ['empty csrf', browser, { request: keys.request, csrf: '', ...signIn }],
        ['a wrong csrf', browser, { request: keys.request, csrf: pkce().verifier, ...signIn }],
        ['the csrf of another request', browser, { request: keys.request, csrf: (await start({})).csrf, ...signIn }],
        ['no cookie', { lang: 'en' }, { ...keys, ...signIn }],
        [
          'the cookie of another browser',
          { lang: 'en', cookie: `__Host-oauth_browser=${pkce().verifier}` },
          { ...keys, ...signIn },
        ],
      ];
      for (const [label, who, fields] of attempts) {
        const res = await post(who, '/v1/oauth/authorize/sign-in', fields);
        expect({ label, status: res.status }).toEqual({ label, status: 403 });
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.text).toContain('We could not verify this form');
        expect(res.headers['x-frame-options']).toBe('DENY');
      }
      const rows: { user_id: string | null }[] = await api.db.platform.query(
        `SELECT user_id FROM oauth_authorization_requests WHERE handle_hash = $1`,
        [sha256(keys.request)],
      );
      expect(rows[0].user_id).toBeNull();

      // The consent form too: signed in, then Allow without the token.
      expect((await post(browser, '/v1/oauth/authorize/sign-in', { ...keys, ...signIn })).status).toBe(200);
      const allow = await post(browser, '/v1/oauth/authorize/decision', { request: keys.request, decision: 'allow' });
      expect(allow.status).toBe(403);
      expect(allow.headers.location).toBeUndefined();
      const fromElsewhere = await post({ lang: 'en' }, '/v1/oauth/authorize/decision', { ...keys, decision: 'allow' });
      expect(fromElsewhere.status).toBe(403);
      const codes: { n: number }[] = await api.db.platform.query(
        `SELECT count(*)::int AS n FROM oauth_codes WHERE user_id = $1`,
        [staff.id],
      );
      expect(codes[0].n).toBe(0);
    });

    it('an unknown handle, an expired request and Allow before signing in: 400 pages', async () => {
      const staff = await newStaff(api, church, 'staff');
      const browser: Browser = { lang: 'en' };
      const keys = await start(browser);
      const unknown = await post(browser, '/v1/oauth/authorize/sign-in', {
        request: pkce().verifier,
        csrf: keys.csrf,
        email: staff.email,
        password: staff.password,
      });
      expect(unknown.status).toBe(400);
      expect(unknown.text).toContain('This sign-in is no longer valid');

      const notSignedIn = await post(browser, '/v1/oauth/authorize/decision', { ...keys, decision: 'allow' });
      expect(notSignedIn.status).toBe(400);

      // 10 minutes: the request is written back past its expiry.
      await api.db.platform.query(
        `UPDATE oauth_authorization_requests SET expires_at = now() - interval '1 second' WHERE handle_hash = $1`,
        [sha256(keys.request)],
      );
      const expired = await post(browser, '/v1/oauth/authorize/sign-in', {
        ...keys,
        email: staff.email,
        password: staff.password,
      });
      expect(expired.status).toBe(400);
      expect(expired.text).toContain('It expired (it lasts 10 minutes)');
      // The way back to the app tells it what happened.
      const back = /<a class="btn secondary" href="([^"]+)">/
        .exec(expired.text)![1]
        .replace(/&amp;/g, '&')
        .replace(/&#x3D;/g, '=');
      const url = new URL(back);
      expect(`${url.origin}${url.pathname}`).toBe(CALLBACK);
      expect(url.searchParams.get('error')).toBe('access_denied');
      expect(url.searchParams.get('state')).toBe('st-123');
    });

    it('an expired request after signing in issues no code', async () => {
      const staff = await newStaff(api, church, 'staff');
      const browser: Browser = {};
      const keys = await start(browser);
      expect(
        (await post(browser, '/v1/oauth/authorize/sign-in', { ...keys, email: staff.email, password: staff.password }))
          .status,
      ).toBe(200);
      await api.db.platform.query(
        `UPDATE oauth_authorization_requests SET expires_at = now() - interval '1 second' WHERE handle_hash = $1`,
        [sha256(keys.request)],
      );
      const res = await post(browser, '/v1/oauth/authorize/decision', { ...keys, decision: 'allow' });
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
    });

    it('a deleted client cannot finish its pending requests', async () => {
      const doomed = await newOAuthClient(api, church, { redirectUris: [CALLBACK], scopes: ['read:members'] });
      const staff = await newStaff(api, church, 'staff');
      const browser: Browser = { lang: 'en' };
      const keys = await start(browser, { client_id: doomed.clientId, scope: 'read:members' });
      await api.db.platform.query(`UPDATE oauth_clients SET deleted_at = now() WHERE id = $1`, [
        parsePublicId(ID_PREFIX.oauthClient, doomed.clientId),
      ]);
      const res = await post(browser, '/v1/oauth/authorize/sign-in', {
        ...keys,
        email: staff.email,
        password: staff.password,
      });
      expect(res.status).toBe(400);
      expect(res.text).toContain('Unknown app');
    });
  });

  describe('bodies the forms do not take', () => {
    it('JSON is a 415 page, an oversized form a 413 page, a repeated field a 403 (no token read)', async () => {
      const browser: Browser = { lang: 'en' };
      const keys = await start(browser);
      const json = await api.post('/v1/oauth/authorize/sign-in', {
        lang: 'en',
        headers: headersOf(browser),
        body: { ...keys, email: 'a@b.c', password: 'x' },
      });
      expect(json.status).toBe(415);
      expect(json.headers['content-type']).toMatch(/^text\/html/);
      const big = await post(browser, '/v1/oauth/authorize/sign-in', {
        ...keys,
        email: 'a@b.c',
        password: 'x'.repeat(70_000),
      });
      expect(big.status).toBe(413);
      const twice = await api.post('/v1/oauth/authorize/decision', {
        lang: 'en',
        headers: headersOf(browser),
        body: `${form(keys)}&csrf=${keys.csrf}&decision=allow`,
        raw: FORM,
      });
      expect(twice.status).toBe(403);
    });
  });
});
