import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ID_PREFIX, newUuid, parsePublicId, toPublicId } from '../../src/common/ids/id';
import { Database } from '../../src/database/database.service';
import { ConsoleClock } from '../../src/modules/console/console-clock';
import { OAuthCodesService } from '../../src/modules/oauth/oauth-codes.service';
import { TokensService } from '../../src/platform/auth/tokens.service';
import { TenantsService } from '../../src/platform/tenancy/tenants.service';
import { UsersService } from '../../src/platform/users/users.service';
import { TestApi } from '../support/api';
import { launchChromium, recordCspViolations } from '../support/browser';
import { inTenant, newDevice, newMember, newTenant, TestTenant } from '../support/factories';
import { TestReceiver } from '../support/receiver';
import { newOAuthClient, newStaff, pkce } from '../support/oauth-pages';
import { waitFor } from '../support/wait';

/** Where the screenshots go (looked at before the pages are called done); CONSOLE_SHOTS=docs/console refreshes the repository's. */
const SHOTS = process.env.CONSOLE_SHOTS ?? join(tmpdir(), 'console-shots');

type Staff = Awaited<ReturnType<typeof newStaff>>;

/**
 * The settings console (CONTRACT §20) in headless Chromium, on real PostgreSQL: sign-in, sessions
 * (idle limit, sign-out, a removed staff member), the token pages (the value shown once, then
 * working on the API, then revoked), authorized apps, CORS, CSRF and role refusals, axe-core on
 * every page at 1280 and 375 px, and no CSP violation anywhere.
 */
