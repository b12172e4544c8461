import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min } from 'class-validator';

const toBool = ({ value }: { value: unknown }) =>
  value === undefined || value === ''
    ? undefined
    : value === true || value === 'true' || value === '1'
      ? true
      : value === false || value === 'false' || value === '0'
        ? false
        : value;
const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);
const STRIPE_API = 'https://api.stripe.com';

/** Every environment variable the service reads. Validated once at boot (src/config/app-config.ts). */
export class EnvironmentVariables {
  @IsOptional()
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ protocols: ['postgres', 'postgresql'], require_tld: false, require_protocol: true })
  DATABASE_URL?: string;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(200)
  DB_POOL_SIZE = 10;

  @Transform(toBool)
  @IsBoolean()
  DB_MIGRATE_ON_START = true;

  /** A statement of the app's sessions running longer is canceled (0: no limit). Migrations have none. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  DB_STATEMENT_TIMEOUT_MS = 30_000;

  /** A session idle inside a transaction this long is ended by PostgreSQL, releasing its locks (0: no limit). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS = 10_000;

  /** Days the changes feed keeps a change (CONTRACT §15); an older cursor is 410 sync_cursor_expired. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  CHANGES_RETENTION_DAYS = 30;

  /**
   * Reports computed at once per API process (about the database's cores); more wait their turn
   * for up to a minute without holding a database connection, so reports never starve other routes.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  REPORTS_CONCURRENCY = 2;

  @IsString()
  PGLITE_DATA_DIR = './data/pglite';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ protocols: ['redis', 'rediss'], require_tld: false, require_protocol: true })
  REDIS_URL?: string;

  /** A Redis Cluster's seed nodes, `host:port,host:port,…`; set, every Redis use goes to the cluster and REDIS_URL is not read. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^\s*(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}(\s*,\s*(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5})*\s*$/, {
    message: 'must be a comma-separated list of host:port, like redis-1:6379,redis-2:6379',
  })
  REDIS_CLUSTER_NODES?: string;

  @Matches(/^\s*\d+(ms|s|m|h|d)(\s*,\s*\d+(ms|s|m|h|d))*\s*$/, {
    message: 'must be a comma-separated list like 30s,5m,1h',
  })
  WEBHOOK_RETRY_SCHEDULE = '30s,5m,1h,6h,24h';

  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(60000)
  WEBHOOK_TIMEOUT_MS = 3000;

  @Transform(toBool)
  @IsBoolean()
  WEBHOOK_ALLOW_LOOPBACK = false;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[A-Za-z0-9+/]{43}=$/, { message: 'must be 32 bytes in base64 (openssl rand -base64 32)' })
  ENCRYPTION_KEY?: string;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_CONCURRENCY = 50;

  @Matches(/^[a-z0-9_-]{1,40}$/)
  QUEUE_PREFIX = 'church';

  /** First retry delay of a failed background job (mail, notices…); each later retry waits twice as long. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(86_400_000)
  JOB_RETRY_BASE_MS = 30_000;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ protocols: ['smtp', 'smtps'], require_tld: false, require_protocol: true })
  SMTP_URL?: string;

  @IsString()
  MAIL_FROM = 'Church API <no-reply@localhost>';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  PUSH_GATEWAY_URL?: string;

  /** The payment processor's API base (Stripe's shape); tests point it at a local fake of that API. */
  @Transform(({ value }: { value: unknown }) => (value === '' || value === undefined ? STRIPE_API : value))
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  PAYMENTS_API_URL = STRIPE_API;

  /**
   * The API's public base URL (e.g. https://api.example.org), on which the processor's inbound
   * endpoint is built. Unset: http://localhost:<PORT> outside production (see app-config.ts); in
   * production connecting a processor is then refused (422).
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  PUBLIC_URL?: string;

  @IsIn(['error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL: 'error' | 'warn' | 'log' | 'debug' | 'verbose' = 'log';

  /** `json`: one JSON object a line (level, time, context, msg, request_id, tenant); `pretty`: Nest's console. Unset: json when NODE_ENV=production. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(['json', 'pretty'])
  LOG_FORMAT?: 'json' | 'pretty';

  /** GET /metrics answers only to `Authorization: Bearer <METRICS_TOKEN>`; unset, /metrics is 404. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  METRICS_TOKEN?: string;

  /**
   * OpenTelemetry: with it, the API and the worker export traces (the request, its queries, the
   * jobs it enqueued) over OTLP/HTTP to this collector (e.g. http://otel-collector:4318); the SDK
   * reads it and the other OTEL_* variables itself (src/common/telemetry/tracing.ts). Unset:
   * nothing of OpenTelemetry is loaded.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  /** The traces' service.name; unset: church-api for the API, church-api-worker for the worker. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  OTEL_SERVICE_NAME?: string;

  /** Requests a minute per client address (IPv6: per /64) to the public routes: OAuth pages and token endpoint, metadata, OpenAPI. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  PUBLIC_RATE_LIMIT = 60;

  /**
   * Express "trust proxy": the number of proxies in front, whose X-Forwarded-For names the client
   * (audit IPs, the per-address limits), or false (the socket's address).
   */
  @Matches(/^(false|true|\d{1,2})$/)
  TRUST_PROXY = 'false';
}
