import { createServer, IncomingHttpHeaders, Server } from 'node:http';

export interface PushRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export const FCM_SEND_PATH = '/v1/projects/test/messages:send';

/**
 * A fake FCM HTTP v1 gateway on a free loopback port: records every request and answers like FCM
 * (`{"name": "projects/test/messages/<n>"}`), or with `status` when a test sets it.
 */
export class FakePushGateway {
  readonly requests: PushRequest[] = [];
  status = 200;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<FakePushGateway> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // kept as text: the test will see the shape is wrong
        }
        self.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
        const ok = self.status >= 200 && self.status < 300;
        res.writeHead(self.status, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            ok
              ? { name: `projects/test/messages/${self.requests.length}` }
              : { error: { code: self.status, status: 'UNAVAILABLE' } },
          ),
        );
      });
    });
    const port = await new Promise<number>((resolve, reject) => {
      server.on('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : 0);
      });
    });
    const self = new FakePushGateway(server, port);
    return self;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}${FCM_SEND_PATH}`;
  }

  /** The FCM `message` objects sent to a topic. */
  toTopic(topic: string): Record<string, unknown>[] {
    return this.requests
      .map((r) => (r.body as { message?: Record<string, unknown> }).message ?? {})
      .filter((m) => m.topic === topic);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
