import { createServer, IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
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
export class TestReceiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly rules = new Map<string, Rule>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<TestReceiver> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () =>
        self.handle(req.method ?? '', req.url ?? '/', req.headers, Buffer.concat(chunks).toString('utf8'), res),
      );
      req.on('error', () => undefined);
    });
    server.keepAliveTimeout = 1_000;
    const port = await new Promise<number>((resolve, reject) => {
      server.on('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : 0);
      });
    });
    const self = new TestReceiver(server, port);
    return self;
  }

  /** `http://127.0.0.1:<port>` */
  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
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

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(
    method: string,
    path: string,
    headers: IncomingHttpHeaders,
    rawBody: string,
    res: ServerResponse,
  ): void {
    let body: unknown;
    try {
      body = rawBody.length ? JSON.parse(rawBody) : undefined;
    } catch {
      body = undefined;
    }
    const request: ReceivedRequest = { method, path, headers, rawBody, body, receivedAt: Date.now() };
    const bare = path.split('?')[0];
    const index = this.requests.filter((r) => r.path.split('?')[0] === bare).length;
    this.requests.push(request);
    const rule = this.rules.get(bare);
    const answer: Answer = typeof rule === 'function' ? rule(request, index) : (rule ?? {});
    const send = () => {
      if (res.destroyed || res.writableEnded) return; // the sender gave up (time-out)
      const isPing = bare === PING_PATH;
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body ?? JSON.stringify(isPing ? { ok: true } : { received: true }));
    };
    if (answer.delayMs && answer.delayMs > 0) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        send();
      }, answer.delayMs);
      this.timers.add(timer);
    } else send();
  }
}
