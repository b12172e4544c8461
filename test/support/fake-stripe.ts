import { randomBytes } from 'node:crypto';
import { IncomingHttpHeaders, request as httpRequest, ServerResponse } from 'node:http';
import Stripe from 'stripe';
import { FakeHttpServer, RawRequest, sendJson } from './fake-http-server';

/** A webhook endpoint as the fake keeps it (Stripe's `webhook_endpoint` object, plus the key that owns it). */
export interface FakeEndpoint {
  id: string;
  object: 'webhook_endpoint';
  api_version: string | null;
  application: null;
  created: number;
  description: string | null;
  enabled_events: string[];
  livemode: boolean;
  metadata: Record<string, string>;
  secret: string;
  status: 'enabled' | 'disabled';
  url: string;
  /** Not Stripe's: the API key (account) that created it. */
  ownerKey: string;
}

/** One request the fake received, with its form fields (API keys are kept: tests check which one was used). */
export interface FakeApiRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  form: URLSearchParams;
}

/** An event in Stripe's shape (`object: "event"`), as the processor posts it. */
export interface FakeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: Record<string, unknown> };
  livemode: boolean;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

export interface SendOptions {
  /** Deliver to this endpoint only (default: every enabled endpoint subscribed to the type). */
  endpointId?: string;
  /** Deliver to the endpoints of this account (API key) only. */
  apiKey?: string;
  /** The signature's timestamp, Unix seconds (default now): a stale one tests the tolerance. */
  timestamp?: number;
  /** Sign with this secret instead of the endpoint's (a bad signature). */
  secret?: string;
  /** Send these exact bytes instead of JSON.stringify(event) (signed as sent). */
  payload?: string;
}

export interface Delivery {
  endpointId: string;
  url: string;
  status: number;
  body: unknown;
  /** The Stripe-Signature header sent. */
  signature: string;
  /** The exact bytes sent. */
  payload: string;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;

/**
 * A small stateful fake of Stripe's API on a free 127.0.0.1 port, for the official `stripe`
 * client pointed at it (`new Stripe(key, {host, port, protocol: 'http'})`):
 *
 * - `POST /v1/webhook_endpoints` (form-encoded: url, enabled_events[], api_version, description,
 *   metadata[…]) → the endpoint with a fresh `whsec_` secret; `GET /v1/webhook_endpoints`,
 *   `GET|DELETE /v1/webhook_endpoints/:id` (404 `resource_missing` for an unknown one or another
 *   account's);
 * - a key that is not one of `keys` → 401 in Stripe's error shape;
 * - `failWith(status)` makes every API call answer that status (Stripe's `api_error` shape) until
 *   `failWith(null)`.
 *
 * `send(event)` posts a signed event, as Stripe does, to the registered URL of every enabled
 * endpoint subscribed to its type, with a `Stripe-Signature` header made by
 * `stripe.webhooks.generateTestHeaderString`.
 */
export class FakeStripe extends FakeHttpServer<FakeApiRequest> {
  readonly endpoints = new Map<string, FakeEndpoint>();
  private readonly keys = new Set<string>();
  private failure: number | null = null;
  private anyKey = false;

  static start(): Promise<FakeStripe> {
    return new FakeStripe().listen();
  }

  /** For PAYMENTS_API_URL. */
  get url(): string {
    return this.origin;
  }

  /** A new secret key this fake accepts (one per Stripe account). */
  newKey(): string {
    const key = `sk_test_${hex(12)}`;
    this.keys.add(key);
    return key;
  }

  /** From now on any `sk_…`/`rk_…` key is an account of its own (e.g. for a fuzzer that sends the documented example key). */
  acceptAnyKey(): void {
    this.anyKey = true;
  }

  /** Makes every API call answer `status` (e.g. 500, 503) until `failWith(null)`. */
  failWith(status: number | null): void {
    this.failure = status;
  }

  /** The endpoints an account holds. */
  endpointsOf(apiKey: string): FakeEndpoint[] {
    return [...this.endpoints.values()].filter((e) => e.ownerKey === apiKey);
  }

  // ------------------------------------------------------------------------------------------
  // Events
  // ------------------------------------------------------------------------------------------