describe('the console in a browser', () => {
  let api: TestApi;
  let origin: string;
  let browser: Browser;
  let church: TestTenant;
  let admin: Staff;
  let staff: Staff;
  let receiver: TestReceiver;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    // A real webhook receiver on 127.0.0.1 (loopback allowed, as in the webhook tests).
    receiver = await TestReceiver.start();
    api = await TestApi.start({ WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_TIMEOUT_MS: '2000' });
    await api.app.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
    church = await newTenant(api);
    await api.app.get(TenantsService).update(church.slug, { name: 'Iglesia Bautista Emanuel' });
    admin = await newStaff(api, church, 'org_admin');
    staff = await newStaff(api, church, 'staff');
    browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await receiver?.close();
  });

  afterEach(() => jest.restoreAllMocks());

  /** A browser of `width` px that speaks `locale` and reports CSP violations. */
  async function open(locale = 'es-ES', width = 1280): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ locale, viewport: { width, height: 900 } });
    const page = await context.newPage();
    recordCspViolations(page, cspViolations);
    return { context, page };
  }

  async function submit(page: Page, selector = 'main button.primary[type="submit"]') {
    const [response] = await Promise.all([page.waitForNavigation(), page.click(selector)]);
    return response!;
  }

  async function signIn(page: Page, who: Staff, password = who.password) {
    await page.goto(`${origin}/console/sign-in?church=${church.slug}`);
    await page.fill('#email', who.email);
    await page.fill('#password', password);
    return submit(page);
  }

  /** axe-core on the page as it is: no serious or critical violation. */
  async function expectAccessible(page: Page, name: string) {
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${name}: ${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
    expect(serious).toEqual([]);
  }

  /** Every page at 1280 and 375 px: axe-core, and a screenshot of each. */
  async function checkEverywhere(page: Page, name: string) {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await expectAccessible(page, `${name}@${width}`);
      await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
    }
  }

  async function auditRows(action: string): Promise<{ token_name: string; resource_id: string | null }[]> {
    return api.db.platform.query(
      `SELECT token_name, resource_id FROM audit_log WHERE tenant_id = $1 AND action = $2 ORDER BY created_at`,
      [church.id, action],
    );
  }

  it('signs in with the staff e-mail and password: a wrong password is refused in the page language, then a __Host- session cookie', async () => {
    const { context, page } = await open('es-ES', 375);
    const first = await page.goto(`${origin}/console`);
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    expect(first!.status()).toBe(200);
    await expect(page.locator('h1').innerText()).resolves.toBe('Iniciar sesión');
    await checkEverywhere(page, 'sign-in-es');

    const wrong = await signIn(page, staff, 'not the password');
    expect(wrong.status()).toBe(400);
    await expect(page.locator('[role="alert"]').innerText()).resolves.toBe(
      'Iglesia, correo electrónico o contraseña incorrectos.',
    );
    await page.screenshot({ path: `${SHOTS}/sign-in-wrong-es.png`, fullPage: true });

    const landed = await signIn(page, staff);
    expect(new URL(page.url()).pathname).toBe('/console/account/tokens');
    const headers = landed.headers();
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const [cookie] = (await context.cookies()).filter((c) => c.name === '__Host-console');
    expect(cookie).toMatchObject({ path: '/', secure: true, httpOnly: true, sameSite: 'Lax' });
    expect(cookie.expires).toBe(-1); // a session cookie: the server ends it
    await expect(page.locator('.who-line').innerText()).resolves.toContain(staff.email);
    await context.close();
  });

  it('works with the keyboard alone on a phone-sized screen: sign in, skip to the content, reach the navigation', async () => {
    const { context, page } = await open('en-US', 375);
    await page.goto(`${origin}/console/sign-in?church=${church.slug}`);
    // The church is filled in from the link: the e-mail field has the focus.
    expect(await page.evaluate<string>('document.activeElement.id')).toBe('email');
    await page.keyboard.type(staff.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(staff.password);
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    expect(new URL(page.url()).pathname).toBe('/console/account/tokens');
    // First Tab: the skip link, which moves the focus to the page's content.
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string>('document.activeElement.className')).toBe('skip');
    await page.keyboard.press('Enter');
    expect(await page.evaluate<string>('document.activeElement.id')).toBe('content');
    // The navigation is reachable by Tab from the top, and Enter follows a link.
    await page.goto(`${origin}/console/account/tokens`);
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate<string>('document.activeElement.textContent')) === 'Authorized apps') break;
    }
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    expect(new URL(page.url()).pathname).toBe('/console/account/apps');
    await context.close();
  });

  it("the OAuth sign-in's throttle: after 5 wrong passwords for an account, even the right one waits (429)", async () => {
    const target = await newStaff(api, church, 'finance');
    const { context, page } = await open('en-US', 375);
    for (let i = 0; i < 5; i++) expect((await signIn(page, target, `wrong ${i}`)).status()).toBe(400);
    const throttled = await signIn(page, target);
    expect(throttled.status()).toBe(429);
    expect(Number(throttled.headers()['retry-after'])).toBeGreaterThan(0);
    await expect(page.locator('[role="alert"]').innerText()).resolves.toMatch(/^Too many failed attempts/);
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    await context.close();
  });

  it('My account → Tokens: a new PAT is shown once (no-store), works on the API, is gone on reload, and revoking it ends it (401)', async () => {
    const { context, page } = await open('en-US');
    await signIn(page, staff);
    await expect(page.locator('h1').innerText()).resolves.toBe('Personal tokens');
    // A staff member's navigation has no API section, and of Church only Usage (GET /v1/usage needs no scope).
    await expect(page.locator('nav .nav-title').allInnerTexts()).resolves.toEqual(['MY ACCOUNT', 'CHURCH']);
    await expect(page.locator('nav a').allInnerTexts()).resolves.toEqual(['Tokens', 'Authorized apps', 'Usage']);
    await checkEverywhere(page, 'tokens-en');

    // The API's validation, next to the fields, in the page's language.
    const refused = await submit(page);
    expect(refused.status()).toBe(422);
    await expect(page.locator('#name-error').innerText()).resolves.toMatch(/\S/);
    await expect(page.locator('#scopes-error').innerText()).resolves.toMatch(/\S/);
    await expect(page.locator('[role="alert"]').innerText()).resolves.toContain('Validation failed');
    await page.screenshot({ path: `${SHOTS}/tokens-invalid-en.png`, fullPage: true });

    await page.fill('#name', 'Planning sync');
    await page.check('input[value="read:members"]');
    const created = await submit(page);
    expect(created.status()).toBe(200);
    expect(created.headers()['cache-control']).toBe('no-store');
    const value = await page.inputValue('#secret');
    expect(value).toMatch(/^chp_[A-Za-z0-9]{36}$/);
    // The copy button is there (the page's one script, allowed by its hash) and copies the value.
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    await page.click('button[data-copy]');
    // The status is written once the clipboard has taken the value.
    await page.locator('#copy-status', { hasText: 'Copied' }).waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(value);
    await checkEverywhere(page, 'token-created-en');

    const call = () =>
      fetch(`${origin}/v1/members`, { headers: { Authorization: `Bearer ${value}`, 'X-Tenant': church.slug } });
    expect((await call()).status).toBe(200);
    expect(
      (
        await fetch(`${origin}/v1/donations`, {
          headers: { Authorization: `Bearer ${value}`, 'X-Tenant': church.slug },
        })
      ).status,
    ).toBe(403);
    const [entry] = await auditRows('tokens.create');
    expect(entry.token_name).toBe(`console: ${staff.email}`);

    // Reload: a GET of the page, which never carries a value.
    await page.goto(`${origin}/console/account/tokens`);
    expect(await page.content()).not.toContain(value);
    expect(await page.locator('#secret').count()).toBe(0);
    await expect(page.locator('.row-title').allInnerTexts()).resolves.toEqual([
      expect.stringContaining('Planning sync'),
    ]);

    await submit(page, 'button[aria-label="Revoke Planning sync"]');
    expect(new URL(page.url()).search).toBe('?done=revoked');
    await expect(page.locator('[role="status"]').first().innerText()).resolves.toBe('Token revoked.');
    expect(await page.locator('.row').count()).toBe(0);
    expect((await call()).status).toBe(401);
    expect(await auditRows('tokens.revoke')).toEqual([
      { token_name: `console: ${staff.email}`, resource_id: entry.resource_id },
    ]);
    expect(entry.resource_id).toMatch(/^tok_/);
    await context.close();
  });

  it('a scope the role may not hold is refused with the API error code (scope_not_allowed), nothing created', async () => {
    const { context, page } = await open('en-US');
    await signIn(page, staff);
    await page.fill('#name', 'Too much');
    // The form offers only the role's scopes; a crafted one gets the API's refusal.
    await page.evaluate(`document.querySelector('input[name="scopes"]').value = 'write:donations'`);
    await page.check('input[name="scopes"] >> nth=0');
    const refused = await submit(page);
    expect(refused.status()).toBe(403);
    await expect(page.locator('[role="alert"]').innerText()).resolves.toContain('write:donations');
    expect(await page.locator('.row-title', { hasText: 'Too much' }).count()).toBe(0);
    await context.close();
  });

  it("revoking a malformed or unknown token id is the API's 404, shown on the page (never a 500)", async () => {
    const { context, page } = await open('en-US');
    await signIn(page, staff);
    const csrf = await page.inputValue('main input[name="csrf"]');
    for (const id of ['tok_nope', `tok_${'0'.repeat(32)}`]) {
      const res = await context.request.post(`${origin}/console/account/tokens/${id}/revoke`, {
        form: { csrf },
        headers: { 'Accept-Language': 'en' },
        maxRedirects: 0,
      });
      expect(res.status()).toBe(404);
      expect(res.headers()['content-type']).toMatch(/^text\/html/);
      expect(await res.text()).toContain('No token with that id exists.');
    }
    await context.close();
  });

  it("new tokens count toward the route's quota (10 an hour): the 11th is a 429 page, nothing created", async () => {
    const busy = await newStaff(api, church, 'volunteer');
    const { context, page } = await open('en-US');
    await signIn(page, busy);
    const csrf = await page.inputValue('main input[name="csrf"]');
    const create = (name: string) =>
      context.request.post(`${origin}/console/account/tokens`, {
        form: { csrf, name, scopes: 'read:members' },
        headers: { 'Accept-Language': 'en' },
      });
    for (let i = 1; i <= 10; i++) expect((await create(`sync ${i}`)).status()).toBe(200);
    const refused = await create('sync 11');
    expect(refused.status()).toBe(429);
    expect(await refused.text()).toContain('Too many requests');
    await page.reload();
    expect(await page.locator('.row').count()).toBe(10);
    await context.close();
  });

  it('a form posted without its CSRF token is a 403 page and changes nothing', async () => {
    const { context, page } = await open('en-US');
    await signIn(page, admin);
    await page.goto(`${origin}/console/api/cors`);
    await page.fill('#allowed_origins', 'https://evil.example.org');
    await page.evaluate(`document.querySelector('main input[name="csrf"]').remove()`);
    const refused = await submit(page);
    expect(refused.status()).toBe(403);
    await expect(page.locator('h1').innerText()).resolves.toBe('We could not verify this form');
    await checkEverywhere(page, 'csrf-en');
    const cors = await api.get<{ allowed_origins: string[] }>('/v1/settings/cors', {
      token: church.token,
      tenant: church.slug,
    });
    expect(cors.body.allowed_origins).not.toContain('https://evil.example.org');
    await context.close();
  });

  it('API → CORS: an invalid origin is shown next to the field; a valid list is saved through the same service and audit entry', async () => {
    const { context, page } = await open('pt-BR');
    await signIn(page, admin);
    await page.click('nav a[href="/console/api/cors"]');
    await page.waitForURL('**/console/api/cors');
    await expect(page.locator('h1').innerText()).resolves.toBe('CORS');
    await checkEverywhere(page, 'cors-pt');

    await page.fill('#allowed_origins', 'https://app.example.org\nhttps://App.Example.org/path');
    const refused = await submit(page);
    expect(refused.status()).toBe(422);
    await expect(page.locator('#origins-error').innerText()).resolves.toContain('esquema://host[:porta]');
    await page.screenshot({ path: `${SHOTS}/cors-invalid-pt.png`, fullPage: true });

    await page.fill('#allowed_origins', 'https://app.example.org\n\nhttps://kiosk.example.org:8443\n');
    await submit(page);
    await expect(page.locator('[role="status"]').first().innerText()).resolves.toBe('Lista salva.');
    await expect(page.inputValue('#allowed_origins')).resolves.toBe(
      'https://app.example.org\nhttps://kiosk.example.org:8443',
    );
    const cors = await api.get<{ allowed_origins: string[] }>('/v1/settings/cors', {
      token: church.token,
      tenant: church.slug,
    });
    expect(cors.body.allowed_origins).toEqual(['https://app.example.org', 'https://kiosk.example.org:8443']);
    expect((await auditRows('settings.put_cors')).map((r) => r.token_name)).toEqual([`console: ${admin.email}`]);
    await context.close();
  });

  it('Church → Service tokens: an org_admin creates one (chs_, shown once) and revokes it', async () => {
    const { context, page } = await open('es-ES');
    await signIn(page, admin);
    await page.goto(`${origin}/console/church/service-tokens`);
    await expect(page.locator('h1').innerText()).resolves.toBe('Tokens de servicio');
    await checkEverywhere(page, 'service-tokens-es');
    await page.fill('#name', 'Sincronización contable');
    await page.check('input[value="read:donations"]');
    await submit(page);
    await page.screenshot({ path: `${SHOTS}/service-token-created-es.png`, fullPage: true });
    const value = await page.inputValue('#secret');
    expect(value).toMatch(/^chs_/);
    const donations = () =>
      fetch(`${origin}/v1/donations`, { headers: { Authorization: `Bearer ${value}`, 'X-Tenant': church.slug } });
    expect((await donations()).status).toBe(200);
    await page.goto(`${origin}/console/church/service-tokens`);
    expect(await page.content()).not.toContain(value);
    await submit(page, 'button[aria-label="Revocar Sincronización contable"]');
    expect((await donations()).status).toBe(401);
    await context.close();
  });

  it('API → Webhooks: invalid input is refused next to the fields (es); a new endpoint shows its whsec_ secret once (no-store), gone on reload', async () => {
    const { context, page } = await open('es-ES');
    await signIn(page, admin);
    await page.click('nav a[href="/console/api/webhooks"]');
    await page.waitForURL('**/console/api/webhooks');
    await expect(page.locator('h1').innerText()).resolves.toBe('Webhooks');
    await checkEverywhere(page, 'webhooks-empty-es');

    // As POST /v1/webhook-endpoints: the URL guard's invalid_webhook_url first, next to the URL, in Spanish.
    const refused = await submit(page);
    expect(refused.status()).toBe(422);
    await expect(page.locator('#url-error').innerText()).resolves.toMatch(/\S/);
    await page.fill('#url', 'no es una url');
    await page.check('input[value="member.created"]');
    expect((await submit(page)).status()).toBe(422);
    await expect(page.locator('#url-error').innerText()).resolves.toMatch(/\S/);
    // The checked events are kept as sent.
    expect(await page.isChecked('input[value="member.created"]')).toBe(true);
    // A good URL and no event: the DTO's own code, next to the events.
    await page.fill('#url', receiver.url('/hooks/new'));
    await page.uncheck('input[value="member.created"]');
    expect((await submit(page)).status()).toBe(422);
    await expect(page.locator('#events-error').innerText()).resolves.toMatch(/\S/);
    expect(await page.locator('#url-error').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/webhooks-invalid-es.png`, fullPage: true });

    await page.check('input[value="member.created"]');
    await page.fill('#description', 'Panel de ofrendas');
    const created = await submit(page);
    expect(created.status()).toBe(200);
    expect(created.headers()['cache-control']).toBe('no-store');
    const secret = await page.inputValue('#secret');
    expect(secret).toMatch(/^whsec_/);
    await checkEverywhere(page, 'webhook-created-es');
    const [entry] = await auditRows('endpoints.create');
    expect(entry.token_name).toBe(`console: ${admin.email}`);
    expect(entry.resource_id).toMatch(/^whe_/);

    await page.goto(`${origin}/console/api/webhooks`);
    expect(await page.content()).not.toContain(secret);
    await expect(page.locator('.row-title').allInnerTexts()).resolves.toEqual([receiver.url('/hooks/new')]);
    await expect(page.locator('.row .state').innerText()).resolves.toBe('Correcto');
    await context.close();
  });

  it('API → Webhooks, an endpoint page: test event and validate (outside the transaction), deliveries in the chart, resend, backfill, roll secret, disable, enable, delete', async () => {
    const path = '/hooks/console';
    const { context, page } = await open('en-US');
    await signIn(page, admin);
    await page.goto(`${origin}/console/api/webhooks`);
    await page.fill('#url', receiver.url(path));
    await page.check('input[value="member.created"]');
    await submit(page);
    const first = await page.inputValue('#secret');
    await submit(page, '.secret-box a.btn');
    const endpointPath = new URL(page.url()).pathname;
    const id = endpointPath.split('/').pop()!;
    expect(id).toMatch(/^whe_/);
    await expect(page.locator('#health-state').innerText()).resolves.toBe('Healthy');

    // A test event: signed, "test": true, sent through the service, the attempt shown; no church
    // transaction is open while the receiver has the request (as the route's @OutsideTransaction).
    const db = api.app.get(Database);
    const runInTenant = db.runInTenant.bind(db);
    let inFlight = 0;
    let opened = 0;
    jest.spyOn(db, 'runInTenant').mockImplementation(async (run, fn) => {
      inFlight++;
      opened++;
      try {
        return await runInTenant(run, fn);
      } finally {
        inFlight--;
      }
    });
    const openWhenReceived: number[] = [];
    receiver.answer(path, () => {
      openWhenReceived.push(inFlight);
      return {};
    });
    await page.selectOption('#test-type', 'member.created');
    const tested = await submit(page, '#send-test');
    expect(openWhenReceived).toEqual([0]);
    // The service's short transactions (reading the endpoint and its secrets, the audit entry) did go through the spy.
    expect(opened).toBeGreaterThan(0);
    receiver.reset(path);
    jest.restoreAllMocks();
    expect(tested.status()).toBe(200);
    await expect(page.locator('#result').innerText()).resolves.toMatch(
      /^Test event member.created: Answered 200 in \d+ ms$/,
    );
    const [test] = await receiver.waitForCount(path, 1);
    expect(test.body).toMatchObject({ type: 'member.created', test: true });
    expect(test.headers['service-signature']).toContain('v1=');
    expect((await auditRows('endpoints.send_test')).map((r) => r.token_name)).toEqual([`console: ${admin.email}`]);

    const validated = await submit(page, '#validate');
    expect(validated.status()).toBe(200);
    await expect(page.locator('#result').innerText()).resolves.toContain('/webhooks/ping · Answered 200');

    // A real event: delivered by the outbox, then in the attempts list and the chart.
    await newMember(api, church, { first_name: 'Consola' });
    const [, delivered] = await receiver.waitForCount(path, 2);
    const eventId = (delivered.body as { id: string }).id;
    await page.goto(`${origin}${endpointPath}`);
    await expect(page.locator('table.attempts tbody tr').first().innerText()).resolves.toContain(eventId);
    // Today, the chart's last day: 1 succeeded, 0 failed (the test event is not a delivery).
    await expect(
      page.locator('table.data').first().locator('tbody tr').last().locator('td').allInnerTexts(),
    ).resolves.toEqual(['1', '0']);
    await expect(page.locator('.chart img').getAttribute('alt')).resolves.toBe(
      'Bar chart: 1 successful and 0 failed deliveries in the last 7 days.',
    );
    await checkEverywhere(page, 'webhook-endpoint-en');

    // Resend that event: the receiver gets it again.
    await submit(page, `button[aria-label="Resend ${eventId}"]`);
    await expect(page.locator('[role="status"]').first().innerText()).resolves.toBe('Event resent.');
    const [, , again] = await receiver.waitForCount(path, 3);
    expect((again.body as { id: string }).id).toBe(eventId);
    expect(await auditRows('webhook_events.resend')).toEqual([
      { token_name: `console: ${admin.email}`, resource_id: eventId },
    ]);

    // Backfill: a reversed range is the API's validation error next to "To"; today's range queues the event.
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await page.selectOption('#backfill-type', 'member.created');
    await page.fill('#backfill-from', today);
    await page.fill('#backfill-to', yesterday);
    expect((await submit(page, '#backfill')).status()).toBe(422);
    await expect(page.locator('#to-error').innerText()).resolves.toMatch(/\S/);
    await page.fill('#backfill-to', today);
    expect((await submit(page, '#backfill')).status()).toBe(200);
    await expect(page.locator('[role="status"]').first().innerText()).resolves.toBe('1 events queued.');
    const [, , , backfilled] = await receiver.waitForCount(path, 4);
    expect((backfilled.body as { id: string }).id).toBe(eventId);

    // Roll the secret: a new one, shown once.
    expect((await submit(page, '#roll-secret')).headers()['cache-control']).toBe('no-store');
    const rolled = await page.inputValue('#secret');
    expect(rolled).toMatch(/^whsec_/);
    expect(rolled).not.toBe(first);
    await page.goto(`${origin}${endpointPath}`);
    expect(await page.content()).not.toContain(rolled);

    // Disable, then enable (PATCH's service): the health badge follows.
    await submit(page, '#toggle');
    await expect(page.locator('[role="status"]').first().innerText()).resolves.toBe('Endpoint disabled.');
    await expect(page.locator('#health-state').innerText()).resolves.toBe('Disabled');
    await submit(page, '#toggle');
    await expect(page.locator('#health-state').innerText()).resolves.toBe('Healthy');
    expect((await auditRows('endpoints.update')).length).toBe(2);

    // Delete: back to the list; the API no longer knows it; its page is a 404 page.
    await submit(page, '#delete');
    expect(new URL(page.url()).search).toBe('?done=deleted');
    await expect(page.locator('[role="status"]').first().innerText()).resolves.toBe('Endpoint deleted.');
    const gone = await api.get(`/v1/webhook-endpoints/${id}`, { token: church.token, tenant: church.slug });
    expect(gone.status).toBe(404);
    expect((await page.goto(`${origin}${endpointPath}`))!.status()).toBe(404);
    expect((await page.goto(`${origin}/console/api/webhooks/whe_nope`))!.status()).toBe(404);
    await context.close();
  });

  it('API → Webhooks (pt): the new form takes delivery filters (only matching events are delivered); the page edits url, events, filters and description (errors next to the field); a receiver answering 500 shows the failing badge on the list', async () => {
    const path = '/hooks/failing';
    const { context, page } = await open('pt-BR');
    await signIn(page, admin);
    await page.goto(`${origin}/console/api/webhooks`);
    await page.fill('#url', receiver.url(path));
    await page.check('input[value="member.created"]');
    // A filter the API refuses (a path that is no dotted path): its error next to the filters, in Portuguese.
    await page.fill('#filter-path-1', 'data..first_name');
    await page.fill('#filter-value-1', 'Falha');
    expect((await submit(page)).status()).toBe(422);
    await expect(page.locator('#filters-error').innerText()).resolves.toMatch(/\S/);
    await expect(page.inputValue('#filter-value-1')).resolves.toBe('Falha');
    await page.fill('#filter-path-1', 'data.object.first_name');
    expect((await submit(page)).status()).toBe(200);
    await submit(page, '.secret-box a.btn');
    const endpointPath = new URL(page.url()).pathname;
    const id = endpointPath.split('/').pop()!;
    const read = async () =>
      (
        await api.get<{ url: string; description: string | null; events: string[]; filters: unknown[] }>(
          `/v1/webhook-endpoints/${id}`,
          { token: church.token, tenant: church.slug },
        )
      ).body;
    expect((await read()).filters).toEqual([{ path: 'data.object.first_name', op: 'eq', value: 'Falha' }]);

    // The edit form holds the endpoint's settings; a URL the API refuses is shown next to the URL, nothing saved.
    await expect(page.inputValue('#filter-path-1')).resolves.toBe('data.object.first_name');
    expect(await page.isChecked('input[value="member.created"]')).toBe(true);
    await page.fill('#url', 'http://example.org/hooks');
    await page.fill('#description', 'Painel');
    expect((await submit(page, '#save-endpoint')).status()).toBe(422);
    await expect(page.locator('#url-error').innerText()).resolves.toMatch(/\S/);
    await expect(page.inputValue('#description')).resolves.toBe('Painel');
    await page.screenshot({ path: `${SHOTS}/webhook-edit-invalid-pt.png`, fullPage: true });
    expect((await read()).url).toBe(receiver.url(path));

    await page.fill('#url', receiver.url(path));
    await page.selectOption('#filter-op-1', 'in');
    await page.fill('#filter-value-1', 'Falha, Erro');
    await page.check('input[value="donation.created"]');
    await submit(page, '#save-endpoint');
    expect(new URL(page.url()).search).toBe('?done=saved');
    await expect(page.locator('[role="status"]').first().innerText()).resolves.toBe('Alterações salvas.');
    await expect(page.inputValue('#filter-value-1')).resolves.toBe('Falha, Erro');
    expect(await read()).toMatchObject({
      url: receiver.url(path),
      description: 'Painel',
      events: ['member.created', 'donation.created'],
      filters: [{ path: 'data.object.first_name', op: 'in', value: ['Falha', 'Erro'] }],
    });
    const updates = await auditRows('endpoints.update');
    expect(updates.filter((r) => r.resource_id === id).map((r) => r.token_name)).toEqual([`console: ${admin.email}`]);

    // The receiver answers 500: three failed deliveries make the endpoint failing, shown on the list.
    receiver.answer(path, { status: 500 });
    for (const name of ['Outra', 'Falha', 'Erro', 'Falha']) await newMember(api, church, { first_name: name });
    await waitFor(
      async () =>
        (
          await api.get<{ health: { state: string } }>(`/v1/webhook-endpoints/${id}`, {
            token: church.token,
            tenant: church.slug,
          })
        ).body.health.state === 'failing',
      { timeout: 20_000, what: 'the endpoint failing' },
    );
    // Only the events that pass the filter were sent.
    const names = receiver
      .at(path)
      .map((r) => (r.body as { data: { object: { first_name: string } } }).data.object.first_name);
    expect(names).not.toContain('Outra');
    await page.goto(`${origin}/console/api/webhooks`);
    const row = page.locator('.row', { hasText: receiver.url(path) });
    await expect(row.locator('.state.failing').innerText()).resolves.toBe('Com falhas');
    await checkEverywhere(page, 'webhooks-failing-pt');
    await page.goto(`${origin}${endpointPath}`);
    await expect(page.locator('#health-state').innerText()).resolves.toBe('Com falhas');
    await checkEverywhere(page, 'webhook-endpoint-failing-pt');
    await api.delete(`/v1/webhook-endpoints/${id}`, { token: church.token, tenant: church.slug });
    receiver.reset(path);
    await context.close();
  });

  it("an endpoint's page counts every attempt of the last 7 days in its chart (past 250) and pages its attempts (Older, Newest)", async () => {
    const created = await api.post<{ id: string }>('/v1/webhook-endpoints', {
      token: church.token,
      tenant: church.slug,
      body: { url: receiver.url('/hooks/busy'), events: ['member.created'] },
    });
    const id = created.body.id;
    const uuid = parsePublicId(ID_PREFIX.webhookEndpoint, id)!;
    // 260 successful and 60 failed attempts today, 40 failed three days ago: more than any one page of the list.
    await api.db.platform.query(
      `INSERT INTO webhook_attempts (tenant_id, id, delivery_id, endpoint_id, event_id, attempt, status_code, duration_ms, error, created_at)
       SELECT $1, gen_random_uuid(), gen_random_uuid(), $2, gen_random_uuid(), 1,
              CASE WHEN i <= 260 THEN 200 ELSE 500 END, 12, NULL,
              date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
                - CASE WHEN i > 320 THEN interval '3 days' ELSE interval '0' END + i * interval '1 second'
         FROM generate_series(1, 360) AS i`,
      [church.id, uuid],
    );
    const { context, page } = await open('en-US');
    await signIn(page, admin);
    await page.goto(`${origin}/console/api/webhooks/${id}`);
    const days = page.locator('table.data').first().locator('tbody tr');
    await expect(days.nth(6).locator('td').allInnerTexts()).resolves.toEqual(['260', '60']);
    await expect(days.nth(3).locator('td').allInnerTexts()).resolves.toEqual(['0', '40']);
    await expect(page.locator('.chart img').getAttribute('alt')).resolves.toBe(
      'Bar chart: 260 successful and 100 failed deliveries in the last 7 days.',
    );

    const attempts = page.locator('table.attempts tbody tr');
    expect(await attempts.count()).toBe(50);
    expect(await page.locator('#newest-attempts').count()).toBe(0);
    const firstPage = await attempts.allInnerTexts();
    const seen = new Set(firstPage);
    let pages = 1;
    while (await page.locator('#older-attempts').count()) {
      await Promise.all([page.waitForNavigation(), page.click('#older-attempts')]);
      pages++;
      for (const row of await attempts.allInnerTexts()) seen.add(row);
      expect(await page.locator('#newest-attempts').count()).toBe(1);
    }
    expect(pages).toBe(8);
    expect(seen.size).toBe(360);
    await checkEverywhere(page, 'webhook-endpoint-older-en');
    // A cursor edited by hand is the API's 400 on the page, never a 500.
    expect((await page.goto(`${origin}/console/api/webhooks/${id}?cursor=nonsense`))!.status()).toBe(400);
    await api.delete(`/v1/webhook-endpoints/${id}`, { token: church.token, tenant: church.slug });
    await context.close();
  });

  it("Devices: registers a kiosk (its key shown once, working on the API), rotates its key (the old one 401), revokes one (401), each with its route's audit entry; Audit log shows it newest first and filters by action", async () => {
    const device = await newDevice(api, church, { name: 'Entrada norte' });
    const events = (key: string) =>
      fetch(`${origin}/v1/events`, { headers: { Authorization: `Bearer ${key}`, 'X-Tenant': church.slug } });
    const kiosk = () => events(device.key);
    expect((await kiosk()).status).toBe(200);
    const { context, page } = await open('en-US');
    await signIn(page, admin);
    await page.click('nav a[href="/console/devices"]');
    await page.waitForURL('**/console/devices');
    await expect(page.locator('h1').innerText()).resolves.toBe('Devices');
    await expect(page.locator('.row-title').allInnerTexts()).resolves.toEqual([
      expect.stringContaining('Entrada norte'),
    ]);
    expect(await page.content()).not.toContain(device.key);
    await checkEverywhere(page, 'devices-en');

    // Register: POST /v1/devices' validation next to the name; then the key, shown once (no-store).
    expect((await submit(page, '#register-device')).status()).toBe(422);
    await expect(page.locator('#name-error').innerText()).resolves.toMatch(/\S/);
    await page.fill('#name', 'Recepción sur');
    const registered = await submit(page, '#register-device');
    expect(registered.status()).toBe(200);
    expect(registered.headers()['cache-control']).toBe('no-store');
    const key = await page.inputValue('#secret');
    expect(key).toMatch(/^chk_/);
    await checkEverywhere(page, 'device-registered-en');
    expect((await events(key)).status).toBe(200);
    // The last entry (the kiosk made above by the factory went through the API route).
    const registeredEntry = (await auditRows('devices.register')).at(-1)!;
    expect(registeredEntry.token_name).toBe(`console: ${admin.email}`);
    expect(registeredEntry.resource_id).toMatch(/^dev_/);
    await page.goto(`${origin}/console/devices`);
    expect(await page.content()).not.toContain(key);
    // Its row shows the key's hint (GET /v1/devices/{id}'s key_display), never the key.
    await expect(page.locator('.row-title', { hasText: 'Recepción sur' }).innerText()).resolves.toContain(
      key.slice(-4),
    );

    // Rotate: a new key, shown once; the old one is refused at once.
    await submit(page, 'button[aria-label="Rotate key for Recepción sur"]');
    const rotated = await page.inputValue('#secret');
    expect(rotated).toMatch(/^chk_/);
    expect(rotated).not.toBe(key);
    expect((await events(key)).status).toBe(401);
    expect((await events(rotated)).status).toBe(200);
    expect(await auditRows('devices.rotate_key')).toEqual([
      { token_name: `console: ${admin.email}`, resource_id: registeredEntry.resource_id },
    ]);
    await page.goto(`${origin}/console/devices`);

    await submit(page, 'button[aria-label="Revoke Entrada norte"]');
    await expect(page.locator('[role="status"]').first().innerText()).resolves.toBe('Device revoked.');
    await expect(page.locator('.row-title').allInnerTexts()).resolves.toEqual([
      expect.stringContaining('Recepción sur'),
    ]);
    expect((await kiosk()).status).toBe(401);
    expect(await auditRows('devices.remove')).toEqual([
      { token_name: `console: ${admin.email}`, resource_id: device.id },
    ]);

    // A malformed id is the API's 404, on the page.
    const csrf = await page.inputValue('header input[name="csrf"]');
    const bad = await context.request.post(`${origin}/console/devices/dev_nope/revoke`, {
      form: { csrf },
      maxRedirects: 0,
    });
    expect(bad.status()).toBe(404);

    // Audit log: newest first (the revoke on top), then filtered by action.
    await page.click('nav a[href="/console/audit-log"]');
    await page.waitForURL('**/console/audit-log');
    await expect(page.locator('h1').innerText()).resolves.toBe('Audit log');
    const first = page.locator('table.audit tbody tr').first().locator('td');
    await expect(first.allInnerTexts()).resolves.toEqual([
      expect.any(String),
      'devices.remove',
      device.id,
      `console: ${admin.email}`,
      '204',
    ]);
    await checkEverywhere(page, 'audit-en');
    await page.fill('#action-filter', 'devices.remove');
    await submit(page, '#apply-filter');
    expect(new URL(page.url()).searchParams.get('action')).toBe('devices.remove');
    const actions = await page.locator('table.audit tbody tr td:nth-child(2)').allInnerTexts();
    expect(actions).toEqual(['devices.remove']);
    // A cursor edited by hand is the API's 400 on the page, never a 500.
    expect((await page.goto(`${origin}/console/audit-log?cursor=nonsense`))!.status()).toBe(400);
    await context.close();
  });

  it('Audit log: filters by token (a link on its name) and by a range of days, and pages with "Older" keeping the filters', async () => {
    // 60 entries of one sync token three days ago, and one of another token today.
    const syncToken = newUuid();
    await api.db.platform.query(
      `INSERT INTO audit_log (tenant_id, id, token_id, token_name, action, resource_type, status, created_at)
       SELECT $1, gen_random_uuid(), $2, 'Sync nocturno', 'members.update', 'members', 200,
              date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '3 days' + i * interval '1 minute'
         FROM generate_series(1, 60) AS i`,
      [church.id, syncToken],
    );
    await api.db.platform.query(
      `INSERT INTO audit_log (tenant_id, id, token_id, token_name, action, resource_type, status)
       VALUES ($1, gen_random_uuid(), $2, 'Otro token', 'members.create', 'members', 201)`,
      [church.id, newUuid()],
    );
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    const { context, page } = await open('pt-BR');
    await signIn(page, admin);
    await page.goto(`${origin}/console/audit-log`);
    // The token's name is a link to its entries only.
    await Promise.all([page.waitForNavigation(), page.click('table.audit a:text-is("Otro token")')]);
    expect(new URL(page.url()).searchParams.get('token')).toMatch(/^tok_/);
    await expect(page.locator('table.audit tbody tr td:nth-child(4)').allInnerTexts()).resolves.toEqual(['Otro token']);
    await page.click('#clear-filter');

    // Three days ago, by token id: 60 entries, 50 on the first page, "Older" keeps the filters.
    await page.fill('#token-filter', toPublicId(ID_PREFIX.token, syncToken));
    await page.fill('#from-filter', day(3));
    await page.fill('#to-filter', day(3));
    await submit(page, '#apply-filter');
    const rows = page.locator('table.audit tbody tr');
    expect(await rows.count()).toBe(50);
    await expect(page.inputValue('#from-filter')).resolves.toBe(day(3));
    await checkEverywhere(page, 'audit-filtered-pt');
    await Promise.all([page.waitForNavigation(), page.click('#next-page')]);
    const older = new URL(page.url()).searchParams;
    expect([older.get('from'), older.get('to'), older.get('token')]).toEqual([
      day(3),
      day(3),
      toPublicId(ID_PREFIX.token, syncToken),
    ]);
    expect(await rows.count()).toBe(10);
    expect(new Set(await page.locator('table.audit tbody tr td:nth-child(4)').allInnerTexts())).toEqual(
      new Set(['Sync nocturno']),
    );
    expect(await page.locator('#next-page').count()).toBe(0);
    await expect(page.locator('#first-page').innerText()).resolves.toBe('Mais recentes');

    // Today only: none of the sync token's entries.
    await page.fill('#from-filter', day(0));
    await page.fill('#to-filter', day(0));
    await submit(page, '#apply-filter');
    expect(await rows.count()).toBe(0);
    // A day that is no date is the API's 400 on the page.
    expect((await page.goto(`${origin}/console/audit-log?from=2026-13-45`))!.status()).toBe(400);
    await context.close();
  });

  it("Usage: any role sees today's requests against the daily quota (GET /v1/usage's numbers) as a meter and a bar picture when the use is at least a pixel of it, else as numbers; and when the quota starts again", async () => {
    const tenants = api.app.get(TenantsService);
    const raise = (perDay: number) =>
      tenants.update(church.slug, { quotaPerDay: perDay, quotaUntil: new Date(Date.now() + 3_600_000) });
    const usage = await api.get<{ quota: { requests_per_day: number }; day: { requests: number } }>('/v1/usage', {
      token: church.token,
      tenant: church.slug,
    });
    const { context, page } = await open('es-ES');
    try {
      // A quota the day's requests fill visibly: the meter and the picture.
      await raise(usage.body.day.requests + 100);
      await signIn(page, staff);
      await page.click('nav a[href="/console/usage"]');
      await page.waitForURL('**/console/usage');
      await expect(page.locator('h1').innerText()).resolves.toBe('Uso');
      const meter = page.locator('#day-meter');
      expect(Number(await meter.getAttribute('max'))).toBe(usage.body.day.requests + 100);
      expect(Number(await meter.getAttribute('value'))).toBeGreaterThanOrEqual(usage.body.day.requests);
      await expect(page.locator('#today-text').innerText()).resolves.toMatch(
        /^[\d.,\s]+ de [\d.,\s]+ solicitudes hoy \(\d+ %\)\.$/,
      );
      await expect(page.locator('.chart img').getAttribute('alt')).resolves.toMatch(/solicitudes hoy/);
      // The daily window starts again at the next 00:00 UTC.
      const tomorrow = new Intl.DateTimeFormat('es', { dateStyle: 'medium', timeZone: 'UTC' }).format(
        new Date(Date.now() + 86_400_000),
      );
      await expect(page.locator('#resets-text').innerText()).resolves.toContain(tomorrow);
      await checkEverywhere(page, 'usage-es');

      // A quota so large that today's use is under a pixel of the bar: numbers only, no empty bar.
      await raise(2_000_000_000);
      await page.reload();
      expect(await page.locator('#day-meter').count()).toBe(0);
      expect(await page.locator('.chart img').count()).toBe(0);
      await expect(page.locator('#today-text').innerText()).resolves.toMatch(/\(menos del 1 %\)\.$/);
      await expect(page.locator('#requests-today').innerText()).resolves.toMatch(/2\.000\.000\.000$/);
      await checkEverywhere(page, 'usage-large-quota-es');
    } finally {
      await tenants.update(church.slug, { quotaPerDay: null, quotaUntil: null });
    }
    await context.close();
  });

  it("another role's page is a 403 page (a staff member on Church → Service tokens, API → CORS, API → Webhooks, Devices and Audit log)", async () => {
    const { context, page } = await open('es-ES');
    await signIn(page, staff);
    for (const path of [
      '/console/church/service-tokens',
      '/console/api/cors',
      '/console/api/webhooks',
      '/console/devices',
      '/console/audit-log',
    ]) {
      const refused = await page.goto(`${origin}${path}`);
      expect(refused!.status()).toBe(403);
      await expect(page.locator('h1').innerText()).resolves.toBe('Sin permiso');
    }
    await checkEverywhere(page, 'forbidden-es');
    await context.close();
  });

  it('My account → Tokens pages a long list (pt: Older, Newest); an unknown /console path is an HTML 404 page in the layout, signed in or not', async () => {
    const many = await newStaff(api, church, 'volunteer');
    await inTenant(api, church.id, async () => {
      const creator = await api.app.get(UsersService).requireById(many.id);
      for (let i = 1; i <= 55; i++)
        await api.app.get(TokensService).issue({ type: 'pat', name: `Leitor ${i}`, scopes: ['read:members'], creator });
    });
    const { context, page } = await open('pt-BR');
    await signIn(page, many);
    const rows = page.locator('.row-title');
    // The name before the token's hint (tokens made in the same millisecond may come in either order).
    const names = async () => (await rows.allInnerTexts()).map((text) => text.split(' chp_')[0]);
    const first = await names();
    expect(first).toHaveLength(50);
    await Promise.all([page.waitForNavigation(), page.click('#next-page')]);
    await expect(page.locator('#next-page').count()).resolves.toBe(0);
    const older = await names();
    expect(older).toHaveLength(5);
    expect(new Set([...first, ...older]).size).toBe(55);
    await expect(page.locator('#first-page').innerText()).resolves.toBe('Mais recentes');
    await checkEverywhere(page, 'tokens-older-pt');
    expect((await page.goto(`${origin}/console/account/tokens?cursor=nonsense`))!.status()).toBe(400);

    // An unknown path: the 404 page in the layout (the navigation is there), in Portuguese.
    const missing = await page.goto(`${origin}/console/account/nowhere`);
    expect(missing!.status()).toBe(404);
    expect(missing!.headers()['content-type']).toMatch(/^text\/html/);
    await expect(page.locator('h1').innerText()).resolves.toBe('Página não encontrada');
    expect(await page.locator('nav a[href="/console/account/tokens"]').count()).toBe(1);
    await checkEverywhere(page, 'not-found-pt');
    await context.close();

    // Signed out: the same page alone, in the request's language; nothing under /console answers JSON.
    for (const method of ['GET', 'POST'])
      await expect(
        fetch(`${origin}/console/nothing/here`, { method, headers: { 'Accept-Language': 'es' } }).then(async (r) => [
          r.status,
          r.headers.get('content-type')?.split(';')[0],
          (await r.text()).includes('Página no encontrada'),
        ]),
      ).resolves.toEqual([404, 'text/html', true]);
  });

  it('My account → Authorized apps: lists the apps the staff member authorized; revoking one ends its tokens', async () => {
    const { clientId } = await newOAuthClient(api, church, {
      name: 'Asistencia Dominical',
      redirectUris: ['https://app.example.org/callback'],
      scopes: ['read:members'],
    });
    const { verifier, challenge } = pkce();
    const code = await inTenant(api, church.id, () =>
      api.app.get(OAuthCodesService).issue({
        clientId: parsePublicId(ID_PREFIX.oauthClient, clientId)!,
        userId: staff.id,
        scopes: ['read:members'],
        redirectUri: 'https://app.example.org/callback',
        codeChallenge: challenge,
      }),
    );
    const exchanged = await fetch(`${origin}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'https://app.example.org/callback',
        code_verifier: verifier,
        client_id: clientId,
      }),
    });
    const { access_token } = (await exchanged.json()) as { access_token: string };
    const members = () =>
      fetch(`${origin}/v1/members`, { headers: { Authorization: `Bearer ${access_token}`, 'X-Tenant': church.slug } });
    expect((await members()).status).toBe(200);

    const { context, page } = await open('es-ES');
    await signIn(page, staff);
    await page.click('nav a[href="/console/account/apps"]');
    await page.waitForURL('**/console/account/apps');
    await expect(page.locator('.row-title').allInnerTexts()).resolves.toEqual(['Asistencia Dominical']);
    await checkEverywhere(page, 'apps-es');
    await submit(page, 'button[aria-label="Revocar acceso de Asistencia Dominical"]');
    await expect(page.locator('[role="status"]').first().innerText()).resolves.toBe('Acceso revocado.');
    expect(await page.locator('.row').count()).toBe(0);
    expect((await members()).status).toBe(401);
    expect((await auditRows('oauth_authorizations.revoke')).map((r) => r.token_name)).toEqual([
      `console: ${staff.email}`,
    ]);
    await context.close();
  });

  it('a session unused for 30 minutes has ended (the clock moved, no waiting); 29 minutes keep it alive', async () => {
    const { context, page } = await open('en-US');
    await signIn(page, staff);
    const clock = api.app.get(ConsoleClock);
    const start = Date.now();
    jest.spyOn(clock, 'now').mockReturnValue(new Date(start + 29 * 60_000));
    await page.goto(`${origin}/console/account/tokens`);
    expect(new URL(page.url()).pathname).toBe('/console/account/tokens');
    // 30 minutes after that last request.
    jest.spyOn(clock, 'now').mockReturnValue(new Date(start + 59 * 60_000 + 1000));
    await page.goto(`${origin}/console/account/tokens`);
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    await expect(page.locator('[role="status"]').innerText()).resolves.toBe(
      'Your session ended. Please sign in again.',
    );
    await context.close();
  });

  it('a session is over after 12 hours even when in use', async () => {
    const { context, page } = await open('en-US');
    await signIn(page, staff);
    const clock = api.app.get(ConsoleClock);
    const start = Date.now();
    // Used every 25 minutes: alive until the 12th hour.
    for (let minutes = 25; minutes < 12 * 60; minutes += 25) {
      jest.spyOn(clock, 'now').mockReturnValue(new Date(start + minutes * 60_000));
      const res = await context.request.get(`${origin}/console/account/tokens`, { maxRedirects: 0 });
      expect(res.status()).toBe(200);
    }
    jest.spyOn(clock, 'now').mockReturnValue(new Date(start + 12 * 60 * 60_000 + 1000));
    const res = await context.request.get(`${origin}/console/account/tokens`, { maxRedirects: 0 });
    expect(res.status()).toBe(303);
    expect(res.headers().location).toBe('/console/sign-in?ended=1');
    await context.close();
  });

  it('signing out ends the session on the server: the old cookie no longer opens a page', async () => {
    const { context, page } = await open('en-US');
    await signIn(page, staff);
    const [cookie] = (await context.cookies()).filter((c) => c.name === '__Host-console');
    await submit(page, 'header button[type="submit"]');
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    await expect(page.locator('[role="status"]').innerText()).resolves.toBe('You are signed out.');
    // The value, replayed (a copy of the cookie kept elsewhere), is refused.
    const replay = await fetch(`${origin}/console/account/tokens`, {
      headers: { Cookie: `__Host-console=${cookie.value}` },
      redirect: 'manual',
    });
    expect(replay.status).toBe(303);
    expect(replay.headers.get('location')).toBe('/console/sign-in?ended=1');
    await context.close();
  });

  it('removing the staff member ends their session at once', async () => {
    const leaving = await newStaff(api, church, 'volunteer');
    const { context, page } = await open('en-US');
    await signIn(page, leaving);
    expect(new URL(page.url()).pathname).toBe('/console/account/tokens');
    await api.db.platform.query(`DELETE FROM users WHERE tenant_id = $1 AND id = $2`, [church.id, leaving.id]);
    const [{ count }] = await api.db.platform.query(
      `SELECT count(*)::int AS count FROM console_sessions WHERE tenant_id = $1 AND user_id = $2`,
      [church.id, leaving.id],
    );
    expect(count).toBe(0);
    await page.goto(`${origin}/console/account/tokens`);
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    await context.close();
  });

  it('the browser reported no Content-Security-Policy violation on any page', () => {
    expect(cspViolations).toEqual([]);
  });
});
