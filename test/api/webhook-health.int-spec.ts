import { randomBytes } from 'node:crypto';
import { verifyWebhook } from '../../src/sdk/verify-webhook';
import { TestApi } from '../support/api';
import {
  cancelPendingDeliveries,
  newMember,
  newMembers,
  newTenant,
  newToken,
  newWebhookEndpoint,
  TestTenant,
} from '../support/factories';
import { TestReceiver } from '../support/receiver';
import { TestSmtpServer } from '../support/smtp';
import { waitFor } from '../support/wait';
import type {
  EndpointResponse as Endpoint,
  TestEventResultResponse,
} from '../../src/modules/webhook-endpoints/dto/endpoint.response';

/**
 * Webhook health and test events (CONTRACT §18) over HTTP: in-process delivery on a time-scaled
 * schedule whose first three retries are quick and the last two a minute apart (so that an endpoint
 * stays `failing` for the test), a real loopback receiver and a real SMTP server.
 */

const SCHEDULE = ['50ms', '50ms', '50ms', '60s', '60s'];
/** After the third failure: its 50 ms retry, then the two 60 s ones (+10% jitter at most). */
const GIVES_UP_AFTER_MS = [120_000, 126_100];
const ENCRYPTION_KEY = Buffer.alloc(32, 17).toString('base64');

interface Event {
  id: string;
  type: string;
  test?: boolean;
  tenant: string;
  data: { object: Record<string, unknown>; last_error?: string };
}

