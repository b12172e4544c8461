import { createHmac, randomBytes } from 'node:crypto';
import supertest from 'supertest';
import { AppError } from '../../src/common/errors/app-error';
import { assertWebhookUrl, guardedLookup } from '../../src/platform/outbox/url-guard';
import { verifyWebhook } from '../../src/sdk/verify-webhook';
import { JsonObject, TestApi } from '../support/api';
import {
  cancelPendingDeliveries,
  newMember,
  newMembers,
  newTenant,
  newToken,
  newWebhookEndpoint,
  TestTenant,
} from '../support/factories';
import { PING_PATH, TestReceiver } from '../support/receiver';
import { sleep, waitFor } from '../support/wait';
import type {
  AttemptResponse as Attempt,
  EndpointResponse as Endpoint,
  EndpointWithSecretResponse,
} from '../../src/modules/webhook-endpoints/dto/endpoint.response';
import type { WebhookEventResponse } from '../../src/modules/webhook-endpoints/dto/webhook-event.response';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import { newCampus } from '../support/factories';

/**
 * Webhooks in the API process (no REDIS_URL: deliveries run in-process from the outbox), to a real
 * HTTP receiver on 127.0.0.1 (allowed by WEBHOOK_ALLOW_LOOPBACK=true).
 */

// ---------------------------------------------------------------------------------------------
// Types and helpers
// ---------------------------------------------------------------------------------------------

/** An event as delivered and listed: its `data.object` is the record, a JSON object. */
type Envelope = WebhookEventResponse & { data: { object: Record<string, unknown> } };

const ENCRYPTION_KEY = Buffer.alloc(32, 11).toString('base64');
const SIGNATURE = /^t=(\d+)(,v1=[0-9a-f]{64})+$/;

/** The parts of a Service-Signature header. */
function parseSignature(header: string): { t: number; v1: string[] } {
  const parts = header.split(',');
  return { t: Number(parts[0].slice(2)), v1: parts.slice(1).map((p) => p.slice(3)) };
}

function hmac(secret: string, t: number, raw: string): string {
  return createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex');
}

/** A path on the receiver that no other test uses. */
function uniquePath(label: string): string {
  return `/hooks/${label}-${randomBytes(3).toString('hex')}`;
}

