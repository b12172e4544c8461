import type { IncomingMessage } from 'node:http';
import type { Sampler } from '@opentelemetry/sdk-trace';
import type { Telemetry } from 'bullmq';

/** Incoming requests left out of the traces: probes and scrapes, every few seconds. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

interface Tracing {
  shutdown(): Promise<void>;
  queues: Telemetry;
}

let tracing: Tracing | undefined;

/** True when an OTLP endpoint is configured (CONTRACT §22): only then is anything of OpenTelemetry loaded. */
export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * Starts OpenTelemetry tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set: the SDK, its OTLP exporter
 * (the standard OTEL_* variables: protocol, headers, batch delays, sampler) and the http, express,
 * pg and ioredis instrumentations. It must run before those modules are first required, so the
 * entry points import it before anything else; the packages are required here, not imported, so
 * that without the variable none of them is even loaded. Traces only: no OTLP metrics nor logs
 * (Prometheus and the JSON lines cover those).
 */
export function startTracing(defaultServiceName: string): void {
  if (tracing || !tracingConfigured()) return;
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { ExpressInstrumentation, ExpressLayerType } =
    require('@opentelemetry/instrumentation-express') as typeof import('@opentelemetry/instrumentation-express');
  const { PgInstrumentation } =
    require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { IORedisInstrumentation } =
    require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');
  const { BullMQOtel } = require('bullmq-otel') as typeof import('bullmq-otel');
  const { ParentBasedSampler, SamplingDecision } =
    require('@opentelemetry/sdk-trace') as typeof import('@opentelemetry/sdk-trace');
  const { SpanKind } = require('@opentelemetry/api') as typeof import('@opentelemetry/api');
  /* eslint-enable @typescript-eslint/no-require-imports */

  // BullMQ's workers check for stalled jobs every few seconds in internal spans of their own: each
  // would be a trace. A trace starts at a request, a job's enqueue or its processing, unless
  // OTEL_TRACES_SAMPLER says otherwise.
  const noHousekeepingRoots: Sampler = {
    shouldSample: (_context, _traceId, _name, kind) => ({
      decision: kind === SpanKind.INTERNAL ? SamplingDecision.NOT_RECORD : SamplingDecision.RECORD_AND_SAMPLED,
    }),
    toString: () => 'NoInternalRoots',
  };
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ? undefined : defaultServiceName,
    sampler: process.env.OTEL_TRACES_SAMPLER ? undefined : new ParentBasedSampler({ root: noHousekeepingRoots }),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req: IncomingMessage) => UNTRACED_PATHS.has((req.url ?? '').split('?')[0]),
      }),
      // The route handler's layer names the request's span by its template (`POST /v1/members`);
      // a span for each of the dozen middleware layers would cost more than it tells.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      // Queries outside a traced request or job (pollers, sweepers) would each be a trace of one span.
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  tracing = { shutdown: () => sdk.shutdown(), queues: new BullMQOtel({ tracerName: 'bullmq' }) };
}

/** Sends the spans still buffered and stops the SDK (at the application's shutdown). */
export async function stopTracing(): Promise<void> {
  const current = tracing;
  tracing = undefined;
  await current?.shutdown();
}

/**
 * BullMQ's own telemetry for its queues and workers, when tracing is on: adding a job records a
 * producer span and puts the W3C trace context in the job's options (never in its data), and the
 * worker's processing span continues that trace.
 */
export function queueTelemetry(): Telemetry | undefined {
  return tracing?.queues;
}

/**
 * The current trace context in the form BullMQ keeps in a job's options (`{"traceparent": …}`), for
 * jobs that are added later in a batch with other callers' jobs; undefined when tracing is off.
 */
export function currentTraceMetadata(): string | undefined {
  const telemetry = tracing?.queues;
  const metadata = telemetry?.contextManager.getMetadata(telemetry.contextManager.active());
  return metadata === '{}' ? undefined : metadata; // outside any trace (a sweeper)
}
