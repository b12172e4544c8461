import { startTracing } from './common/telemetry/tracing';

// Imported first by main.ts: tracing (when configured) patches http, express, pg and ioredis before the app requires them.
startTracing('church-api');
