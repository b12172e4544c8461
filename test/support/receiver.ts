import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { FakeHttpServer, parseJson, RawRequest, sendJson } from './fake-http-server';
import { waitFor } from './wait';

/** One request the receiver got, recorded as soon as its body has arrived (before any programmed delay). */
export interface ReceivedRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact bytes of the body, as UTF-8 text (what a signature covers). */
  rawBody: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: unknown;
  /** Date.now() when the body had arrived. */
  receivedAt: number;
}

export interface Answer {
  /** Default 200. */
  status?: number;
  /** Wait this long before answering (a slow receiver). */
  delayMs?: number;
  headers?: Record<string, string>;
  /** Default `{"received": true}` (or `{"ok": true}` for the ping). */
  body?: string;
}

/**
 * How a path answers: a fixed answer, or a function of the request and its 0-based index among the
 * requests to that path (e.g. `(_, i) => ({ status: i === 0 ? 500 : 200 })`).
 */
export type Rule = Answer | ((request: ReceivedRequest, index: number) => Answer);

export const PING_PATH = '/webhooks/ping';

/**
 * A real HTTP webhook receiver on a free 127.0.0.1 port. Every path answers 200 unless a test
 * programs it with `answer(path, rule)` (status, delay, headers, body); `GET /webhooks/ping` is a
 * health check that answers 200 `{"ok": true}` by default. Every request is recorded with its raw
 * body and headers.
 */
export class TestReceiver extends FakeHttpServer<ReceivedRequest> {
  private readonly rules = new Map<string, Rule>();

  static start(): Promise<TestReceiver> {
    return new TestReceiver().listen();
  }

  /** The full URL of a path on this receiver. */
  url(path: string): string {
    return `${this.origin}${path.startsWith('/') ? path : `/${path}`}`;
  }

  /** Programs how `path` (without query) answers from now on. */
  answer(path: string, rule: Rule): void {
    this.rules.set(path, rule);
  }

  /** Back to the default answer for `path`. */
  reset(path: string): void {
    this.rules.delete(path);
  }

  /** Requests to `path` (without query), in arrival order; POSTs only unless `method` says otherwise. */
  at(path: string, method: string | null = 'POST'): ReceivedRequest[] {
    return this.requests.filter((r) => r.path.split('?')[0] === path && (method === null || r.method === method));
  }

  /** The Service-Webhook-Id of every POST to `path`, in arrival order (repeats included). */
  webhookIds(path: string): string[] {
    return this.at(path).map((r) => String(r.headers['service-webhook-id']));
  }

  /** Waits until `count` POSTs reached `path`; fails with what arrived when `timeoutMs` passes. */
  async waitForCount(path: string, count: number, timeoutMs = 10_000): Promise<ReceivedRequest[]> {
    await waitFor(() => this.at(path).length >= count, {
      timeout: timeoutMs,
      interval: 20,
      what: () => `${count} request(s) to ${path} (receiver); got ${this.at(path).length}`,
    });
    return this.at(path);
  }

  protected record({ method, url, headers, rawBody, receivedAt }: RawRequest): ReceivedRequest {
    return { method, path: url, headers, rawBody, body: parseJson(rawBody), receivedAt };
  }

  protected respond(request: ReceivedRequest, res: ServerResponse): void {
    const bare = request.path.split('?')[0];
    const index = this.requests.filter((r) => r.path.split('?')[0] === bare).length - 1;
    const rule = this.rules.get(bare);
    const answer: Answer = typeof rule === 'function' ? rule(request, index) : (rule ?? {});
    const send = () => {
      if (res.destroyed || res.writableEnded) return; // the sender gave up (time-out)
      const isPing = bare === PING_PATH;
      sendJson(res, answer.status ?? 200, answer.body ?? (isPing ? { ok: true } : { received: true }), answer.headers);
    };
    if (answer.delayMs && answer.delayMs > 0) this.later(answer.delayMs, send);
    else send();
  }
}