describe('webhooks (in-process delivery)', () => {
  let receiver: TestReceiver;

  beforeAll(async () => {
    delete process.env.REDIS_URL; // in-process mode
    receiver = await TestReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
  });

  // -------------------------------------------------------------------------------------------
  // SSRF without the loopback flag (its own API instance, closed before the others start)
  // -------------------------------------------------------------------------------------------

  describe('URL guard without WEBHOOK_ALLOW_LOOPBACK', () => {
    let strict: TestApi;
    let church: TestTenant;

    beforeAll(async () => {
      strict = await TestApi.start({
        WEBHOOK_ALLOW_LOOPBACK: 'false',
        ENCRYPTION_KEY,
        QUEUE_PREFIX: `wh-${randomBytes(3).toString('hex')}`,
      });
      church = await newTenant(strict);
    });

    afterAll(async () => {
      await strict?.close();
    });

    it.each([
      ['http loopback', () => receiver.url('/hook')],
      ['https loopback IP', () => 'https://127.0.0.1/hook'],
      ['a host name that resolves to loopback', () => 'https://localhost/hook'],
      ['http to a public host', () => 'http://93.184.216.34/hook'],
      ['a private 10/8 address', () => 'https://10.1.2.3/'],
      ['the link-local metadata address', () => 'https://169.254.169.254/latest'],
      ['IPv6 loopback', () => 'https://[::1]/'],
      ['a private 192.168/16 address', () => 'https://192.168.1.1'],
      ['credentials in the URL', () => 'https://user:secret@93.184.216.34/hook'],
      ['not a URL', () => 'hooks.example.org/church'],
    ])('refuses %s with 422 invalid_webhook_url over HTTP', async (_label, url) => {
      const res = await strict.post<Problem>('/v1/webhook-endpoints', {
        token: church.token,
        tenant: church.slug,
        body: { url: url(), events: ['member.created'] },
      });
      expect(res.status).toBe(422);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('invalid_webhook_url');
      expect(res.body.errors?.map((e: { field: string }) => e.field)).toEqual(['url']);
    });

    it('creates nothing when the URL is refused', async () => {
      const list = await strict.get<List<Endpoint>>('/v1/webhook-endpoints', {
        token: church.token,
        tenant: church.slug,
      });
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual([]);
    });

    it('assertWebhookUrl refuses every private, loopback and link-local target (unit level)', async () => {
      const refused = [
        'http://127.0.0.1:8080/hook',
        'https://127.0.0.1/hook',
        'https://127.1.2.3/hook',
        'https://2130706433/hook', // 127.0.0.1 in decimal
        'https://0x7f.0.0.1/hook', // ... and in hex
        'https://0177.0.0.1/hook', // ... and in octal
        'https://localhost/hook',
        'http://93.184.216.34/hook',
        'https://10.1.2.3/',
        'https://172.16.0.1/',
        'https://192.168.1.1',
        'https://169.254.169.254/latest',
        'https://100.64.0.1/',
        'https://0.0.0.0/',
        'https://[::1]/',
        'https://[::ffff:127.0.0.1]/',
        'https://[::ffff:10.0.0.1]/',
        'https://[fd00::1]/',
        'https://[fe80::1]/',
        'https://user:pass@93.184.216.34/',
        'https://:pass@93.184.216.34/',
        'not a url',
      ];
      for (const url of refused) {
        const error = await assertWebhookUrl(url, false).then(
          () => null,
          (e: unknown) => e,
        );
        expect({ url, error: error instanceof AppError ? error.code : error }).toEqual({
          url,
          error: 'invalid_webhook_url',
        });
      }
      await expect(assertWebhookUrl('https://93.184.216.34/hook', false)).resolves.toBeInstanceOf(URL);
      await expect(assertWebhookUrl('https://[2606:4700:4700::1111]/hook', false)).resolves.toBeInstanceOf(URL);
    });

    it('assertWebhookUrl with the flag: loopback over http is allowed, other private ranges stay refused', async () => {
      await expect(assertWebhookUrl('http://127.0.0.1:8080/hook', true)).resolves.toBeInstanceOf(URL);
      await expect(assertWebhookUrl('http://localhost:8080/hook', true)).resolves.toBeInstanceOf(URL);
      for (const url of [
        'https://10.0.0.1/',
        'http://10.0.0.1/',
        'https://192.168.1.1/',
        'https://169.254.169.254/',
        'http://93.184.216.34/',
        'https://[fd00::1]/',
      ]) {
        await expect(assertWebhookUrl(url, true)).rejects.toMatchObject({ code: 'invalid_webhook_url' });
      }
    });

    it('guardedLookup refuses a private address at connect time (DNS rebinding)', async () => {
      const lookup = (allow: boolean, options: object) =>
        new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
          guardedLookup(allow)('localhost', options, (error, address) => resolve({ error, address })),
        );
      const refused = await lookup(false, {});
      expect(refused.error).toMatchObject({ code: 'EADDRNOTALLOWED' });
      expect(refused.error!.message).toMatch(/refused address (127\.0\.0\.1|::1)/);
      const refusedAll = await lookup(false, { all: true });
      expect(refusedAll.error).toMatchObject({ code: 'EADDRNOTALLOWED' });

      const allowed = await lookup(true, {});
      expect(allowed.error).toBeNull();
      expect(['127.0.0.1', '::1']).toContain(allowed.address);
    });
  });

  // -------------------------------------------------------------------------------------------
  // Everything else: the API with the loopback flag and a time-scaled schedule
  // -------------------------------------------------------------------------------------------

  describe('with WEBHOOK_ALLOW_LOOPBACK', () => {
    let api: TestApi;
    const churches: TestTenant[] = [];

    beforeAll(async () => {
      api = await TestApi.start({
        WEBHOOK_ALLOW_LOOPBACK: 'true',
        WEBHOOK_RETRY_SCHEDULE: '200ms,300ms,400ms,500ms,600ms',
        WEBHOOK_TIMEOUT_MS: '1000',
        ENCRYPTION_KEY,
        QUEUE_PREFIX: `wh-${randomBytes(3).toString('hex')}`,
      });
    });

    afterAll(async () => {
      // Leave nothing pending for the suites that run after this one on the same database.
      if (api && churches.length) {
        await cancelPendingDeliveries(
          api,
          churches.map((c) => c.id),
        );
      }
      await api?.close();
    });

    async function church(): Promise<TestTenant> {
      const c = await newTenant(api);
      churches.push(c);
      return c;
    }

    async function createEndpoint(
      c: TestTenant,
      body: JsonObject,
    ): Promise<EndpointWithSecretResponse & { secret: string }> {
      // With filters, skip TestApi's OpenAPI check here: the conformance of `filters` in responses is
      // asserted by the 'creates an endpoint' test, and these tests are about delivery.
      if (!body.filters) return newWebhookEndpoint(api, c, body);
      const res = await supertest(api.app.getHttpServer())
        .post('/v1/webhook-endpoints')
        .set('Authorization', `Bearer ${c.token}`)
        .set('X-Tenant', c.slug)
        .send(body);
      if (res.status !== 201) throw new Error(`endpoint not created: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as EndpointWithSecretResponse & { secret: string };
    }

    async function attempts(c: TestTenant, endpointId: string): Promise<Attempt[]> {
      const res = await api.get<List<Attempt>>(`/v1/webhook-endpoints/${endpointId}/deliveries?limit=250`, {
        token: c.token,
        tenant: c.slug,
      });
      expect(res.status).toBe(200);
      return res.body.data;
    }

    async function waitForAttempts(
      c: TestTenant,
      endpointId: string,
      count: number,
      timeoutMs = 10_000,
    ): Promise<Attempt[]> {
      return waitFor(() => attempts(c, endpointId), {
        what: `${count} attempts`,
        timeout: timeoutMs,
        until: (list) => list.length >= count,
      });
    }

    const envelopes = (path: string) => receiver.at(path).map((r) => r.body as Envelope);

    // ---------------------------------------------------------------- endpoints API

    describe('endpoints API', () => {
      it('creates an endpoint: 201, whe_ id, status enabled, whsec_ secret shown once', async () => {
        const c = await church();
        const url = receiver.url(uniquePath('create'));
        const res = await api.post<EndpointWithSecretResponse>('/v1/webhook-endpoints', {
          token: c.token,
          tenant: c.slug,
          body: {
            url,
            events: ['member.created', 'donation.created', 'member.created'],
            filters: [{ path: 'data.object.amount', op: 'gte', value: 10000 }],
            description: 'Giving dashboard',
          },
        });
        expect(res.status).toBe(201);
        expect(res.headers.location).toBe(`/v1/webhook-endpoints/${res.body.id}`);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.body).toEqual({
          id: expect.stringMatching(/^whe_[0-9a-f]{32}$/),
          url,
          description: 'Giving dashboard',
          events: ['member.created', 'donation.created'],
          filters: [{ path: 'data.object.amount', op: 'gte', value: 10000 }],
          status: 'enabled',
          disabled_reason: null,
          health: {
            state: 'healthy',
            failing_since: null,
            consecutive_failures: 0,
            last_success_at: null,
            disable_at: null,
          },
          secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{32}$/),
          created_at: expect.any(String),
          updated_at: expect.any(String),
        });

        const got = await api.get<Endpoint>(`/v1/webhook-endpoints/${res.body.id}`, { token: c.token, tenant: c.slug });
        expect(got.status).toBe(200);
        expect(got.body).not.toHaveProperty('secret');
        const { secret: _secret, ...rest } = res.body;
        expect(got.body).toEqual(rest);
        expect(JSON.stringify(got.body)).not.toContain(res.body.secret);
      });

      it('lists, updates and deletes endpoints; never returns a secret after create', async () => {
        const c = await church();
        const a = await createEndpoint(c, { url: receiver.url(uniquePath('a')), events: ['member.created'] });
        const b = await createEndpoint(c, { url: receiver.url(uniquePath('b')), events: ['*'] });
        expect(a.filters).toEqual([]);
        expect(a.description).toBeNull();
        expect(b.events).toEqual(['*']);

        const list = await api.get<List<Endpoint>>('/v1/webhook-endpoints', { token: c.token, tenant: c.slug });
        expect(list.status).toBe(200);
        expect(list.body.data.map((e: Endpoint) => e.id)).toEqual([a.id, b.id]);
        expect(list.body.total).toBe(2);
        for (const e of list.body.data) expect(e).not.toHaveProperty('secret');
        expect(JSON.stringify(list.body)).not.toMatch(/whsec_/);

        const newUrl = receiver.url(uniquePath('a2'));
        const patched = await api.patch<Endpoint>(`/v1/webhook-endpoints/${a.id}`, {
          token: c.token,
          tenant: c.slug,
          body: { url: newUrl, events: ['member.updated', 'member.deleted'], description: 'CRM sync' },
        });
        expect(patched.status).toBe(200);
        expect(patched.body).toMatchObject({
          id: a.id,
          url: newUrl,
          events: ['member.updated', 'member.deleted'],
          description: 'CRM sync',
          status: 'enabled',
          filters: [],
        });
        expect(patched.body).not.toHaveProperty('secret');
        const disabled = await api.patch<Endpoint>(`/v1/webhook-endpoints/${a.id}`, {
          token: c.token,
          tenant: c.slug,
          body: { status: 'disabled' },
        });
        expect(disabled.body).toMatchObject({ status: 'disabled', disabled_reason: expect.any(String) });
        const filtered = await api.get<List<Endpoint>>('/v1/webhook-endpoints?status=disabled', {
          token: c.token,
          tenant: c.slug,
        });
        expect(filtered.body.data.map((e: Endpoint) => e.id)).toEqual([a.id]);
        expect(
          (await api.get<Endpoint>(`/v1/webhook-endpoints/${a.id}`, { token: c.token, tenant: c.slug })).body,
        ).toMatchObject({ url: newUrl, status: 'disabled' });

        const deleted = await api.delete(`/v1/webhook-endpoints/${a.id}`, { token: c.token, tenant: c.slug });
        expect(deleted.status).toBe(204);
        expect(
          (await api.get<Problem>(`/v1/webhook-endpoints/${a.id}`, { token: c.token, tenant: c.slug })).body.code,
        ).toBe('resource_not_found');
        expect(
          (await api.delete<Problem>(`/v1/webhook-endpoints/${a.id}`, { token: c.token, tenant: c.slug })).status,
        ).toBe(404);
        expect(
          (await api.get<List<Endpoint>>('/v1/webhook-endpoints', { token: c.token, tenant: c.slug })).body.data.map(
            (e: Endpoint) => e.id,
          ),
        ).toEqual([b.id]);
      });

      it('refuses an unknown event type and bad filters with 422 validation_failed', async () => {
        const c = await church();
        const url = receiver.url(uniquePath('bad'));
        const post = (body: JsonObject) =>
          api.post<Problem>('/v1/webhook-endpoints', { token: c.token, tenant: c.slug, body });

        const badType = await post({ url, events: ['member.created', 'member.exploded'] });
        expect(badType.status).toBe(422);
        expect(badType.body.code).toBe('validation_failed');
        expect(badType.body.errors?.map((e: { field: string }) => e.field).join()).toMatch(/events/);

        expect((await post({ url, events: [] })).status).toBe(422);
        expect((await post({ url })).status).toBe(422);

        const badOp = await post({
          url,
          events: ['member.created'],
          filters: [{ path: 'data.object.status', op: 'like', value: 'lead%' }],
        });
        expect(badOp.status).toBe(422);
        expect(badOp.body.code).toBe('validation_failed');
        expect(badOp.body.errors).toEqual([expect.objectContaining({ field: 'filters[0].op', issue: 'one_of' })]);

        const badPath = await post({
          url,
          events: ['member.created'],
          filters: [{ path: 'data..object', op: 'eq', value: 1 }],
        });
        expect(badPath.status).toBe(422);
        expect(badPath.body.errors).toEqual([expect.objectContaining({ field: 'filters[0].path' })]);

        const badIn = await post({
          url,
          events: ['member.created'],
          filters: [{ path: 'data.object.status', op: 'in', value: 'leader' }],
        });
        expect(badIn.status).toBe(422);
        expect(badIn.body.errors).toEqual([expect.objectContaining({ field: 'filters[0].value' })]);

        const extra = await post({
          url,
          events: ['member.created'],
          filters: [{ path: 'data.object.status', op: 'eq', value: 'leader', when: 'always' }],
        });
        expect(extra.status).toBe(422);

        const notArray = await post({ url, events: ['member.created'], filters: { path: 'data.object.status' } });
        expect(notArray.status).toBe(422);

        const endpoint = await createEndpoint(c, { url, events: ['member.created'] });
        const badPatch = await api.patch<Problem>(`/v1/webhook-endpoints/${endpoint.id}`, {
          token: c.token,
          tenant: c.slug,
          body: { filters: [{ path: 'x', op: 'gte', value: [1] }] },
        });
        expect(badPatch.status).toBe(422);
        const badStatus = await api.patch<Problem>(`/v1/webhook-endpoints/${endpoint.id}`, {
          token: c.token,
          tenant: c.slug,
          body: { status: 'paused' },
        });
        expect(badStatus.status).toBe(422);

        const list = await api.get<List<Endpoint>>('/v1/webhook-endpoints', { token: c.token, tenant: c.slug });
        expect(list.body.data).toEqual([expect.objectContaining({ id: endpoint.id, filters: [], status: 'enabled' })]);
      });

      it('accepts http://127.0.0.1:<port> with the flag, but still refuses private ranges', async () => {
        const c = await church();
        const ok = await api.post<Endpoint>('/v1/webhook-endpoints', {
          token: c.token,
          tenant: c.slug,
          body: { url: receiver.url('/ok'), events: ['member.created'] },
        });
        expect(ok.status).toBe(201);
        for (const url of [
          'https://10.0.0.1/',
          'http://10.0.0.1/',
          'https://169.254.169.254/latest',
          'https://192.168.1.1',
        ]) {
          const res = await api.post<Problem>('/v1/webhook-endpoints', {
            token: c.token,
            tenant: c.slug,
            body: { url, events: ['member.created'] },
          });
          expect({ url, status: res.status, code: res.body.code }).toEqual({
            url,
            status: 422,
            code: 'invalid_webhook_url',
          });
        }
        const patched = await api.patch<Problem>(`/v1/webhook-endpoints/${ok.body.id}`, {
          token: c.token,
          tenant: c.slug,
          body: { url: 'https://10.0.0.1/' },
        });
        expect(patched.status).toBe(422);
        expect(patched.body.code).toBe('invalid_webhook_url');
      });

      it('needs admin:*; another church sees nothing; a malformed id is a 404', async () => {
        const c = await church();
        const other = await church();
        const endpoint = await createEndpoint(c, {
          url: receiver.url(uniquePath('scope')),
          events: ['member.created'],
        });
        const staff = await newToken(api, c, ['read:members', 'write:members'], 'staff');
        const denied = await api.get<Problem>('/v1/webhook-endpoints', { token: staff.token, tenant: c.slug });
        expect(denied.status).toBe(403);
        expect(denied.body.code).toBe('scope_insufficient');
        expect(
          (
            await api.post<Problem>('/v1/webhook-endpoints', {
              token: staff.token,
              tenant: c.slug,
              body: { url: receiver.url('/x'), events: ['member.created'] },
            })
          ).status,
        ).toBe(403);
        expect(
          (await api.get<Problem>(`/v1/webhook-endpoints/${endpoint.id}`, { token: other.token, tenant: other.slug }))
            .status,
        ).toBe(404);
        expect(
          (await api.get<List<Endpoint>>('/v1/webhook-endpoints', { token: other.token, tenant: other.slug })).body
            .data,
        ).toEqual([]);
        expect(
          (await api.get<Problem>('/v1/webhook-endpoints/whe_nothex', { token: c.token, tenant: c.slug })).status,
        ).toBe(404);
        expect(
          (
            await api.get<Problem>(`/v1/webhook-endpoints/${endpoint.id.replace('whe_', 'mem_')}`, {
              token: c.token,
              tenant: c.slug,
            })
          ).status,
        ).toBe(404);
      });
    });

    // ---------------------------------------------------------------- delivery, signature, envelope

    describe('delivery', () => {
      it('POSTs the signed envelope of member.created: exactly {id, type, created, tenant, api_version, data.object}', async () => {
        const c = await church();
        const path = uniquePath('member');
        const endpoint = await createEndpoint(c, { url: receiver.url(path), events: ['member.created'] });
        const before = Math.floor(Date.now() / 1000);
        // The caller reads English; the event carries the default (Spanish) labels, as GET without Accept-Language.
        const created = await api.post<Record<string, unknown> & { id: string }>('/v1/members', {
          token: c.token,
          tenant: c.slug,
          lang: 'en',
          body: {
            first_name: 'José',
            last_name: 'Ruiz',
            email: 'jose@example.org',
            gender: 'male',
            status: 'leader',
            birthdate: '1990-05-17',
          },
        });
        expect(created.status).toBe(201);
        expect(created.body).toMatchObject({ status_label: 'Leader', gender_label: 'Male' });
        const member = created.body;
        const [request] = await receiver.waitForCount(path, 1);

        // Headers
        expect(request.method).toBe('POST');
        expect(request.headers['content-type']).toMatch(/^application\/json/);
        const header = String(request.headers['service-signature']);
        expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
        const { t, v1 } = parseSignature(header);
        expect(v1).toEqual([hmac(endpoint.secret, t, request.rawBody)]);
        expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(10);

        // Body: exactly the envelope, data.object as GET returns the member (Spanish labels)
        const body = request.body as Envelope;
        expect(Object.keys(body).sort()).toEqual(['api_version', 'created', 'data', 'id', 'tenant', 'type']);
        expect(Object.keys(body.data)).toEqual(['object']);
        expect(request.headers['service-webhook-id']).toBe(body.id);
        const got = await api.get<Record<string, unknown>>(`/v1/members/${member.id}`, {
          token: c.token,
          tenant: c.slug,
        });
        expect(body).toEqual({
          id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
          type: 'member.created',
          created: expect.any(Number),
          tenant: c.slug,
          api_version: '2026-01-01',
          data: { object: got.body },
        });
        expect(Number.isInteger(body.created)).toBe(true);
        expect(body.created).toBeGreaterThanOrEqual(before - 1);
        expect(body.created).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 1);
        expect(body.data.object).toMatchObject({
          id: member.id,
          first_name: 'José',
          status: 'leader',
          status_label: 'Líder',
          gender: 'male',
          gender_label: 'Masculino',
        });

        // The receiver helper
        expect(verifyWebhook(request.rawBody, header, [endpoint.secret])).toEqual({ ok: true, timestamp: t });
        expect(verifyWebhook(Buffer.from(request.rawBody, 'utf8'), header, [endpoint.secret]).ok).toBe(true);
        const i = request.rawBody.indexOf('José');
        const tampered = request.rawBody.slice(0, i) + 'Jos3' + request.rawBody.slice(i + 4);
        expect(tampered.length).toBe(request.rawBody.length);
        expect(verifyWebhook(tampered, header, [endpoint.secret])).toEqual({
          ok: false,
          reason: 'no_matching_signature',
        });
        expect(verifyWebhook(request.rawBody, header, ['whsec_' + 'x'.repeat(32)])).toEqual({
          ok: false,
          reason: 'no_matching_signature',
        });
        expect(verifyWebhook(request.rawBody, header, [endpoint.secret], { now: t + 301 })).toEqual({
          ok: false,
          reason: 'timestamp_out_of_tolerance',
        });
        expect(verifyWebhook(request.rawBody, header, [endpoint.secret], { now: t + 300 }).ok).toBe(true);

        // One delivery, one successful attempt
        await sleep(300);
        expect(receiver.at(path)).toHaveLength(1);
        const list = await waitForAttempts(c, endpoint.id, 1);
        expect(list).toEqual([
          {
            delivery_id: expect.stringMatching(/^whd_[0-9a-f]{32}$/),
            event_id: body.id,
            attempt: 1,
            status_code: 200,
            duration_ms: expect.any(Number),
            error: null,
            succeeded: true,
            created_at: expect.any(String),
          },
        ]);
      });

      it('raises campus.created, member.updated on PATCH and PUT, member.deleted on DELETE, one member.created per bulk row', async () => {
        const c = await church();
        const path = uniquePath('all');
        await createEndpoint(c, { url: receiver.url(path), events: ['*'] });

        const campus = await api.post<Record<string, unknown> & { id: string }>('/v1/campuses', {
          token: c.token,
          tenant: c.slug,
          body: { key: 'norte', name: 'Campus Norte' },
        });
        expect(campus.status).toBe(201);
        await receiver.waitForCount(path, 1);
        expect(envelopes(path)[0]).toMatchObject({
          type: 'campus.created',
          tenant: c.slug,
          data: { object: campus.body },
        });
        const campusGet = await api.get(`/v1/campuses/${campus.body.id}`, { token: c.token, tenant: c.slug });
        expect(envelopes(path)[0].data.object).toEqual(campusGet.body);

        const member = await newMember(api, c, { campus: 'norte' });
        await receiver.waitForCount(path, 2);
        const patched = await api.patch(`/v1/members/${member.id}`, {
          token: c.token,
          tenant: c.slug,
          body: { status: 'member' },
        });
        expect(patched.status).toBe(200);
        await receiver.waitForCount(path, 3);
        const put = await api.put(`/v1/members/${member.id}`, {
          token: c.token,
          tenant: c.slug,
          body: { first_name: 'Ana', last_name: 'Ruiz Díaz', status: 'regular' },
        });
        expect(put.status).toBe(200);
        await receiver.waitForCount(path, 4);
        const beforeDelete = await api.get(`/v1/members/${member.id}`, { token: c.token, tenant: c.slug });
        const deleted = await api.delete(`/v1/members/${member.id}`, { token: c.token, tenant: c.slug });
        expect(deleted.status).toBe(204);
        await receiver.waitForCount(path, 5);

        const [, created, updated1, updated2, gone] = envelopes(path);
        expect(created).toMatchObject({
          type: 'member.created',
          data: { object: { id: member.id, campus: { key: 'norte', name: 'Campus Norte' } } },
        });
        expect(updated1.type).toBe('member.updated');
        expect(updated1.data.object).toMatchObject({
          id: member.id,
          status: 'member',
          status_label: 'Miembro',
          updated_at: (patched.body as { updated_at: string }).updated_at,
        });
        expect(updated2.type).toBe('member.updated');
        expect(updated2.data.object).toEqual(put.body);
        expect(updated2.data.object).toMatchObject({ last_name: 'Ruiz Díaz', status: 'regular', campus: null });
        expect(gone.type).toBe('member.deleted');
        expect(gone.data.object).toMatchObject({ ...(beforeDelete.body as object), updated_at: expect.any(String) });
        expect(new Set(envelopes(path).map((e) => e.id)).size).toBe(5);

        // Bulk: N rows -> N member.created events (one rejected row raises nothing)
        const bulk = await api.post<{ created: number; results: { index: number; id?: string }[] }>(
          '/v1/members/bulk',
          {
            token: c.token,
            tenant: c.slug,
            body: {
              members: [
                ...Array.from({ length: 7 }, (_, i) => ({ first_name: `Bulk${i}`, last_name: 'Row' })),
                { first_name: 'No', last_name: 'Campus', campus: 'nowhere' },
              ],
            },
          },
        );
        expect(bulk.status).toBe(200);
        expect(bulk.body.created).toBe(7);
        const ids = bulk.body.results.filter((r: { id?: string }) => r.id).map((r: { id?: string }) => r.id);
        await receiver.waitForCount(path, 12);
        await sleep(600);
        const bulkEvents = envelopes(path).slice(5);
        expect(bulkEvents).toHaveLength(7);
        expect(new Set(bulkEvents.map((e) => e.id)).size).toBe(7);
        expect(bulkEvents.every((e) => e.type === 'member.created')).toBe(true);
        expect(bulkEvents.map((e) => e.data.object.id).sort()).toEqual([...ids].sort());
        expect(new Set(receiver.webhookIds(path)).size).toBe(12);
      });

      it('applies filters, event subscriptions and the endpoint status', async () => {
        const c = await church();
        const [all, leaders, campusOnly, disabled, twoFilters] = ['all', 'leaders', 'campus', 'disabled', 'two'].map(
          uniquePath,
        );
        await createEndpoint(c, { url: receiver.url(all), events: ['member.created', 'campus.created'] });
        await createEndpoint(c, {
          url: receiver.url(leaders),
          events: ['member.created'],
          filters: [{ path: 'data.object.status', op: 'eq', value: 'leader' }],
        });
        await createEndpoint(c, { url: receiver.url(campusOnly), events: ['campus.created'] });
        await createEndpoint(c, {
          url: receiver.url(twoFilters),
          events: ['member.created'],
          filters: [
            { path: 'data.object.status', op: 'in', value: ['leader', 'member'] },
            { path: 'data.object.first_name', op: 'ne', value: 'Luis' },
          ],
        });
        const off = await createEndpoint(c, { url: receiver.url(disabled), events: ['*'] });
        expect(
          (
            await api.patch<Endpoint>(`/v1/webhook-endpoints/${off.id}`, {
              token: c.token,
              tenant: c.slug,
              body: { status: 'disabled' },
            })
          ).body.status,
        ).toBe('disabled');

        const ids = await newMembers(api, c, [
          { first_name: 'Luis', last_name: 'A', status: 'leader' },
          { first_name: 'Marta', last_name: 'B', status: 'member' },
          { first_name: 'Nora', last_name: 'C', status: 'leader' },
          { first_name: 'Omar', last_name: 'D' },
        ]);
        const campus = await api.post<{ id: string }>('/v1/campuses', {
          token: c.token,
          tenant: c.slug,
          body: { key: 'sur', name: 'Campus Sur' },
        });
        expect(campus.status).toBe(201);

        await receiver.waitForCount(all, 5);
        await receiver.waitForCount(leaders, 2);
        await receiver.waitForCount(campusOnly, 1);
        await receiver.waitForCount(twoFilters, 2);
        await sleep(800); // more than a polling tick: anything wrongly queued would have arrived

        expect(receiver.at(all)).toHaveLength(5);
        expect(
          envelopes(leaders)
            .map((e) => e.data.object.id)
            .sort(),
        ).toEqual([ids[0], ids[2]].sort());
        expect(envelopes(leaders).every((e) => e.data.object.status === 'leader')).toBe(true);
        expect(
          envelopes(twoFilters)
            .map((e) => e.data.object.first_name)
            .sort(),
        ).toEqual(['Marta', 'Nora']);
        expect(envelopes(campusOnly).map((e) => e.type)).toEqual(['campus.created']);
        expect(envelopes(campusOnly)[0].data.object.id).toBe(campus.body.id);
        expect(receiver.at(disabled)).toEqual([]);
      });

      it('roll-secret: a new secret; deliveries then carry one v1= per live secret and verify with either', async () => {
        const c = await church();
        const path = uniquePath('roll');
        const endpoint = await createEndpoint(c, { url: receiver.url(path), events: ['member.created'] });
        const rolled = await api.post<{ secret: string; previous_secret_expires_at: string }>(
          `/v1/webhook-endpoints/${endpoint.id}/roll-secret`,
          { token: c.token, tenant: c.slug },
        );
        expect(rolled.status).toBe(200);
        expect(rolled.headers['cache-control']).toBe('no-store');
        expect(rolled.body.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
        expect(rolled.body.secret).not.toBe(endpoint.secret);
        const expires = Date.parse(rolled.body.previous_secret_expires_at);
        expect(Math.abs(expires - (Date.now() + 24 * 3_600_000))).toBeLessThan(60_000);
        expect(
          (await api.get(`/v1/webhook-endpoints/${endpoint.id}`, { token: c.token, tenant: c.slug })).body,
        ).not.toHaveProperty('secret');

        await newMember(api, c);
        const [request] = await receiver.waitForCount(path, 1);
        const header = String(request.headers['service-signature']);
        expect(header).toMatch(SIGNATURE);
        const { t, v1 } = parseSignature(header);
        expect(v1).toHaveLength(2);
        expect(v1.sort()).toEqual(
          [hmac(rolled.body.secret, t, request.rawBody), hmac(endpoint.secret, t, request.rawBody)].sort(),
        );
        expect(verifyWebhook(request.rawBody, header, [rolled.body.secret]).ok).toBe(true);
        expect(verifyWebhook(request.rawBody, header, [endpoint.secret]).ok).toBe(true);
        expect(verifyWebhook(request.rawBody, header, ['whsec_' + 'y'.repeat(32)]).ok).toBe(false);

        // A second roll: the secret of the first roll becomes the previous one; the original is gone.
        const again = await api.post<{ secret: string }>(`/v1/webhook-endpoints/${endpoint.id}/roll-secret`, {
          token: c.token,
          tenant: c.slug,
        });
        await newMember(api, c);
        const [, second] = await receiver.waitForCount(path, 2);
        const header2 = String(second.headers['service-signature']);
        expect(verifyWebhook(second.rawBody, header2, [again.body.secret]).ok).toBe(true);
        expect(verifyWebhook(second.rawBody, header2, [rolled.body.secret]).ok).toBe(true);
        expect(verifyWebhook(second.rawBody, header2, [endpoint.secret]).ok).toBe(false);
      });

      it('validate calls GET <origin>/webhooks/ping', async () => {
        const c = await church();
        const endpoint = await createEndpoint(c, {
          url: receiver.url(uniquePath('validate')),
          events: ['member.created'],
        });
        const pings = receiver.at(PING_PATH, 'GET').length;
        const ok = await api.post<{
          ok: boolean;
          url: string;
          status_code: number | null;
          duration_ms: number;
          error: string | null;
        }>(`/v1/webhook-endpoints/${endpoint.id}/validate`, {
          token: c.token,
          tenant: c.slug,
        });
        expect(ok.status).toBe(200);
        expect(ok.body).toEqual({
          ok: true,
          url: receiver.url(PING_PATH),
          status_code: 200,
          duration_ms: expect.any(Number),
          error: null,
        });
        expect(receiver.at(PING_PATH, 'GET')).toHaveLength(pings + 1);

        receiver.answer(PING_PATH, { status: 500 });
        try {
          const failed = await api.post<{ ok: boolean; status_code: number | null; error: string | null }>(
            `/v1/webhook-endpoints/${endpoint.id}/validate`,
            {
              token: c.token,
              tenant: c.slug,
            },
          );
          expect(failed.status).toBe(200);
          expect(failed.body).toMatchObject({ ok: false, status_code: 500, error: expect.stringContaining('500') });

          receiver.answer(PING_PATH, { status: 200, delayMs: 1_500 }); // longer than WEBHOOK_TIMEOUT_MS
          const slow = await api.post<{ ok: boolean; status_code: number | null; error: string | null }>(
            `/v1/webhook-endpoints/${endpoint.id}/validate`,
            { token: c.token, tenant: c.slug },
          );
          expect(slow.body).toMatchObject({ ok: false, status_code: null, error: expect.stringMatching(/timeout/i) });
        } finally {
          receiver.reset(PING_PATH);
        }
        // validate sends no webhook
        expect(receiver.at(new URL(endpoint.url).pathname)).toEqual([]);
      });
    });

    // ---------------------------------------------------------------- event log, resend, backfill, deliveries

    describe('event log', () => {
      it('lists events with type and created_at filters; GET returns the envelope as delivered', async () => {
        const c = await church();
        const path = uniquePath('log');
        await createEndpoint(c, { url: receiver.url(path), events: ['*'] });
        const campus = await api.post('/v1/campuses', {
          token: c.token,
          tenant: c.slug,
          body: { key: 'centro', name: 'Centro' },
        });
        expect(campus.status).toBe(201);
        await sleep(30);
        const middle = new Date();
        await sleep(30);
        await newMembers(api, c, [
          { first_name: 'A', last_name: 'One' },
          { first_name: 'B', last_name: 'Two' },
        ]);
        await receiver.waitForCount(path, 3);

        const all = await api.get<List<Envelope>>('/v1/webhook-events', { token: c.token, tenant: c.slug });
        expect(all.status).toBe(200);
        expect(all.body.total).toBe(3);
        expect(all.body.data.map((e: Envelope) => e.type)).toEqual([
          'member.created',
          'member.created',
          'campus.created',
        ]); // newest first

        const members = await api.get<List<Envelope>>('/v1/webhook-events?type=member.created', {
          token: c.token,
          tenant: c.slug,
        });
        expect(members.body.data.map((e: Envelope) => e.type)).toEqual(['member.created', 'member.created']);
        const campuses = await api.get<List<Envelope>>('/v1/webhook-events?type[in]=campus.created,donation.created', {
          token: c.token,
          tenant: c.slug,
        });
        expect(campuses.body.data.map((e: Envelope) => e.type)).toEqual(['campus.created']);

        const after = await api.get<List<Envelope>>(`/v1/webhook-events?created_at[gte]=${middle.toISOString()}`, {
          token: c.token,
          tenant: c.slug,
        });
        expect(after.body.data.map((e: Envelope) => e.type)).toEqual(['member.created', 'member.created']);
        const beforeMiddle = await api.get<List<Envelope>>(
          `/v1/webhook-events?created_at[lt]=${middle.toISOString()}`,
          { token: c.token, tenant: c.slug },
        );
        expect(beforeMiddle.body.data.map((e: Envelope) => e.type)).toEqual(['campus.created']);
        const range = await api.get<List<Envelope>>(
          `/v1/webhook-events?type=campus.created&created_at[gte]=${middle.toISOString()}`,
          { token: c.token, tenant: c.slug },
        );
        expect(range.body.data).toEqual([]);
        expect(
          (await api.get<Problem>('/v1/webhook-events?type=member.exploded', { token: c.token, tenant: c.slug }))
            .status,
        ).toBe(400);
        expect(
          (await api.get<Problem>('/v1/webhook-events?colour=red', { token: c.token, tenant: c.slug })).status,
        ).toBe(400);

        // The log holds exactly what was delivered
        for (const request of receiver.at(path)) {
          const delivered = request.body as Envelope;
          const one = await api.get<Envelope>(`/v1/webhook-events/${delivered.id}`, { token: c.token, tenant: c.slug });
          expect(one.status).toBe(200);
          expect(one.body).toEqual(delivered);
          expect(JSON.stringify(one.body)).toBe(request.rawBody);
        }
        expect(all.body.data.map((e: Envelope) => e.id).sort()).toEqual(receiver.webhookIds(path).sort());

        // Another church sees none of it
        const other = await church();
        expect(
          (await api.get<List<Envelope>>('/v1/webhook-events', { token: other.token, tenant: other.slug })).body.data,
        ).toEqual([]);
        expect(
          (
            await api.get<Problem>(`/v1/webhook-events/${all.body.data[0].id}`, {
              token: other.token,
              tenant: other.slug,
            })
          ).status,
        ).toBe(404);
        expect((await api.get<Problem>('/v1/webhook-events/evt_0123', { token: c.token, tenant: c.slug })).status).toBe(
          404,
        );
      });

      it('resend delivers the same event id again (202 whd_)', async () => {
        const c = await church();
        const path = uniquePath('resend');
        const endpoint = await createEndpoint(c, { url: receiver.url(path), events: ['member.created'] });
        await newMember(api, c);
        const [first] = await receiver.waitForCount(path, 1);
        const eventId = (first.body as Envelope).id;

        const res = await api.post<{ delivery_id: string }>(`/v1/webhook-events/${eventId}/resend`, {
          token: c.token,
          tenant: c.slug,
          body: { endpoint_id: endpoint.id },
        });
        expect(res.status).toBe(202);
        expect(res.body).toEqual({ delivery_id: expect.stringMatching(/^whd_[0-9a-f]{32}$/) });
        const [, again] = await receiver.waitForCount(path, 2);
        expect(again.headers['service-webhook-id']).toBe(eventId);
        expect(again.body).toEqual(first.body);
        expect(verifyWebhook(again.rawBody, String(again.headers['service-signature']), [endpoint.secret]).ok).toBe(
          true,
        );

        const list = await waitForAttempts(c, endpoint.id, 2);
        expect(list.map((a) => a.delivery_id)).toContain(res.body.delivery_id);
        expect(list.every((a) => a.event_id === eventId && a.succeeded && a.attempt === 1)).toBe(true);

        // Also to an endpoint that is not subscribed to the type
        const otherPath = uniquePath('resend-other');
        const other = await createEndpoint(c, { url: receiver.url(otherPath), events: ['campus.created'] });
        expect(
          (
            await api.post(`/v1/webhook-events/${eventId}/resend`, {
              token: c.token,
              tenant: c.slug,
              body: { endpoint_id: other.id },
            })
          ).status,
        ).toBe(202);
        const [elsewhere] = await receiver.waitForCount(otherPath, 1);
        expect(elsewhere.headers['service-webhook-id']).toBe(eventId);

        const missingEvent = await api.post<Problem>(`/v1/webhook-events/evt_${'0'.repeat(32)}/resend`, {
          token: c.token,
          tenant: c.slug,
          body: { endpoint_id: endpoint.id },
        });
        expect(missingEvent.status).toBe(404);
        const missingEndpoint = await api.post<Problem>(`/v1/webhook-events/${eventId}/resend`, {
          token: c.token,
          tenant: c.slug,
          body: { endpoint_id: `whe_${'0'.repeat(32)}` },
        });
        expect(missingEndpoint.status).toBe(404);
        const noBody = await api.post<Problem>(`/v1/webhook-events/${eventId}/resend`, {
          token: c.token,
          tenant: c.slug,
          body: {},
        });
        expect(noBody.status).toBe(422);
      });

      it('backfill delivers every event of one type in [from, to) to one endpoint (202 {enqueued})', async () => {
        const c = await church();
        const from = new Date(Date.now() - 1000);
        const earlyIds = await newMembers(
          api,
          c,
          Array.from({ length: 4 }, (_, i) => ({ first_name: `Early${i}`, last_name: 'Member' })),
        );
        await newCampus(api, c, { key: 'este', name: 'Este' });
        await sleep(30);
        const to = new Date();
        await sleep(30);
        await newMember(api, c, { first_name: 'Late' }); // after `to`

        const path = uniquePath('backfill');
        const endpoint = await createEndpoint(c, { url: receiver.url(path), events: ['member.created'] });
        await sleep(600);
        expect(receiver.at(path)).toEqual([]); // subscribing does not replay the past

        const res = await api.post<{ enqueued: number }>(`/v1/webhook-endpoints/${endpoint.id}/backfill`, {
          token: c.token,
          tenant: c.slug,
          body: { type: 'member.created', from: from.toISOString(), to: to.toISOString() },
        });
        expect(res.status).toBe(202);
        expect(res.body).toEqual({ enqueued: 4 });
        await receiver.waitForCount(path, 4);
        await sleep(600);
        expect(receiver.at(path)).toHaveLength(4);
        expect(
          envelopes(path)
            .map((e) => e.data.object.id)
            .sort(),
        ).toEqual([...earlyIds].sort());
        expect(new Set(receiver.webhookIds(path)).size).toBe(4);
        const logged = await api.get<List<Envelope>>(
          `/v1/webhook-events?type=member.created&created_at[lt]=${to.toISOString()}`,
          { token: c.token, tenant: c.slug },
        );
        expect(logged.body.data.map((e: Envelope) => e.id).sort()).toEqual(receiver.webhookIds(path).sort());

        const empty = await api.post<{ enqueued: number }>(`/v1/webhook-endpoints/${endpoint.id}/backfill`, {
          token: c.token,
          tenant: c.slug,
          body: { type: 'donation.created', from: from.toISOString(), to: to.toISOString() },
        });
        expect(empty.body).toEqual({ enqueued: 0 });
        const backwards = await api.post<Problem>(`/v1/webhook-endpoints/${endpoint.id}/backfill`, {
          token: c.token,
          tenant: c.slug,
          body: { type: 'member.created', from: to.toISOString(), to: from.toISOString() },
        });
        expect(backwards.status).toBe(422);
        const badType = await api.post<Problem>(`/v1/webhook-endpoints/${endpoint.id}/backfill`, {
          token: c.token,
          tenant: c.slug,
          body: { type: 'member.exploded', from: from.toISOString(), to: to.toISOString() },
        });
        expect(badType.status).toBe(422);
      });

      it('deliveries lists every attempt: status code, duration, error, succeeded, attempt number', async () => {
        const c = await church();
        const path = uniquePath('attempts');
        receiver.answer(path, (_req, i) => (i === 0 ? { status: 503 } : { status: 204 }));
        const endpoint = await createEndpoint(c, { url: receiver.url(path), events: ['member.created'] });
        await newMember(api, c);
        await receiver.waitForCount(path, 2);
        const list = await waitForAttempts(c, endpoint.id, 2);
        const eventId = receiver.webhookIds(path)[0];
        expect(receiver.webhookIds(path)).toEqual([eventId, eventId]);
        expect(list).toEqual([
          {
            delivery_id: list[1].delivery_id,
            event_id: eventId,
            attempt: 2,
            status_code: 204,
            duration_ms: expect.any(Number),
            error: null,
            succeeded: true,
            created_at: expect.any(String),
          },
          {
            delivery_id: expect.stringMatching(/^whd_/),
            event_id: eventId,
            attempt: 1,
            status_code: 503,
            duration_ms: expect.any(Number),
            error: 'HTTP 503',
            succeeded: false,
            created_at: expect.any(String),
          },
        ]);
        for (const a of list) expect(a.duration_ms).toBeGreaterThanOrEqual(0);
        const ok = await api.get<List<Attempt>>(`/v1/webhook-endpoints/${endpoint.id}/deliveries?succeeded=true`, {
          token: c.token,
          tenant: c.slug,
        });
        expect(ok.body.data.map((a: Attempt) => a.attempt)).toEqual([2]);
        const failed = await api.get<List<Attempt>>(`/v1/webhook-endpoints/${endpoint.id}/deliveries?succeeded=false`, {
          token: c.token,
          tenant: c.slug,
        });
        expect(failed.body.data.map((a: Attempt) => a.attempt)).toEqual([1]);
        expect(
          (
            await api.get<Problem>(`/v1/webhook-endpoints/whe_${'0'.repeat(32)}/deliveries`, {
              token: c.token,
              tenant: c.slug,
            })
          ).status,
        ).toBe(404);
      });
    });
  });
});
