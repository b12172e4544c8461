import Stripe from 'stripe';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import { JsonObject, TestApi } from '../support/api';
import { cancelPendingDeliveries, newFund, newMember, newTenant, newToken, TestTenant } from '../support/factories';
import { Delivery, FakeEvent, FakeStripe } from '../support/fake-stripe';
import { waitFor } from '../support/wait';
import { listenOnLoopback } from '../support/fake-http-server';
import { freePort } from '../support/processes';
import { as } from '../support/http';
import type { PaymentProcessorResponse as Settings } from '../../src/modules/payments/dto/payment-processor.response';
import type { ProcessorEventAck as Ack } from '../../src/modules/payments/dto/processor-event-ack.response';
import type { DonationResponse as Donation } from '../../src/modules/donations/dto/donation.response';
import { outboxObjects } from '../support/outbox';

// ---------------------------------------------------------------------------------------------
// Types and helpers
// ---------------------------------------------------------------------------------------------

interface ProcessorEventRow {
  event_id: string;
  type: string;
  outcome: string;
  detail: string | null;
}

const SETTINGS = '/v1/settings/payment-processor';
const PROCESSOR_EVENTS = [
  'payment_intent.succeeded',
  'charge.refunded',
  'charge.dispute.created',
  'invoice.payment_failed',
];
const UTC_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('payment processor', () => {
  let api: TestApi;
  let fake: FakeStripe;
  let publicUrl: string;
  const churches: TestTenant[] = [];

  beforeAll(async () => {
    fake = await FakeStripe.start();
    const port = await freePort(); // for the API's PUBLIC_URL (the fake posts events there)
    publicUrl = `http://127.0.0.1:${port}`;
    api = await TestApi.start({ PAYMENTS_API_URL: fake.url, PUBLIC_URL: publicUrl });
    await listenOnLoopback(api.app.getHttpServer(), port);
  });

  afterAll(async () => {
    await cancelPendingDeliveries(
      api,
      churches.map((c) => c.id),
    );
    await api.close();
    await fake.close();
  });

  async function church(): Promise<TestTenant> {
    const made = await newTenant(api);
    churches.push(made);
    return made;
  }

  async function connect(target: TestTenant, key = fake.newKey()): Promise<string> {
    const res = await api.put<Settings>(SETTINGS, as(target, { body: { provider: 'stripe', api_key: key } }));
    if (res.status !== 200) throw new Error(`connect failed: ${res.status} ${JSON.stringify(res.body)}`);
    return key;
  }

  /** The church's donations with this processor id, through the API (found by id in the database). */
  async function donationsOf(target: TestTenant, processorId: string): Promise<Donation[]> {
    const rows: { id: string }[] = await api.db.platform.query(
      `SELECT 'don_' || replace(id::text, '-', '') AS id FROM donations WHERE tenant_id = $1 AND processor_id = $2`,
      [target.id, processorId],
    );
    const donations: Donation[] = [];
    for (const row of rows) {
      const res = await api.get<Donation>(`/v1/donations/${row.id}`, as(target));
      expect(res.status).toBe(200);
      donations.push(res.body);
    }
    return donations;
  }

  async function processorEvents(target: TestTenant, eventId?: string): Promise<ProcessorEventRow[]> {
    return api.db.platform.query(
      `SELECT event_id, type, outcome, detail FROM processor_events WHERE tenant_id = $1 ${eventId ? 'AND event_id = $2' : ''} ORDER BY received_at, id`,
      eventId ? [target.id, eventId] : [target.id],
    );
  }

  /** The `data.object` of every outbox event of `type` in the church whose object has this id. */
  async function outbox<T = JsonObject>(target: TestTenant, type: string, objectId: string): Promise<T[]> {
    return outboxObjects<T>(api, target, type, objectId);
  }

  /** Sends through the fake to the church's endpoint(s) and checks each answer against the OpenAPI description. */
  async function send(
    key: string,
    event: FakeEvent,
    options: Parameters<FakeStripe['send']>[1] = {},
  ): Promise<Delivery> {
    const deliveries = await fake.send(event, { apiKey: key, ...options });
    expect(deliveries).toHaveLength(1);
    const [delivery] = deliveries;
    const path = new URL(delivery.url).pathname;
    const type = delivery.status === 200 ? 'application/json' : 'application/problem+json';
    expect(api.openapi.check('POST', path, delivery.status, type, delivery.body)).toEqual([]);
    return delivery;
  }

  // -------------------------------------------------------------------------------------------
  describe('PUT / GET / DELETE /v1/settings/payment-processor', () => {
    it('shows nothing connected before a PUT', async () => {
      const target = await church();
      const res = await api.get<Settings>(SETTINGS, as(target));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ provider: null, connected_at: null, account_last4: null, webhook_url: null });
    });

    it('connects: creates the endpoint at the processor with the church URL and the four events, keeps key and secret sealed, never shows them', async () => {
      const target = await church();
      const key = fake.newKey();
      const res = await api.put<Settings>(SETTINGS, as(target, { body: { provider: 'stripe', api_key: key } }));

      expect(res.status).toBe(200);
      const url = `${publicUrl}/v1/webhooks/payments/${target.slug}`;
      expect(res.body).toEqual({
        provider: 'stripe',
        connected_at: expect.stringMatching(UTC_ISO),
        account_last4: key.slice(-4),
        webhook_url: url,
      });

      // At the processor: one endpoint of this account, made through the official client (form-encoded, Bearer key).
      const endpoints = fake.endpointsOf(key);
      expect(endpoints).toHaveLength(1);
      expect(endpoints[0]).toMatchObject({
        url,
        enabled_events: PROCESSOR_EVENTS,
        metadata: { tenant: target.slug },
        status: 'enabled',
      });
      const call = fake.requests.find(
        (r) => r.method === 'POST' && r.path === '/v1/webhook_endpoints' && r.headers.authorization === `Bearer ${key}`,
      );
      expect(call?.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
      expect(call?.headers['user-agent']).toMatch(/^Stripe\/v1 NodeBindings\//);

      // Stored sealed: neither the key nor the whsec_ secret is in the row in clear.
      const rows: { row: string; key_sealed: Buffer; secret_sealed: Buffer }[] = await api.db.platform.query(
        `SELECT row_to_json(p)::text AS row, api_key_sealed AS key_sealed, webhook_secret_sealed AS secret_sealed FROM payment_processors p WHERE tenant_id = $1`,
        [target.id],
      );
      expect(rows).toHaveLength(1);
      for (const secret of [key, endpoints[0].secret]) {
        expect(rows[0].row).not.toContain(secret);
        expect(rows[0].key_sealed.includes(Buffer.from(secret))).toBe(false);
        expect(rows[0].secret_sealed.includes(Buffer.from(secret))).toBe(false);
      }

      const shown = await api.get<Settings>(SETTINGS, as(target));
      expect(shown.status).toBe(200);
      expect(shown.body).toEqual(res.body);
      for (const text of [JSON.stringify(res.body), JSON.stringify(shown.body)]) {
        expect(text).not.toContain(key);
        expect(text).not.toContain('whsec_');
      }
    });

    it('refuses a body that is not a Stripe key or provider (422 naming the fields), without calling the processor', async () => {
      const target = await church();
      const before = fake.requests.length;
      const res = await api.put<Problem>(
        SETTINGS,
        as(target, { body: { provider: 'paypal', api_key: 'pk_test_publishable123456' } }),
      );
      expect(res.status).toBe(422);
      expect((res.body.errors ?? []).map((e) => [e.field, e.issue]).sort()).toEqual([
        ['api_key', 'invalid_format'],
        ['provider', 'one_of'],
      ]);
      const missing = await api.put<Problem>(SETTINGS, as(target, { body: {} }));
      expect(missing.status).toBe(422);
      expect((missing.body.errors ?? []).map((e) => e.field).sort()).toEqual(['api_key', 'provider']);
      expect(fake.requests.length).toBe(before);
    });

    it('a key the processor refuses is 422 on api_key (issue rejected) and changes nothing', async () => {
      const target = await church();
      const good = await connect(target);
      const res = await api.put<Problem>(
        SETTINGS,
        as(target, { body: { provider: 'stripe', api_key: 'sk_test_notaccepted00000000' } }),
      );
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors).toEqual([expect.objectContaining({ field: 'api_key', issue: 'rejected' })]);
      expect(JSON.stringify(res.body)).not.toContain('sk_test_notaccepted');
      expect((await api.get<Settings>(SETTINGS, as(target))).body.account_last4).toBe(good.slice(-4));
      expect(fake.endpointsOf(good)).toHaveLength(1);
    });

    it('a processor that fails or cannot be reached is 502 processor_unavailable and changes nothing', async () => {
      const target = await church();
      const key = fake.newKey();
      fake.failWith(503);
      try {
        const res = await api.put<Problem>(SETTINGS, as(target, { body: { provider: 'stripe', api_key: key } }));
        expect(res.status).toBe(502);
        expect(res.body.code).toBe('processor_unavailable');
      } finally {
        fake.failWith(null);
      }
      expect((await api.get<Settings>(SETTINGS, as(target))).body.provider).toBeNull();
      expect(fake.endpointsOf(key)).toHaveLength(0);
    });

    it('reconnecting with a new key makes a new endpoint, deletes the old one at the processor, and the old secret stops verifying', async () => {
      const target = await church();
      const first = await connect(target);
      const [oldEndpoint] = fake.endpointsOf(first);
      const second = await connect(target);

      expect((await api.get<Settings>(SETTINGS, as(target))).body.account_last4).toBe(second.slice(-4));
      expect(fake.endpointsOf(second)).toHaveLength(1);
      await waitFor(() => fake.endpointsOf(first).length === 0, {
        what: 'the old endpoint to be deleted',
        interval: 25,
      });
      // An event the processor signed with the old endpoint's secret is now refused.
      fake.endpoints.set(oldEndpoint.id, oldEndpoint);
      const [stale] = await fake.send(fake.event('customer.created', { id: 'cus_1' }), { endpointId: oldEndpoint.id });
      fake.endpoints.delete(oldEndpoint.id);
      expect(stale.status).toBe(400);
      expect(stale.body).toMatchObject({ code: 'invalid_signature' });
    });

    it('two PUTs at once both answer 200 and leave one connection and one endpoint at the processor', async () => {
      const target = await church();
      const keys = [fake.newKey(), fake.newKey()];
      const answers = await Promise.all(
        keys.map((api_key) => api.put<Settings>(SETTINGS, as(target, { body: { provider: 'stripe', api_key } }))),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200]);

      const rows: { endpoint_id: string }[] = await api.db.platform.query(
        'SELECT endpoint_id FROM payment_processors WHERE tenant_id = $1',
        [target.id],
      );
      expect(rows).toHaveLength(1);
      await waitFor(() => keys.flatMap((k) => fake.endpointsOf(k)).length === 1, {
        what: 'one endpoint left at the processor',
        interval: 25,
      });
      expect(keys.flatMap((k) => fake.endpointsOf(k))[0].id).toBe(rows[0].endpoint_id);
    });

    it('DELETE disconnects: the endpoint is deleted at the processor, GET shows nothing, events are then 404; DELETE again is 404', async () => {
      const target = await church();
      const key = await connect(target);
      const [endpoint] = fake.endpointsOf(key);

      const res = await api.delete(SETTINGS, as(target));
      expect(res.status).toBe(204);
      expect(fake.endpointsOf(key)).toHaveLength(0);
      expect(
        fake.requests.some((r) => r.method === 'DELETE' && r.path === `/v1/webhook_endpoints/${endpoint.id}`),
      ).toBe(true);
      expect((await api.get<Settings>(SETTINGS, as(target))).body).toEqual({
        provider: null,
        connected_at: null,
        account_last4: null,
        webhook_url: null,
      });
      expect(await api.db.platform.query('SELECT 1 FROM payment_processors WHERE tenant_id = $1', [target.id])).toEqual(
        [],
      );

      fake.endpoints.set(endpoint.id, endpoint);
      const [late] = await fake.send(fake.event('customer.created', { id: 'cus_1' }), { endpointId: endpoint.id });
      fake.endpoints.delete(endpoint.id);
      expect(late.status).toBe(404);

      const again = await api.delete<Problem>(SETTINGS, as(target));
      expect(again.status).toBe(404);
      expect(again.body.code).toBe('resource_not_found');
    });

    it('DELETE still disconnects when the processor no longer has the endpoint; a processor that cannot be reached is 502 and keeps the connection', async () => {
      const target = await church();
      const key = await connect(target);
      fake.failWith(500);
      try {
        const failed = await api.delete<Problem>(SETTINGS, as(target));
        expect(failed.status).toBe(502);
        expect(failed.body.code).toBe('processor_unavailable');
      } finally {
        fake.failWith(null);
      }
      expect((await api.get<Settings>(SETTINGS, as(target))).body.provider).toBe('stripe');

      fake.endpoints.delete(fake.endpointsOf(key)[0].id); // removed in the processor's dashboard
      expect((await api.delete(SETTINGS, as(target))).status).toBe(204);
      expect((await api.get<Settings>(SETTINGS, as(target))).body.provider).toBeNull();
    });

    it('needs admin:* (a finance token with the donations scopes is 403), and one church never sees another church’s connection', async () => {
      const target = await church();
      await connect(target);
      const finance = await newToken(api, target, ['read:donations', 'write:donations'], 'finance');
      for (const [method, body] of [
        ['GET', undefined],
        ['PUT', { provider: 'stripe', api_key: fake.newKey() }],
        ['DELETE', undefined],
      ] as const) {
        const res = await api.send<Problem>(method, SETTINGS, { token: finance.token, tenant: target.slug, body });
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('scope_insufficient');
      }
      const other = await church();
      expect((await api.get<Settings>(SETTINGS, as(other))).body.provider).toBeNull();
      expect((await api.delete(SETTINGS, as(other))).status).toBe(404);
      expect((await api.get<Settings>(SETTINGS, as(target))).body.provider).toBe('stripe');
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('POST /v1/webhooks/payments/{tenant}', () => {
    let target: TestTenant;
    let key: string;
    let fundId: string;
    let donorId: string;

    beforeAll(async () => {
      target = await church();
      key = await connect(target);
      fundId = (await newFund(api, target, { name: 'Tithes' })).id;
      donorId = (await newMember(api, target, { first_name: 'Lucía', last_name: 'Ramírez' })).id;
    });

    const intent = (
      amount: number,
      extra: { currency?: string; method?: string; metadata?: Record<string, string> } = {},
    ) =>
      fake.paymentIntent({
        amount,
        currency: extra.currency ?? 'usd',
        method: extra.method,
        metadata: extra.metadata ?? { fund_id: fundId, donor_id: donorId },
      });

    /** A donation made through a payment_intent.succeeded event. */
    async function paid(amount: number): Promise<Donation> {
      const pi = intent(amount);
      const delivery = await send(key, fake.event('payment_intent.succeeded', pi));
      expect(delivery.body).toMatchObject({ outcome: 'processed' });
      const [donation] = await donationsOf(target, pi.id as string);
      return donation;
    }

    it('payment_intent.succeeded makes a succeeded donation (amount, currency, fund, donor, card, processor_id) and raises donation.created', async () => {
      const pi = intent(2500);
      const event = fake.event('payment_intent.succeeded', pi);
      const delivery = await send(key, event);

      expect(delivery.status).toBe(200);
      const donations = await donationsOf(target, pi.id as string);
      expect(donations).toHaveLength(1);
      expect(delivery.body).toEqual({
        received: true,
        event_id: event.id,
        outcome: 'processed',
        detail: donations[0].id,
      });
      expect(donations[0]).toMatchObject({
        amount: 2500,
        currency: 'USD',
        fund: { id: fundId, name: 'Tithes' },
        donor: { id: donorId, first_name: 'Lucía' },
        method: 'card',
        status: 'succeeded',
        processor_id: pi.id,
        refunded_amount: 0,
        received_at: new Date(event.created * 1000).toISOString(),
      });
      expect(await outbox(target, 'donation.created', donations[0].id)).toEqual([donations[0]]);
      expect(await processorEvents(target, event.id)).toEqual([
        { event_id: event.id, type: 'payment_intent.succeeded', outcome: 'processed', detail: donations[0].id },
      ]);
    });

    it('a bank debit is method ach; a payment without metadata.donor_id is anonymous', async () => {
      const pi = intent(10_000, { method: 'us_bank_account', metadata: { fund_id: fundId } });
      await send(key, fake.event('payment_intent.succeeded', pi));
      const [donation] = await donationsOf(target, pi.id as string);
      expect(donation).toMatchObject({ method: 'ach', donor: null, amount: 10_000 });
    });

    it('the same event replayed is a 200 duplicate that changes nothing: one donation, one donation.created', async () => {
      const pi = intent(3000);
      const event = fake.event('payment_intent.succeeded', pi);
      const first = await send(key, event);
      const again = await send(key, event);

      expect(first.body).toMatchObject({ outcome: 'processed' });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ received: true, event_id: event.id, outcome: 'duplicate' });
      const donations = await donationsOf(target, pi.id as string);
      expect(donations).toHaveLength(1);
      expect(await outbox(target, 'donation.created', donations[0].id)).toHaveLength(1);
      expect(await processorEvents(target, event.id)).toHaveLength(1);
    });

    it('twenty identical events at once make one donation: one processed, nineteen duplicates', async () => {
      const pi = intent(4200);
      const event = fake.event('payment_intent.succeeded', pi);
      const deliveries = (await Promise.all(Array.from({ length: 20 }, () => send(key, event)))).map(
        (d) => d.body as Ack,
      );

      expect(deliveries.filter((d) => d.outcome === 'processed')).toHaveLength(1);
      expect(deliveries.filter((d) => d.outcome === 'duplicate')).toHaveLength(19);
      const donations = await donationsOf(target, pi.id as string);
      expect(donations).toHaveLength(1);
      expect(await outbox(target, 'donation.created', donations[0].id)).toHaveLength(1);
    });

    it('a bad signature is 400 invalid_signature and writes nothing', async () => {
      const pi = intent(5100);
      const event = fake.event('payment_intent.succeeded', pi);
      const forged = await send(key, event, { secret: 'whsec_not_the_endpoints_secret' });
      expect(forged.status).toBe(400);
      expect(forged.body).toMatchObject({ code: 'invalid_signature', status: 400 });

      // The body changed after signing (amount raised): the signature no longer matches.
      const [endpoint] = fake.endpointsOf(key);
      const payload = JSON.stringify(event);
      const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: endpoint.secret });
      const tampered = payload.replace('"amount":5100', '"amount":510000');
      expect(tampered).not.toBe(payload);
      const path = `/v1/webhooks/payments/${target.slug}`;
      const res = await api.post<Problem>(path, {
        headers: { 'Stripe-Signature': header },
        body: tampered,
        raw: { contentType: 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_signature');
      expect(await processorEvents(target)).not.toContainEqual(expect.objectContaining({ event_id: event.id }));
      expect(await donationsOf(target, pi.id as string)).toEqual([]);

      // The same header with the bytes it was made for is taken (control).
      const genuine = await api.post<Ack>(path, {
        headers: { 'Stripe-Signature': header },
        body: payload,
        raw: { contentType: 'application/json' },
      });
      expect(genuine.status).toBe(200);
      expect((await donationsOf(target, pi.id as string)).map((d) => d.amount)).toEqual([5100]);
    });

    it('a signature whose timestamp is more than 300 s old (or ahead) is 400 and writes nothing', async () => {
      const now = Math.floor(Date.now() / 1000);
      for (const timestamp of [now - 301, now - 3600, now + 400]) {
        const pi = intent(6100);
        const event = fake.event('payment_intent.succeeded', pi);
        const res = await send(key, event, { timestamp });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 'invalid_signature' });
        expect(await processorEvents(target, event.id)).toEqual([]);
        expect(await donationsOf(target, pi.id as string)).toEqual([]);
      }
      // Within the tolerance it is taken.
      const pi = intent(6200);
      expect((await send(key, fake.event('payment_intent.succeeded', pi), { timestamp: now - 200 })).status).toBe(200);
    });

    it('no Stripe-Signature header, an empty body or a garbled header: 400 invalid_signature', async () => {
      const path = `/v1/webhooks/payments/${target.slug}`;
      const body = JSON.stringify(fake.event('payment_intent.succeeded', intent(100)));
      const headerSets: Record<string, string>[] = [
        {},
        { 'Stripe-Signature': 'garbage' },
        { 'Stripe-Signature': 't=abc,v1=' },
        { 'Stripe-Signature': 'v1=' + 'a'.repeat(64) },
      ];
      for (const headers of headerSets) {
        const res = await api.post<Problem>(path, { headers, body, raw: { contentType: 'application/json' } });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('invalid_signature');
      }
      const empty = await api.post<Problem>(path, { headers: { 'Stripe-Signature': 't=1,v1=abc' } });
      expect(empty.status).toBe(400);
      expect(empty.body.code).toBe('invalid_signature');
    });

    it('an unknown church, or one without a processor, is 404', async () => {
      const body = JSON.stringify(fake.event('payment_intent.succeeded', intent(100)));
      const unconnected = await church();
      for (const slug of ['no-such-church-x1', unconnected.slug, 'UPPER', '%00']) {
        const res = await api.post<Problem>(`/v1/webhooks/payments/${slug}`, {
          headers: { 'Stripe-Signature': 't=1,v1=abc' },
          body,
          raw: { contentType: 'application/json' },
        });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('resource_not_found');
      }
    });

    it("an event signed for another church is refused at this church's URL", async () => {
      const other = await church();
      const otherKey = await connect(other);
      const [otherEndpoint] = fake.endpointsOf(otherKey);
      const event = fake.event('payment_intent.succeeded', intent(700));
      const [endpoint] = fake.endpointsOf(key);
      // Signed with the other church's secret, posted to this church's URL.
      const res = await fake.send(event, { endpointId: endpoint.id, secret: otherEndpoint.secret });
      expect(res[0].status).toBe(400);
    });

    it('a recurring gift charge makes its donation with recurring_gift_id', async () => {
      const gift = await api.post<{ id: string }>(
        '/v1/recurring-gifts',
        as(target, {
          body: {
            donor_id: donorId,
            amount: 5000,
            currency: 'USD',
            fund_id: fundId,
            interval: 'month',
            start_on: '2026-01-01',
          },
        }),
      );
      expect(gift.status).toBe(201);
      const pi = intent(5000, { metadata: { fund_id: fundId, donor_id: donorId, recurring_gift_id: gift.body.id } });
      await send(key, fake.event('payment_intent.succeeded', pi));
      const [donation] = await donationsOf(target, pi.id as string);
      expect(donation).toMatchObject({ recurring_gift_id: gift.body.id, amount: 5000, status: 'succeeded' });
    });

    it('a payment without metadata.fund_id is ignored (200), one naming an unknown fund or currency is rejected (200), both recorded, no donation', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [intent(900, { metadata: {} }), 'ignored'],
        [intent(900, { metadata: { fund_id: `fnd_${'0'.repeat(32)}` } }), 'rejected'],
        [intent(900, { currency: 'xyz' }), 'rejected'],
      ];
      for (const [pi, outcome] of cases) {
        const event = fake.event('payment_intent.succeeded', pi);
        const res = await send(key, event);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ outcome });
        expect(await processorEvents(target, event.id)).toEqual([
          expect.objectContaining({ outcome, detail: expect.any(String) }),
        ]);
        expect(await donationsOf(target, pi.id as string)).toEqual([]);
      }
    });

    it('charge.refunded refunds the donation up to the charge’s amount_refunded (partial, then full) and raises donation.refunded; a replay changes nothing', async () => {
      const donation = await paid(10_000);
      const partial = fake.event(
        'charge.refunded',
        fake.refundedCharge({ intentId: donation.processor_id, amount: 10_000, refunded: 2500, currency: 'usd' }),
      );
      expect((await send(key, partial)).body).toMatchObject({ outcome: 'processed', detail: donation.id });
      expect((await donationsOf(target, donation.processor_id!))[0]).toMatchObject({
        status: 'partially_refunded',
        refunded_amount: 2500,
      });

      // The later refund, as newer API versions send it: no refunds list, only the running total.
      const charge = fake.refundedCharge({
        intentId: donation.processor_id,
        amount: 10_000,
        refunded: 10_000,
        currency: 'usd',
      });
      delete charge.refunds;
      const full = fake.event('charge.refunded', charge);
      expect((await send(key, full)).body).toMatchObject({ outcome: 'processed' });
      expect(await send(key, full).then((d) => d.body)).toMatchObject({ outcome: 'duplicate' });

      const [after] = await donationsOf(target, donation.processor_id!);
      expect(after).toMatchObject({ status: 'refunded', refunded_amount: 10_000 });
      const refunded = await outbox<{ refund: { amount: number; processor_refund_id: string | null } }>(
        target,
        'donation.refunded',
        donation.id,
      );
      expect(refunded.map((e) => e.refund.amount)).toEqual([2500, 7500]);
      expect(refunded[0].refund.processor_refund_id).toMatch(/^re_/);
    });

    it('refund events of one payment at once, or out of order, end at the charge’s total (never more)', async () => {
      const donation = await paid(8000);
      const totals = [3000, 5000];
      const events = totals.map((refunded) =>
        fake.event(
          'charge.refunded',
          fake.refundedCharge({
            intentId: donation.processor_id,
            amount: 8000,
            refunded,
            currency: 'usd',
            refundAmount: 2000,
          }),
        ),
      );
      await Promise.all(events.reverse().map((e) => send(key, e)));
      const [after] = await donationsOf(target, donation.processor_id!);
      expect(after).toMatchObject({ status: 'partially_refunded', refunded_amount: 5000 });
      const sum = (await outbox<{ refund: { amount: number } }>(target, 'donation.refunded', donation.id)).reduce(
        (s, e) => s + e.refund.amount,
        0,
      );
      expect(sum).toBe(5000);
    });

    it('charge.dispute.created makes the donation disputed with the dispute, and raises donation.disputed', async () => {
      const donation = await paid(2000);
      const event = fake.event(
        'charge.dispute.created',
        fake.dispute({
          intentId: donation.processor_id,
          amount: 2000,
          currency: 'usd',
          reason: 'fraudulent',
          status: 'needs_response',
        }),
      );
      expect((await send(key, event)).body).toMatchObject({ outcome: 'processed', detail: donation.id });

      const [after] = await donationsOf(target, donation.processor_id!);
      expect(after).toMatchObject({
        status: 'disputed',
        dispute: { reason: 'fraudulent', status: 'needs_response', amount: 2000 },
      });
      expect(await outbox(target, 'donation.disputed', donation.id)).toEqual([after]);
    });

    it('a refund or dispute of an intent the church does not have is acknowledged (200 unmatched) and recorded, not a 500', async () => {
      for (const event of [
        fake.event(
          'charge.refunded',
          fake.refundedCharge({ intentId: 'pi_unknown000000', amount: 1000, refunded: 1000, currency: 'usd' }),
        ),
        fake.event(
          'charge.dispute.created',
          fake.dispute({ intentId: 'pi_unknown000000', amount: 1000, currency: 'usd' }),
        ),
        fake.event(
          'charge.refunded',
          fake.refundedCharge({ intentId: null, amount: 1000, refunded: 1000, currency: 'usd' }),
        ),
      ]) {
        const res = await send(key, event);
        expect(res.status).toBe(200);
        expect(['unmatched', 'rejected']).toContain((res.body as Ack).outcome);
        expect(await processorEvents(target, event.id)).toEqual([
          expect.objectContaining({ type: event.type, outcome: (res.body as Ack).outcome }),
        ]);
      }
    });

    it('invoice.payment_failed of a recurring gift raises recurring.charge_failed with the failure; of an unknown gift it is unmatched', async () => {
      const gift = await api.post<{ id: string }>(
        '/v1/recurring-gifts',
        as(target, {
          body: {
            donor_id: donorId,
            amount: 3000,
            currency: 'USD',
            fund_id: fundId,
            interval: 'week',
            start_on: '2026-01-01',
          },
        }),
      );
      expect(gift.status).toBe(201);
      const invoice = fake.failedInvoice({
        recurringGiftId: gift.body.id,
        amount: 3000,
        currency: 'usd',
        reason: 'Your card was declined.',
      });
      const res = await send(key, fake.event('invoice.payment_failed', invoice));
      expect(res.body).toMatchObject({ outcome: 'processed', detail: gift.body.id });

      const failed = await outbox<{ id: string; failure: { reason: string; invoice_id: string; at: string } }>(
        target,
        'recurring.charge_failed',
        gift.body.id,
      );
      expect(failed).toHaveLength(1);
      expect(failed[0].failure).toEqual({
        reason: 'Your card was declined.',
        invoice_id: invoice.id,
        at: expect.stringMatching(UTC_ISO),
      });

      const unknown = await send(
        key,
        fake.event(
          'invoice.payment_failed',
          fake.failedInvoice({ recurringGiftId: `rcg_${'0'.repeat(32)}`, amount: 3000, currency: 'usd' }),
        ),
      );
      expect(unknown.body).toMatchObject({ outcome: 'unmatched' });
    });

    it('an event type it does not handle is acknowledged (200 ignored) and recorded', async () => {
      const event = fake.event('customer.created', { id: 'cus_123', object: 'customer' });
      const res = await send(key, event, { endpointId: fake.endpointsOf(key)[0].id });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ outcome: 'ignored' });
      expect(await processorEvents(target, event.id)).toEqual([expect.objectContaining({ outcome: 'ignored' })]);
    });
  });
});
