import { randomBytes } from 'node:crypto';
import { verifyWebhook } from '../../src/sdk/verify-webhook';
import { TestApi } from '../support/api';
import {
  cancelPendingDeliveries,
  newMember,
  newMembers,
  newTenant,
  newWebhookEndpoint,
  TestTenant,
} from '../support/factories';
import { TestReceiver } from '../support/receiver';
import { TestSmtpServer } from '../support/smtp';
import { sleep, waitFor } from '../support/wait';
import type {
  AttemptResponse as Attempt,
  EndpointResponse as Endpoint,
} from '../../src/modules/webhook-endpoints/dto/endpoint.response';

/**
 * Retries, deactivation and failure kinds, on a time-scaled schedule (the specification's
 * 30s,5m,1h,6h,24h becomes 200ms..1000ms; the time-out 3 s becomes 500 ms). In-process delivery
 * (no REDIS_URL), a real HTTP receiver and a real SMTP server.
 */

const SCHEDULE_MS = [200, 400, 600, 800, 1000];
const TIMEOUT_MS = 500;
/** In-process deliveries poll the outbox every 500 ms; an attempt may start up to one tick (plus work) after it is due. */
const SCHEDULING_SLACK_MS = 750;
const ENCRYPTION_KEY = Buffer.alloc(32, 13).toString('base64');