  /** An event of `type` around `object`, in Stripe's shape. */
  event(type: string, object: Record<string, unknown>, extra: Partial<FakeEvent> = {}): FakeEvent {
    return {
      id: id('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: Math.floor(Date.now() / 1000),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      ...extra,
    };
  }

  /** A succeeded PaymentIntent (`pi_…`); `method` is its payment method's type (card, us_bank_account…). */
  paymentIntent(input: {
    amount: number;
    currency: string;
    metadata?: Record<string, string>;
    method?: string;
    id?: string;
  }): Record<string, unknown> {
    const method = input.method ?? 'card';
    return {
      id: input.id ?? id('pi'),
      object: 'payment_intent',
      amount: input.amount,
      amount_received: input.amount,
      currency: input.currency.toLowerCase(),
      created: Math.floor(Date.now() / 1000),
      latest_charge: id('ch'),
      livemode: false,
      metadata: input.metadata ?? {},
      payment_method: id('pm'),
      payment_method_types: [method],
      status: 'succeeded',
    };
  }

  /** A charge of `intentId` of which `refunded` has been refunded in all (the newest refund first in `refunds`). */
  refundedCharge(input: {
    intentId: string | null;
    amount: number;
    refunded: number;
    currency: string;
    refundAmount?: number;
  }): Record<string, unknown> {
    const refund = {
      id: id('re'),
      object: 'refund',
      amount: input.refundAmount ?? input.refunded,
      currency: input.currency.toLowerCase(),
      status: 'succeeded',
      created: Math.floor(Date.now() / 1000),
    };
    return {
      id: id('ch'),
      object: 'charge',
      amount: input.amount,
      amount_refunded: input.refunded,
      currency: input.currency.toLowerCase(),
      payment_intent: input.intentId,
      refunded: input.refunded >= input.amount,
      refunds: { object: 'list', data: [refund], has_more: false, url: '/v1/refunds' },
      status: 'succeeded',
    };
  }

  /** A dispute opened on a charge of `intentId`. */
  dispute(input: {
    intentId: string | null;
    amount: number;
    currency: string;
    reason?: string;
    status?: string;
  }): Record<string, unknown> {
    return {
      id: id('dp'),
      object: 'dispute',
      amount: input.amount,
      charge: id('ch'),
      currency: input.currency.toLowerCase(),
      payment_intent: input.intentId,
      reason: input.reason ?? 'fraudulent',
      status: input.status ?? 'needs_response',
      created: Math.floor(Date.now() / 1000),
    };
  }

  /** An invoice of a subscription whose payment failed; the recurring gift rides in the subscription's metadata. */
  failedInvoice(input: {
    recurringGiftId?: string;
    amount: number;
    currency: string;
    reason?: string;
    metadata?: Record<string, string>;
  }): Record<string, unknown> {
    const metadata = input.recurringGiftId ? { recurring_gift_id: input.recurringGiftId } : {};
    return {
      id: id('in'),
      object: 'invoice',
      amount_due: input.amount,
      currency: input.currency.toLowerCase(),
      attempt_count: 1,
      billing_reason: 'subscription_cycle',
      metadata: input.metadata ?? {},
      parent: { type: 'subscription_details', subscription_details: { subscription: id('sub'), metadata } },
      last_finalization_error: input.reason ? { message: input.reason, type: 'card_error' } : null,
      status: 'open',
    };
  }

  /**
   * Posts `event` as Stripe does: to each enabled endpoint subscribed to its type (or the one
   * named), signed with the endpoint's secret. Resolves with every answer.
   */
  async send(event: FakeEvent, options: SendOptions = {}): Promise<Delivery[]> {
    const targets = [...this.endpoints.values()].filter(
      (e) =>
        (options.endpointId
          ? e.id === options.endpointId
          : e.status === 'enabled' && (e.enabled_events.includes(event.type) || e.enabled_events.includes('*'))) &&
        (!options.apiKey || e.ownerKey === options.apiKey),
    );
    const payload = options.payload ?? JSON.stringify(event, null, 2);
    return Promise.all(
      targets.map(async (endpoint) => {
        const signature = Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: options.secret ?? endpoint.secret,
          timestamp: options.timestamp,
        });
        const answer = await post(endpoint.url, payload, {
          'Content-Type': 'application/json; charset=utf-8',
          'Stripe-Signature': signature,
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        });
        return {
          endpointId: endpoint.id,
          url: endpoint.url,
          status: answer.status,
          body: answer.body,
          signature,
          payload,
        };
      }),
    );
  }

  // ------------------------------------------------------------------------------------------
  // The API
  // ------------------------------------------------------------------------------------------