describe('webhook endpoint health and test events', () => {
  let receiver: TestReceiver;
  let smtp: TestSmtpServer;
  let api: TestApi;
  const churches: TestTenant[] = [];

  beforeAll(async () => {
    delete process.env.REDIS_URL; // in-process deliveries
    receiver = await TestReceiver.start();
    smtp = await TestSmtpServer.start();
    api = await TestApi.start({
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      WEBHOOK_RETRY_SCHEDULE: SCHEDULE.join(','),
      WEBHOOK_TIMEOUT_MS: '1000',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Church API <no-reply@church.test>',
      ENCRYPTION_KEY,
      QUEUE_PREFIX: `whh-${randomBytes(3).toString('hex')}`,
    });
  });

  afterAll(async () => {
    if (api && churches.length)
      await cancelPendingDeliveries(
        api,
        churches.map((c) => c.id),
      );
    await api?.close();
    await receiver?.close();
    await smtp?.close();
  });

  async function church(): Promise<TestTenant> {
    const c = await newTenant(api);
    churches.push(c);
    return c;
  }

  const path = (label: string) => `/hooks/${label}-${randomBytes(3).toString('hex')}`;

  async function endpoint(c: TestTenant, id: string): Promise<Endpoint> {
    const res = await api.get<Endpoint>(`/v1/webhook-endpoints/${id}`, { token: c.token, tenant: c.slug });
    expect(res.status).toBe(200);
    return res.body;
  }

  const events = (p: string) => receiver.at(p).map((r) => r.body as Event);
  const mails = (c: TestTenant, subject: RegExp) => smtp.to(c.admin.email).filter((m) => subject.test(m.subject));

  it('failing from the third failed attempt: disable_at, one mail, an event to the other endpoints only; a 2xx makes it healthy again', async () => {
    const c = await church();
    const [pA, pB, pC] = [path('failing'), path('watcher'), path('bystander')];
    receiver.answer(pA, { status: 500 });
    const a = await newWebhookEndpoint(api, c, {
      url: receiver.url(pA),
      events: ['member.created', 'webhook_endpoint.failing', 'webhook_endpoint.disabled'],
    });
    const b = await newWebhookEndpoint(api, c, {
      url: receiver.url(pB),
      events: ['webhook_endpoint.failing', 'webhook_endpoint.disabled'],
    });
    const bystander = await newWebhookEndpoint(api, c, { url: receiver.url(pC), events: ['member.created'] });
    expect((await endpoint(c, a.id)).health).toEqual({
      state: 'healthy',
      failing_since: null,
      consecutive_failures: 0,
      last_success_at: null,
      disable_at: null,
    });

    await newMember(api, c);
    const failing = await waitFor(() => endpoint(c, a.id), {
      what: 'the endpoint to be failing',
      until: (e) => e.health.state === 'failing',
    });
    expect(failing.status).toBe('enabled');
    expect(failing.health.consecutive_failures).toBeGreaterThanOrEqual(3);
    expect(failing.health.last_success_at).toBeNull();
    const since = Date.parse(failing.health.failing_since!);
    const givesUpIn = Date.parse(failing.health.disable_at!) - since;
    expect({
      givesUpIn,
      inWindow: givesUpIn >= GIVES_UP_AFTER_MS[0] - 1000 && givesUpIn <= GIVES_UP_AFTER_MS[1],
    }).toEqual({
      givesUpIn,
      inWindow: true,
    });

    // The other endpoint that subscribes hears of it, signed with its own secret; the failing one does not.
    const [told] = await receiver.waitForCount(pB, 1);
    expect(verifyWebhook(told.rawBody, String(told.headers['service-signature']), [b.secret]).ok).toBe(true);
    const event = told.body as Event;
    expect(event).toMatchObject({ type: 'webhook_endpoint.failing', tenant: c.slug, data: { last_error: 'HTTP 500' } });
    expect(event.data.object).toMatchObject({ id: a.id, url: a.url, status: 'enabled', health: { state: 'failing' } });
    expect(events(pA).every((e) => e.type === 'member.created')).toBe(true);
    expect(events(pC).every((e) => e.type === 'member.created')).toBe(true);

    // One warning mail to the org_admin, naming the endpoint, the last error and disable_at.
    const [warning] = await waitFor(() => mails(c, /failing/i), {
      what: 'the warning mail',
      until: (m) => m.length > 0,
    });
    expect(warning.text).toContain(a.url);
    expect(warning.text).toContain('HTTP 500');
    expect(warning.text).toContain(failing.health.disable_at!);

    // A 2xx: healthy again, with one "recovered" mail; no second warning.
    receiver.answer(pA, { status: 200 });
    await newMember(api, c, { first_name: 'Back' });
    const healthy = await waitFor(() => endpoint(c, a.id), {
      what: 'the endpoint to be healthy again',
      until: (e) => e.health.state === 'healthy',
    });
    expect(healthy.health).toMatchObject({ failing_since: null, consecutive_failures: 0, disable_at: null });
    expect(Date.parse(healthy.health.last_success_at!)).toBeGreaterThanOrEqual(since);
    await waitFor(() => mails(c, /recovered/i), { what: 'the recovery mail', until: (m) => m.length > 0 });
    expect(mails(c, /recovered/i)).toHaveLength(1);
    expect(mails(c, /failing/i)).toHaveLength(1);
    expect(events(pB).map((e) => e.type)).toEqual(['webhook_endpoint.failing']);

    // An endpoint that only succeeds: healthy, with the time of its last 2xx.
    const quiet = await endpoint(c, bystander.id);
    expect(quiet.health).toMatchObject({ state: 'healthy', consecutive_failures: 0, failing_since: null });
    expect(quiet.health.last_success_at).not.toBeNull();
    // The list shows the same health.
    const list = await api.get<{ data: Endpoint[] }>('/v1/webhook-endpoints', { token: c.token, tenant: c.slug });
    // (a later delivery may have succeeded since: last_success_at only moves on)
    const listed = list.body.data.find((e) => e.id === a.id)!.health;
    expect({ ...listed, last_success_at: null }).toEqual({ ...healthy.health, last_success_at: null });
    expect(Date.parse(listed.last_success_at!)).toBeGreaterThanOrEqual(Date.parse(healthy.health.last_success_at!));
  });

  it('concurrent failures of one endpoint (many deliveries at once) enter failing once: one mail, one event', async () => {
    const c = await church();
    const [pA, pB] = [path('burst'), path('burst-watcher')];
    receiver.answer(pA, { status: 503 });
    const a = await newWebhookEndpoint(api, c, { url: receiver.url(pA), events: ['member.created'] });
    await newWebhookEndpoint(api, c, { url: receiver.url(pB), events: ['webhook_endpoint.failing'] });

    await newMembers(
      api,
      c,
      Array.from({ length: 12 }, (_, i) => ({ first_name: `Burst${i}`, last_name: 'R' })),
    );
    // Every delivery reaches its quick retries (12 × 4 attempts) before the minute-long ones.
    await receiver.waitForCount(pA, 48, 20_000);
    const failing = await waitFor(() => endpoint(c, a.id), {
      what: 'the failure count to settle',
      until: (e) => e.health.consecutive_failures === 48,
    });
    expect(failing.health.state).toBe('failing');
    await waitFor(() => mails(c, /failing/i), { what: 'the warning mail', until: (m) => m.length > 0 });
    await receiver.waitForCount(pB, 1);
    expect(mails(c, /failing/i)).toHaveLength(1);
    expect(events(pB)).toHaveLength(1);
  });

  it('many endpoints failing at once: every attempt is counted (batches lock endpoints in one order, no deadlock loses one)', async () => {
    const c = await church();
    const paths = Array.from({ length: 20 }, (_, i) => path(`many-${i}`));
    for (const p of paths) receiver.answer(p, { status: 500 });
    const ids: string[] = [];
    for (const p of paths)
      ids.push((await newWebhookEndpoint(api, c, { url: receiver.url(p), events: ['member.created'] })).id);
    await newMembers(
      api,
      c,
      Array.from({ length: 15 }, (_, i) => ({ first_name: `Many${i}`, last_name: 'R' })),
    );
    // 15 deliveries per endpoint, each tried 4 times before the minute-long retries.
    for (const p of paths) await receiver.waitForCount(p, 60, 30_000);
    const counted = await waitFor(
      async () => {
        const rows = await api.db.platform.query<{ n: number }[]>(
          `SELECT coalesce(sum(consecutive_failures), 0)::int AS n FROM webhook_endpoint_health WHERE tenant_id = $1`,
          [c.id],
        );
        return rows[0].n;
      },
      { what: 'every failure counted', until: (n) => n >= 20 * 60, timeout: 15_000 },
    );
    expect(counted).toBe(20 * 60);
    for (const id of ids) expect((await endpoint(c, id)).health.consecutive_failures).toBe(60);
  });

  it('disabling raises webhook_endpoint.disabled (engine and PATCH) with one mail; re-enabling starts healthy', async () => {
    const c = await church();
    const [pGone, pOff, pB] = [path('gone'), path('off'), path('disabled-watcher')];
    receiver.answer(pGone, { status: 410 });
    const gone = await newWebhookEndpoint(api, c, { url: receiver.url(pGone), events: ['member.created'] });
    const off = await newWebhookEndpoint(api, c, { url: receiver.url(pOff), events: ['member.created'] });
    await newWebhookEndpoint(api, c, { url: receiver.url(pB), events: ['webhook_endpoint.disabled'] });

    await newMember(api, c);
    const disabled = await waitFor(() => endpoint(c, gone.id), {
      what: 'the endpoint to be disabled',
      until: (e) => e.status === 'disabled',
    });
    expect(disabled.health).toMatchObject({ state: 'disabled', consecutive_failures: 1, disable_at: null });
    const [first] = await receiver.waitForCount(pB, 1);
    expect((first.body as Event).data.object).toMatchObject({
      id: gone.id,
      status: 'disabled',
      disabled_reason: 'gone (HTTP 410)',
      health: { state: 'disabled' },
    });
    const [mail] = await waitFor(() => mails(c, /disabled/i), { what: 'the mail', until: (m) => m.length > 0 });
    expect(mail.text).toContain(gone.url);

    const patched = await api.patch<Endpoint>(`/v1/webhook-endpoints/${off.id}`, {
      token: c.token,
      tenant: c.slug,
      body: { status: 'disabled' },
    });
    expect(patched.body.health.state).toBe('disabled');
    const [, second] = await receiver.waitForCount(pB, 2);
    expect((second.body as Event).data.object).toMatchObject({ id: off.id, disabled_reason: 'disabled by the church' });
    expect(mails(c, /disabled/i)).toHaveLength(1); // the church did it: no mail

    const enabled = await api.patch<Endpoint>(`/v1/webhook-endpoints/${gone.id}`, {
      token: c.token,
      tenant: c.slug,
      body: { status: 'enabled' },
    });
    expect(enabled.body.health).toEqual({
      state: 'healthy',
      failing_since: null,
      consecutive_failures: 0,
      last_success_at: null,
      disable_at: null,
    });
  });

  describe('POST /v1/webhook-endpoints/{id}/test', () => {
    it('sends a signed sample with test: true and answers the attempt; nothing is stored or retried', async () => {
      const c = await church();
      const p = path('test-event');
      const e = await newWebhookEndpoint(api, c, { url: receiver.url(p), events: ['donation.created'] });
      const before = await api.get<{ total: number }>('/v1/webhook-events', { token: c.token, tenant: c.slug });

      const res = await api.post<TestEventResultResponse>(`/v1/webhook-endpoints/${e.id}/test`, {
        token: c.token,
        tenant: c.slug,
        body: { type: 'member.created' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status_code: 200, error: null });
      expect(res.body.duration_ms).toBeGreaterThanOrEqual(0);
      const [sent] = receiver.at(p);
      expect(verifyWebhook(sent.rawBody, String(sent.headers['service-signature']), [e.secret]).ok).toBe(true);
      const event = sent.body as Event;
      expect(event).toMatchObject({ type: 'member.created', test: true, tenant: c.slug });
      expect(sent.headers['service-webhook-id']).toBe(event.id);
      expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
      // The document's example of a member, every field of the schema present.
      expect(event.data.object).toMatchObject({ id: expect.stringMatching(/^mem_[0-9a-f]{32}$/) });
      expect(Object.keys(event.data.object)).toEqual(
        expect.arrayContaining(['first_name', 'last_name', 'email', 'tags', 'created_at']),
      );

      // Not in the event log, no delivery to retry.
      const after = await api.get<{ total: number }>('/v1/webhook-events', { token: c.token, tenant: c.slug });
      expect(after.body.total).toBe(before.body.total);
      const deliveries = await api.get<{ data: unknown[] }>(`/v1/webhook-endpoints/${e.id}/deliveries`, {
        token: c.token,
        tenant: c.slug,
      });
      expect(deliveries.body.data).toEqual([]);

      // A receiver that fails: the attempt says so, once; health is not touched.
      receiver.answer(p, { status: 500 });
      const failed = await api.post<TestEventResultResponse>(`/v1/webhook-endpoints/${e.id}/test`, {
        token: c.token,
        tenant: c.slug,
        body: { type: 'donation.created' },
      });
      expect(failed.body).toMatchObject({ status_code: 500, error: 'HTTP 500' });
      expect(receiver.at(p)).toHaveLength(2);
      expect((await endpoint(c, e.id)).health.consecutive_failures).toBe(0);
    });

    it('refuses an unknown type (422), an unknown endpoint (404) and a token without admin:* (403)', async () => {
      const c = await church();
      const e = await newWebhookEndpoint(api, c, { url: receiver.url(path('refused')), events: ['member.created'] });
      const bad = await api.post<{ code: string; errors: { field: string }[] }>(`/v1/webhook-endpoints/${e.id}/test`, {
        token: c.token,
        tenant: c.slug,
        body: { type: 'member.exploded' },
      });
      expect(bad.status).toBe(422);
      expect(bad.body.code).toBe('validation_failed');
      expect(bad.body.errors.map((x) => x.field)).toEqual(['type']);
      const missing = await api.post(`/v1/webhook-endpoints/whe_${'0'.repeat(32)}/test`, {
        token: c.token,
        tenant: c.slug,
        body: { type: 'member.created' },
      });
      expect(missing.status).toBe(404);
      const reader = await newToken(api, c, ['read:members']);
      const forbidden = await api.post(`/v1/webhook-endpoints/${e.id}/test`, {
        token: reader.token,
        tenant: c.slug,
        body: { type: 'member.created' },
      });
      expect(forbidden.status).toBe(403);
    });
  });
});
