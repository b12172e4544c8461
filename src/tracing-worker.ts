import { startTracing } from './common/telemetry/tracing';

// Imported first by worker.ts: tracing (when configured) patches http, pg and ioredis before the worker requires them.
startTracing('church-api-worker');