describe('webhook retries and deactivation (time-scaled)', () => {
  let receiver: TestReceiver;
  let smtp: TestSmtpServer;
  let api: TestApi;
  const churches: TestTenant[] = [];

  beforeAll(async () => {
    delete process.env.REDIS_URL; // in-process mode
    receiver = await TestReceiver.start();
    smtp = await TestSmtpServer.start();
    api = await TestApi.start({
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      WEBHOOK_RETRY_SCHEDULE: SCHEDULE_MS.map((ms) => `${ms}ms`).join(','),
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Church API <no-reply@church.test>',
      ENCRYPTION_KEY,
      QUEUE_PREFIX: `whr-${randomBytes(3).toString('hex')}`,
      JOB_RETRY_BASE_MS: '200',
    });
  });

  afterAll(async () => {
    if (api && churches.length) {
      await cancelPendingDeliveries(
        api,
        churches.map((c) => c.id),
      );
    }
    await api?.close();
    await receiver?.close();
    await smtp?.close();
  });

  async function church(): Promise<TestTenant> {
    const c = await newTenant(api);
    churches.push(c);
    return c;
  }

  async function getEndpoint(c: TestTenant, id: string): Promise<Endpoint> {
    const res = await api.get<Endpoint>(`/v1/webhook-endpoints/${id}`, { token: c.token, tenant: c.slug });
    expect(res.status).toBe(200);
    return res.body;
  }

  async function attempts(c: TestTenant, endpointId: string): Promise<Attempt[]> {
    const res = await api.get<{ data: Attempt[] }>(`/v1/webhook-endpoints/${endpointId}/deliveries?limit=250`, {
      token: c.token,
      tenant: c.slug,
    });
    expect(res.status).toBe(200);
    return res.body.data;
  }

  /** The deactivation mails (a failing endpoint's warning comes first: see webhook-health). */
  const disabledMails = (c: TestTenant) =>
    smtp.to(c.admin.email).filter((m) => /desactivado|disabled/i.test(m.subject));

  const path = (label: string) => `/hooks/${label}-${randomBytes(3).toString('hex')}`;

  it('a receiver that always answers 500: exactly 6 attempts on the schedule, then disabled, one mail; PATCH re-enables', async () => {
    const c = await church();
    const p = path('always-500');
    receiver.answer(p, { status: 500 });
    const endpoint = await newWebhookEndpoint(api, c, { url: receiver.url(p), events: ['member.created'] });
    await newMember(api, c);

    const requests = await receiver.waitForCount(p, 6, 15_000);
    const disabled = await waitFor(() => getEndpoint(c, endpoint.id), {
      what: 'the endpoint to be disabled',
      until: (e) => e.status === 'disabled',
    });
    expect(disabled.disabled_reason).toBe('retries exhausted');
    await sleep(SCHEDULE_MS[SCHEDULE_MS.length - 1] * 1.1 + SCHEDULING_SLACK_MS); // no 7th attempt
    expect(receiver.at(p)).toHaveLength(6);

    // Same event each time, freshly signed each time
    const eventId = requests[0].headers['service-webhook-id'];
    expect(eventId).toMatch(/^evt_[0-9a-f]{32}$/);
    for (const r of requests) {
      expect(r.headers['service-webhook-id']).toBe(eventId);
      expect(verifyWebhook(r.rawBody, String(r.headers['service-signature']), [endpoint.secret]).ok).toBe(true);
    }

    // Spacing: at least the schedule entry, at most +10% jitter plus scheduling slack
    const gaps = requests.slice(1).map((r, i) => r.receivedAt - requests[i].receivedAt);
    gaps.forEach((gap, i) => {
      expect({ retry: i + 1, gap, atLeast: gap >= SCHEDULE_MS[i] }).toEqual({ retry: i + 1, gap, atLeast: true });
      expect({ retry: i + 1, gap, atMost: gap <= SCHEDULE_MS[i] * 1.1 + SCHEDULING_SLACK_MS }).toEqual({
        retry: i + 1,
        gap,
        atMost: true,
      });
    });

    // Every attempt is in the log, newest first
    const list = await attempts(c, endpoint.id);
    expect(list.map((a) => a.attempt)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(new Set(list.map((a) => a.delivery_id)).size).toBe(1);
    for (const a of list)
      expect(a).toMatchObject({ event_id: eventId, status_code: 500, error: 'HTTP 500', succeeded: false });

    // Exactly one mail to the church's org_admin
    await waitFor(async () => disabledMails(c).length, { what: 'the deactivation mail', until: (n) => n >= 1 });
    await sleep(300);
    const mails = disabledMails(c);
    expect(mails).toHaveLength(1);
    expect(mails[0].from).toBe('no-reply@church.test');
    expect(mails[0].subject).toMatch(/desactivado|disabled/i);
    expect(mails[0].text).toContain(endpoint.url);

    // While disabled, new events are not delivered
    await newMember(api, c, { first_name: 'Quiet' });
    await sleep(800);
    expect(receiver.at(p)).toHaveLength(6);

    // Re-enable: new events are delivered again
    receiver.answer(p, { status: 200 });
    const enabled = await api.patch<Endpoint>(`/v1/webhook-endpoints/${endpoint.id}`, {
      token: c.token,
      tenant: c.slug,
      body: { status: 'enabled' },
    });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ id: endpoint.id, status: 'enabled', disabled_reason: null });
    const memberId = (await newMember(api, c, { first_name: 'Back' })).id;
    const [, , , , , , seventh] = await receiver.waitForCount(p, 7);
    expect((seventh.body as { data: { object: { id: string } } }).data.object.id).toBe(memberId);
    expect(seventh.headers['service-webhook-id']).not.toBe(eventId);
    await sleep(600);
    expect(receiver.at(p)).toHaveLength(7);
    const afterReEnable = await waitFor(() => attempts(c, endpoint.id), {
      what: 'the 7th attempt',
      until: (l) => l.length >= 7,
    });
    expect(afterReEnable[0]).toMatchObject({ attempt: 1, status_code: 200, succeeded: true, error: null });
    expect((await getEndpoint(c, endpoint.id)).status).toBe('enabled');
    expect(disabledMails(c)).toHaveLength(1);
  });

  it('two failing deliveries to one endpoint: the org_admin still gets exactly one mail', async () => {
    const c = await church();
    const p = path('two-500');
    receiver.answer(p, { status: 500 });
    const endpoint = await newWebhookEndpoint(api, c, { url: receiver.url(p), events: ['member.created'] });
    const ids = await newMembers(api, c, [
      { first_name: 'Uno', last_name: 'A' },
      { first_name: 'Dos', last_name: 'B' },
    ]);
    expect(ids).toHaveLength(2);

    await waitFor(() => getEndpoint(c, endpoint.id), {
      what: 'the endpoint to be disabled',
      until: (e) => e.status === 'disabled',
      timeout: 15_000,
    });
    await sleep(SCHEDULE_MS[SCHEDULE_MS.length - 1] * 1.1 + SCHEDULING_SLACK_MS);
    const list = await attempts(c, endpoint.id);
    const perDelivery = new Map<string, number>();
    for (const a of list) perDelivery.set(a.delivery_id, Math.max(perDelivery.get(a.delivery_id) ?? 0, a.attempt));
    expect(perDelivery.size).toBe(2);
    // One exhausts its retries; the other stops once the endpoint is disabled (jitter lets them drift apart).
    expect(Math.max(...perDelivery.values())).toBe(6);
    expect(Math.min(...perDelivery.values())).toBeGreaterThanOrEqual(1);
    expect(new Set(receiver.webhookIds(p)).size).toBe(2);

    await waitFor(async () => disabledMails(c).length, { what: 'the deactivation mail', until: (n) => n >= 1 });
    await sleep(500);
    expect(disabledMails(c)).toHaveLength(1);
  });

  it('410 Gone disables the endpoint after one attempt', async () => {
    const c = await church();
    const p = path('gone');
    receiver.answer(p, { status: 410 });
    const endpoint = await newWebhookEndpoint(api, c, { url: receiver.url(p), events: ['member.created'] });
    await newMember(api, c);
    await receiver.waitForCount(p, 1);
    const disabled = await waitFor(() => getEndpoint(c, endpoint.id), {
      what: 'the endpoint to be disabled',
      until: (e) => e.status === 'disabled',
      timeout: 5_000,
    });
    expect(disabled.disabled_reason).toMatch(/410/);
    await sleep(SCHEDULE_MS[0] * 1.1 + SCHEDULING_SLACK_MS + 300);
    expect(receiver.at(p)).toHaveLength(1);
    expect(await attempts(c, endpoint.id)).toEqual([
      expect.objectContaining({ attempt: 1, status_code: 410, error: 'HTTP 410', succeeded: false }),
    ]);
  });

  it('a deactivation mail the SMTP server first refuses is retried by the mail outbox and delivered', async () => {
    const c = await church();
    const p = path('gone-mail');
    receiver.answer(p, { status: 410 });
    let refusals = 0;
    smtp.rejectRecipient = (address) => address === c.admin.email && refusals++ < 1;
    try {
      const endpoint = await newWebhookEndpoint(api, c, { url: receiver.url(p), events: ['member.created'] });
      await newMember(api, c);
      await waitFor(() => getEndpoint(c, endpoint.id), {
        what: 'the endpoint to be disabled',
        until: (e) => e.status === 'disabled',
        timeout: 5_000,
      });
      const [mail] = await waitFor(async () => smtp.to(c.admin.email), {
        what: 'the deactivation mail',
        until: (mails) => mails.length >= 1,
      });
      expect(mail.subject).toMatch(/desactivado|disabled/i);
      expect(mail.text).toContain(endpoint.url);
      expect(refusals).toBe(2); // refused once, accepted on the retry
      // The SMTP server has the mail a moment before the job that sent it is marked done.
      const [job] = await waitFor(
        () =>
          api.db.platform.query<{ status: string; attempts: number; transport: string }[]>(
            // The mail is queued in the church's transaction (its job is the church's: background_jobs).
            `SELECT j.status, j.attempts, m.transport FROM mail_outbox m JOIN background_jobs j ON j.kind = 'mail' AND j.data->>'mailId' = m.id::text WHERE m.recipient = $1`,
            [c.admin.email],
          ),
        { what: 'the mail job to finish', until: (rows) => rows[0]?.status !== 'running', timeout: 5_000 },
      );
      expect(job).toEqual({ status: 'done', attempts: 2, transport: 'smtp' });
      await sleep(300);
      expect(smtp.to(c.admin.email)).toHaveLength(1);
    } finally {
      smtp.rejectRecipient = () => false;
    }
  });

  it('a 302 redirect is a failure and is not followed', async () => {
    const c = await church();
    const p = path('redirect');
    const target = path('redirect-target');
    receiver.answer(p, (_req, i) =>
      i === 0 ? { status: 302, headers: { location: receiver.url(target) } } : { status: 200 },
    );
    const endpoint = await newWebhookEndpoint(api, c, { url: receiver.url(p), events: ['member.created'] });
    await newMember(api, c);
    const requests = await receiver.waitForCount(p, 2, 5_000);
    expect(requests[1].receivedAt - requests[0].receivedAt).toBeGreaterThanOrEqual(SCHEDULE_MS[0]);
    expect(receiver.at(target, null)).toEqual([]);
    const list = await waitFor(() => attempts(c, endpoint.id), { what: 'two attempts', until: (l) => l.length >= 2 });
    expect(list).toEqual([
      expect.objectContaining({ attempt: 2, status_code: 200, error: null, succeeded: true }),
      expect.objectContaining({ attempt: 1, status_code: 302, error: 'HTTP 302', succeeded: false }),
    ]);
    await sleep(500);
    expect(receiver.at(target, null)).toEqual([]);
  });

  it('an answer slower than WEBHOOK_TIMEOUT_MS is a failure with a time-out error', async () => {
    const c = await church();
    const p = path('slow');
    receiver.answer(p, (_req, i) => (i === 0 ? { status: 200, delayMs: TIMEOUT_MS * 2 } : { status: 200 }));
    const endpoint = await newWebhookEndpoint(api, c, { url: receiver.url(p), events: ['member.created'] });
    await newMember(api, c);
    await receiver.waitForCount(p, 2, 5_000);
    const list = await waitFor(() => attempts(c, endpoint.id), { what: 'two attempts', until: (l) => l.length >= 2 });
    expect(list[1]).toMatchObject({ attempt: 1, status_code: null, succeeded: false });
    expect(list[1].error).toMatch(/time-?out/i);
    expect(list[1].duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(list[1].duration_ms).toBeLessThan(TIMEOUT_MS * 2);
    expect(list[0]).toMatchObject({ attempt: 2, status_code: 200, succeeded: true, error: null });
    expect(list[0].delivery_id).toBe(list[1].delivery_id);
    expect((await getEndpoint(c, endpoint.id)).status).toBe('enabled');
  });

  it('a 2xx on the second attempt: succeeded, two attempts recorded, no more tries', async () => {
    const c = await church();
    const p = path('second');
    receiver.answer(p, (_req, i) => (i === 0 ? { status: 500 } : { status: 202 }));
    const endpoint = await newWebhookEndpoint(api, c, { url: receiver.url(p), events: ['member.created'] });
    await newMember(api, c);
    await receiver.waitForCount(p, 2, 5_000);
    const list = await waitFor(() => attempts(c, endpoint.id), { what: 'two attempts', until: (l) => l.length >= 2 });
    expect(list).toEqual([
      expect.objectContaining({ attempt: 2, status_code: 202, error: null, succeeded: true }),
      expect.objectContaining({ attempt: 1, status_code: 500, error: 'HTTP 500', succeeded: false }),
    ]);
    expect(list[0].delivery_id).toBe(list[1].delivery_id);
    await sleep(SCHEDULE_MS[1] * 1.1 + SCHEDULING_SLACK_MS);
    expect(receiver.at(p)).toHaveLength(2);
    expect(await attempts(c, endpoint.id)).toHaveLength(2);
    expect((await getEndpoint(c, endpoint.id)).status).toBe('enabled');
    expect(smtp.to(c.admin.email)).toEqual([]);
  });
});
