import type { ServerResponse } from 'node:http';
import { FakeHttpServer, parseJson, RawRequest, sendJson } from './fake-http-server';

/** OTLP's span kinds (opentelemetry-proto trace.proto). */
export const SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };

interface OtlpTraces {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: {
      scope?: { name?: string };
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: KeyValue[];
      }[];
    }[];
  }[];
}

/** One span as a collector got it, with its resource's attributes (service.name: which process). */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a trace's root. */
  parentSpanId: string;
  name: string;
  kind: number;
  scope: string;
  attributes: Record<string, string | number | boolean>;
  resource: Record<string, string | number | boolean>;
}

function flatten(attributes: KeyValue[] = []): Record<string, string | number | boolean> {
  return Object.fromEntries(
    attributes.map(({ key, value }) => [
      key,
      value.stringValue ??
        (value.intValue !== undefined ? Number(value.intValue) : undefined) ??
        value.boolValue ??
        value.doubleValue ??
        '',
    ]),
  );
}

/**
 * An OpenTelemetry collector's OTLP/HTTP trace endpoint on a free 127.0.0.1 port, in its JSON form
 * (the exporter with `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`): `POST /v1/traces` is answered 200
 * and its spans are kept; anything else is 404.
 */
export class OtlpReceiver extends FakeHttpServer<ReceivedSpan[]> {
  static start(): Promise<OtlpReceiver> {
    return new OtlpReceiver().listen();
  }

  /** Every span received so far. */
  spans(): ReceivedSpan[] {
    return this.requests.flat();
  }

  /** The spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans().filter((span) => span.traceId === traceId);
  }

  protected record({ method, url, headers, rawBody }: RawRequest): ReceivedSpan[] {
    if (method !== 'POST' || url !== '/v1/traces' || !String(headers['content-type']).startsWith('application/json'))
      return [];
    const body = parseJson(rawBody, {}) as OtlpTraces;
    return (body.resourceSpans ?? []).flatMap((rs) => {
      const resource = flatten(rs.resource?.attributes);
      return (rs.scopeSpans ?? []).flatMap((ss) =>
        (ss.spans ?? []).map((span) => ({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ?? '',
          name: span.name,
          kind: span.kind,
          scope: ss.scope?.name ?? '',
          attributes: flatten(span.attributes),
          resource,
        })),
      );
    });
  }

  protected respond(_spans: ReceivedSpan[], res: ServerResponse, raw: RawRequest): void {
    if (raw.method === 'POST' && raw.url === '/v1/traces') sendJson(res, 200, {});
    else sendJson(res, 404, { error: 'not found' });
  }
}

/** True when `span` is `ancestor` or lies under it, following parent ids within `spans`. */
export function descendsFrom(span: ReceivedSpan, ancestor: ReceivedSpan, spans: ReceivedSpan[]): boolean {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  for (let at: ReceivedSpan | undefined = span; at; at = byId.get(at.parentSpanId))
    if (at.spanId === ancestor.spanId) return true;
  return false;
}
