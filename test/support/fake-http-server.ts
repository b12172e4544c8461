import { createServer, IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { Server as NetServer } from 'node:net';

/** Listens on 127.0.0.1 (`port` 0: a free port chosen by the system); resolves with the port. */
export function listenOnLoopback(server: NetServer, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
}

/** One request as it arrived, recorded once its whole body was read. */
export interface RawRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The exact bytes of the body, as UTF-8 text (what a signature covers). */
  rawBody: string;
  /** Date.now() when the body had arrived. */
  receivedAt: number;
}

/** `text` parsed as JSON, or `fallback` when it is not JSON (an empty body included). */
export function parseJson(text: string, fallback: unknown = undefined): unknown {
  if (text.length === 0) return fallback;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}

/** Answers `status` with `body` as JSON (a string is sent as is). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/**
 * The base of the tests' fake HTTP services (webhook receiver, push gateway, payment processor): a
 * real node:http server on a free 127.0.0.1 port that reads each request's body whole, records the
 * request as the subclass shapes it (`record`) in `requests`, and lets the subclass answer it
 * (`respond`). `later` schedules an answer that `close` cancels.
 */
export abstract class FakeHttpServer<R> {
  readonly requests: R[] = [];
  private readonly server: Server;
  private readonly timers = new Set<NodeJS.Timeout>();
  private listeningPort = 0;

  protected constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw: RawRequest = {
          method: req.method ?? '',
          url: req.url ?? '/',
          headers: req.headers,
          rawBody: Buffer.concat(chunks).toString('utf8'),
          receivedAt: Date.now(),
        };
        const request = this.record(raw);
        this.requests.push(request);
        this.respond(request, res, raw);
      });
      req.on('error', () => undefined);
    });
    this.server.keepAliveTimeout = 1_000;
  }

  /** Starts listening; resolves with the server itself, for `static start()` of a subclass. */
  protected async listen(): Promise<this> {
    this.listeningPort = await listenOnLoopback(this.server);
    return this;
  }

  get port(): number {
    return this.listeningPort;
  }

  /** `http://127.0.0.1:<port>` */
  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** What `requests` keeps of a request. */
  protected abstract record(raw: RawRequest): R;

  /** Answers the request just recorded (the last of `requests`). */
  protected abstract respond(request: R, res: ServerResponse, raw: RawRequest): void;

  /** Runs `fn` in `ms` unless the server is closed first. */
  protected later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
