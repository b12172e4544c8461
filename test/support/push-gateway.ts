import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { FakeHttpServer, parseJson, RawRequest, sendJson } from './fake-http-server';

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
export class FakePushGateway extends FakeHttpServer<PushRequest> {
  status = 200;

  static start(): Promise<FakePushGateway> {
    return new FakePushGateway().listen();
  }

  get url(): string {
    return `${this.origin}${FCM_SEND_PATH}`;
  }

  /** The FCM `message` objects sent to a topic. */
  toTopic(topic: string): Record<string, unknown>[] {
    return this.requests
      .map((r) => (r.body as { message?: Record<string, unknown> }).message ?? {})
      .filter((m) => m.topic === topic);
  }

  protected record({ method, url, headers, rawBody }: RawRequest): PushRequest {
    // A body that is not JSON is kept as text: the test will see the shape is wrong.
    return { method, path: url, headers, body: parseJson(rawBody, rawBody) };
  }

  protected respond(_request: PushRequest, res: ServerResponse): void {
    const ok = this.status >= 200 && this.status < 300;
    sendJson(
      res,
      this.status,
      ok
        ? { name: `projects/test/messages/${this.requests.length}` }
        : { error: { code: this.status, status: 'UNAVAILABLE' } },
    );
  }
}
