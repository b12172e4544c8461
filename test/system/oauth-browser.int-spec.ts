import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { APP_CONFIG, AppConfig } from '../../src/config/app-config';
import { TenantsService } from '../../src/platform/tenancy/tenants.service';
import { TestApi } from '../support/api';
import { launchChromium, recordCspViolations } from '../support/browser';
import { newMembers, newTenant, TestTenant } from '../support/factories';
import { authorizePath, newOAuthClient, newStaff, pkce } from '../support/oauth-pages';
import { TestReceiver } from '../support/receiver';

/** Where the screenshots go (looked at before the pages are called done). */
const SHOTS = '/tmp/oauth-shots';

/**
 * The authorization pages in headless Chromium, as a staff member meets them: sign in, consent,
 * Allow lands on the client's loopback redirect_uri with code, state and iss, and the code buys a
 * token that reads members (and nothing it was not granted); Deny lands with access_denied; a form
 * without its CSRF token is refused. The browser enforces the pages' CSP (style by hash, no
 * script, form-action up to the client's redirect): no violation may be reported.
 */
describe('OAuth pages in a browser', () => {
  let api: TestApi;
  let origin: string;
  let receiver: TestReceiver;
  let browser: Browser;
  let church: TestTenant;
  let clientId: string;
  let staff: Awaited<ReturnType<typeof newStaff>>;
  let iss: string;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    api = await TestApi.start();
    await api.app.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
    iss = api.app.get<AppConfig>(APP_CONFIG).PUBLIC_URL!.replace(/\/+$/, '');
    receiver = await TestReceiver.start();
    church = await newTenant(api);
    await api.app.get(TenantsService).update(church.slug, { name: 'Iglesia Bautista Emanuel' });
    await newMembers(api, church, [{ first_name: 'María', last_name: 'González' }]);
    ({ clientId } = await newOAuthClient(api, church, {
      name: 'Asistencia Dominical',
      redirectUris: [receiver.url('/callback')],
      scopes: ['read:members', 'write:attendance', 'read:events', 'read:donations'],
    }));
    staff = await newStaff(api, church, 'volunteer');
    browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await api?.close();
  });

  /** A phone-sized browser that speaks `locale` (its Accept-Language) and reports CSP violations. */
  async function phone(locale: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({
      locale,
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    recordCspViolations(page, cspViolations);
    return { context, page };
  }

  function authorizeUrl(
    challenge: string,
    state: string,
    scope = 'read:members write:attendance read:events read:donations',
  ): string {
    return `${origin}${authorizePath({ response_type: 'code', client_id: clientId, redirect_uri: receiver.url('/callback'), scope, state, code_challenge: challenge, code_challenge_method: 'S256' })}`;
  }

  /** Signs in on the sign-in page; returns when the consent page is shown. */
  async function signIn(page: Page): Promise<void> {
    await page.fill('input[name="email"]', staff.email);
    await page.fill('input[name="password"]', staff.password);
    await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
  }

  it('sign in → consent → Allow lands on the loopback redirect_uri with code, state and iss; the code buys a token that reads members only', async () => {
    const { context, page } = await phone('es-ES');
    const { verifier, challenge } = pkce();
    const response = await page.goto(authorizeUrl(challenge, 'state-es-1'));
    expect(response?.status()).toBe(200);
    expect(await page.title()).toContain('Iglesia Bautista Emanuel');
    await expect(page.locator('h1').innerText()).resolves.toBe('Inicie sesión');
    await expect(page.locator('.lead').innerText()).resolves.toBe('para continuar en Asistencia Dominical');
    // The style sheet applies (its hash is in the CSP): the button has the brand colour and a tap-sized height.
    const button = page.locator('button[type="submit"]');
    // (Expressions as strings: the tests compile without the DOM library.)
    expect(
      await page.evaluate<string>(`getComputedStyle(document.querySelector('button[type="submit"]')).backgroundColor`),
    ).toBe('rgb(36, 86, 166)');
    expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(48);
    await page.screenshot({ path: `${SHOTS}/sign-in-es.png`, fullPage: true });

    // A wrong password first: the generic message, in Spanish.
    await page.fill('input[name="email"]', staff.email);
    await page.fill('input[name="password"]', 'not the password');
    await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
    await expect(page.locator('[role="alert"]').innerText()).resolves.toBe(
      'Correo electrónico o contraseña incorrectos.',
    );
    await page.screenshot({ path: `${SHOTS}/sign-in-error-es.png`, fullPage: true });

    await signIn(page);
    await expect(page.locator('h1').innerText()).resolves.toBe(
      'Asistencia Dominical quiere acceder a Iglesia Bautista Emanuel',
    );
    // requested ∩ client's ∩ a volunteer's: read:members, write:attendance, read:events (not read:donations).
    await expect(page.locator('.scope-title').allInnerTexts()).resolves.toEqual([
      'Ver las personas',
      'Registrar asistencia',
      'Ver los eventos',
    ]);
    await page.screenshot({ path: `${SHOTS}/consent-es.png`, fullPage: true });

    await Promise.all([page.waitForURL(`${receiver.url('/callback')}?**`), page.click('button[value="allow"]')]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('state')).toBe('state-es-1');
    expect(landed.searchParams.get('iss')).toBe(iss);
    const code = landed.searchParams.get('code')!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(
      receiver.at('/callback', 'GET').map((r) => new URL(r.path, receiver.origin).searchParams.get('code')),
    ).toContain(code);

    // The client exchanges the code (PKCE) and calls the API with the token.
    const token = await fetch(`${origin}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: receiver.url('/callback'),
        code_verifier: verifier,
        client_id: clientId,
      }),
    });
    const tokens = (await token.json()) as { access_token?: string; scope?: string };
    expect(token.status).toBe(200);
    expect(tokens.access_token).toMatch(/^cho_/);
    expect(tokens.scope?.split(' ').sort()).toEqual(['read:events', 'read:members', 'write:attendance']);
    const members = await api.get<{ data: { first_name: string }[] }>('/v1/members', {
      token: tokens.access_token,
      tenant: church.slug,
    });
    expect(members.status).toBe(200);
    expect(members.body.data.map((m) => m.first_name)).toContain('María');
    expect((await api.get('/v1/donations', { token: tokens.access_token, tenant: church.slug })).status).toBe(403);
    await context.close();
  });

  it('in English by Accept-Language; Deny lands with error=access_denied, state and iss', async () => {
    const { context, page } = await phone('en-US');
    await page.goto(authorizeUrl(pkce().challenge, 'state-en-deny'));
    await expect(page.locator('h1').innerText()).resolves.toBe('Sign in');
    await page.screenshot({ path: `${SHOTS}/sign-in-en.png`, fullPage: true });
    await signIn(page);
    await expect(page.locator('.scope-title').allInnerTexts()).resolves.toEqual([
      'See people',
      'Record attendance',
      'See events',
    ]);
    await page.screenshot({ path: `${SHOTS}/consent-en.png`, fullPage: true });
    await Promise.all([page.waitForURL(`${receiver.url('/callback')}?**`), page.click('button[value="deny"]')]);
    const landed = new URL(page.url());
    expect(Object.fromEntries(landed.searchParams)).toEqual({
      error: 'access_denied',
      error_description: 'the staff member denied the request',
      state: 'state-en-deny',
      iss,
    });
    await context.close();
  });

  it('a form whose CSRF token was removed is refused with a 403 page, and nothing reaches the client', async () => {
    const { context, page } = await phone('en-US');
    await page.goto(authorizeUrl(pkce().challenge, 'state-csrf'));
    await page.evaluate(`document.querySelector('input[name="csrf"]').remove()`);
    await page.fill('input[name="email"]', staff.email);
    await page.fill('input[name="password"]', staff.password);
    const [refused] = await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
    expect(refused?.status()).toBe(403);
    await expect(page.locator('h1').innerText()).resolves.toBe('We could not verify this form');
    await page.screenshot({ path: `${SHOTS}/csrf-en.png`, fullPage: true });
    expect(receiver.at('/callback', 'GET').some((r) => r.path.includes('state-csrf'))).toBe(false);
    await context.close();
  });

  it('an unregistered redirect_uri shows the error page and stays on this server', async () => {
    const { context, page } = await phone('es-ES');
    const url = `${origin}${authorizePath({ response_type: 'code', client_id: clientId, redirect_uri: receiver.url('/elsewhere'), state: 's', code_challenge: pkce().challenge, code_challenge_method: 'S256' })}`;
    const response = await page.goto(url);
    expect(response?.status()).toBe(400);
    expect(new URL(page.url()).origin).toBe(origin);
    await expect(page.locator('h1').innerText()).resolves.toBe('Dirección de regreso no registrada');
    await page.screenshot({ path: `${SHOTS}/error-es.png`, fullPage: true });
    expect(receiver.at('/elsewhere', 'GET')).toEqual([]);
    await context.close();
  });

  it('a wide screen (desktop) too', async () => {
    const context = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(authorizeUrl(pkce().challenge, 'state-desktop'));
    await expect(page.locator('h1').innerText()).resolves.toBe('Entre na sua conta');
    await page.screenshot({ path: `${SHOTS}/sign-in-pt-desktop.png` });
    await signIn(page);
    await page.screenshot({ path: `${SHOTS}/consent-pt-desktop.png` });
    await context.close();
  });

  it('the browser reported no Content-Security-Policy violation on any page', () => {
    expect(cspViolations).toEqual([]);
  });
});