  protected record({ method, url, headers, rawBody }: RawRequest): FakeApiRequest {
    const form = new URLSearchParams(method === 'GET' || method === 'DELETE' ? (url.split('?')[1] ?? '') : rawBody);
    return { method, path: url.split('?')[0], headers, form };
  }

  protected respond({ method, path, headers, form }: FakeApiRequest, res: ServerResponse): void {
    const key = /^Bearer (\S+)$/.exec(headers.authorization ?? '')?.[1] ?? '';
    if (!this.keys.has(key) && !(this.anyKey && /^(sk|rk)_(test|live)_\w+$/.test(key))) {
      const shown = key ? `${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}` : '';
      return reply(res, 401, {
        error: {
          message: key ? `Invalid API Key provided: ${shown}` : 'You did not provide an API key.',
          type: 'invalid_request_error',
        },
      });
    }
    if (this.failure !== null) {
      return reply(res, this.failure, { error: { message: 'An unknown error occurred', type: 'api_error' } });
    }
    const one = /^\/v1\/webhook_endpoints\/([^/]+)$/.exec(path);
    if (path === '/v1/webhook_endpoints' && method === 'POST') return this.createEndpoint(key, form, res);
    if (path === '/v1/webhook_endpoints' && method === 'GET') {
      return reply(res, 200, {
        object: 'list',
        data: this.endpointsOf(key).map(publicView),
        has_more: false,
        url: '/v1/webhook_endpoints',
      });
    }
    if (one && (method === 'GET' || method === 'DELETE')) {
      const endpoint = this.endpoints.get(decodeURIComponent(one[1]));
      if (!endpoint || endpoint.ownerKey !== key) {
        return reply(res, 404, {
          error: {
            code: 'resource_missing',
            message: `No such webhook endpoint: '${one[1]}'`,
            param: 'id',
            type: 'invalid_request_error',
          },
        });
      }
      if (method === 'GET') return reply(res, 200, publicView(endpoint));
      this.endpoints.delete(endpoint.id);
      return reply(res, 200, { id: endpoint.id, object: 'webhook_endpoint', deleted: true });
    }
    reply(res, 404, {
      error: { message: `Unrecognized request URL (${method}: ${path}).`, type: 'invalid_request_error' },
    });
  }

  private createEndpoint(key: string, form: URLSearchParams, res: ServerResponse): void {
    const url = form.get('url');
    const events = [...form.entries()]
      .filter(([name]) => /^enabled_events\[\d*\]$/.test(name))
      .map(([, value]) => value);
    if (!url)
      return reply(res, 400, {
        error: {
          code: 'parameter_missing',
          message: 'Missing required param: url.',
          param: 'url',
          type: 'invalid_request_error',
        },
      });
    if (events.length === 0) {
      return reply(res, 400, {
        error: {
          code: 'parameter_missing',
          message: 'Missing required param: enabled_events.',
          param: 'enabled_events',
          type: 'invalid_request_error',
        },
      });
    }
    const metadata = Object.fromEntries(
      [...form.entries()].flatMap(([name, value]) =>
        /^metadata\[(.+)\]$/.test(name) ? [[/^metadata\[(.+)\]$/.exec(name)![1], value]] : [],
      ),
    );
    const endpoint: FakeEndpoint = {
      id: id('we'),
      object: 'webhook_endpoint',
      api_version: form.get('api_version'),
      application: null,
      created: Math.floor(Date.now() / 1000),
      description: form.get('description'),
      enabled_events: events,
      livemode: false,
      metadata,
      secret: `whsec_${randomBytes(24).toString('base64url')}`,
      status: 'enabled',
      url,
      ownerKey: key,
    };
    this.endpoints.set(endpoint.id, endpoint);
    reply(res, 200, { ...publicView(endpoint), secret: endpoint.secret });
  }
}

/** The endpoint as Stripe shows it after creation (no secret, no owner). */
function publicView(endpoint: FakeEndpoint): Omit<FakeEndpoint, 'secret' | 'ownerKey'> {
  const { secret: _secret, ownerKey: _owner, ...rest } = endpoint;
  return rest;
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  sendJson(res, status, body, { 'request-id': `req_${hex(7)}`, 'stripe-version': Stripe.API_VERSION });
}

function post(
  url: string,
  payload: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', headers: { ...headers, 'Content-Length': String(Buffer.byteLength(payload)) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON: kept as text
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
