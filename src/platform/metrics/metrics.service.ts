import { getQueueToken } from '@nestjs/bullmq';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { Database } from '../../database/database.service';
import { QUEUES } from '../jobs/queues';
import { DUE_AT } from '../outbox/delivery/delivery-book';
import { redisConfigured } from '../redis/redis-connection';

/** How long a scrape's queue depths and delivery backlog are reused (a scrape costs a few Redis calls and one query). */
const SCRAPE_CACHE_MS = 5_000;
/** A queue whose Redis does not answer within this is left out of the scrape (BullMQ's client queues commands while away). */
const REDIS_TIMEOUT_MS = 1_000;
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/** A value computed at most once per SCRAPE_CACHE_MS, shared by concurrent scrapes. */
class Cached<T> {
  private at = 0;
  private value?: Promise<T>;

  constructor(private readonly load: () => Promise<T>) {}

  get(): Promise<T> {
    const now = Date.now();
    if (!this.value || now - this.at >= SCRAPE_CACHE_MS) {
      this.at = now;
      this.value = this.load();
      this.value.catch(() => (this.at = 0)); // a failed load is retried at the next scrape
    }
    return this.value;
  }
}

/**
 * The process's Prometheus metrics (CONTRACT §22), in a registry of its own (several apps may live
 * in one test process): default process metrics, request durations (observed by `httpMetrics`),
 * and gauges read at scrape time: the pg pool, BullMQ queue depths, the webhook outbox's backlog.
 * Without METRICS_TOKEN nobody can scrape them, so nothing is measured (`enabled` false).
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  /** Measured only when they can be scraped (METRICS_TOKEN set). */
  readonly enabled: boolean;
  private readonly logger = new Logger('Metrics');
  readonly httpDuration: Histogram<'method' | 'route' | 'status_class'>;
  private readonly queueDepths = new Cached(() => this.loadQueueDepths());
  private readonly deliveries = new Cached(() => this.loadDeliveryBacklog());

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
    private readonly moduleRef: ModuleRef,
  ) {
    this.enabled = config.METRICS_TOKEN !== undefined;
    if (this.enabled) collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'http_server_request_duration_seconds',
      help: 'Time from the request reaching the app to its answer being sent, by method, route template and status class.',
      labelNames: ['method', 'route', 'status_class'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    const pool: Gauge<'state'> = new Gauge({
      name: 'db_pool_connections',
      help: "Connections of this process's PostgreSQL pool: total open, in_use, idle, and waiting (callers waiting for one).",
      labelNames: ['state'],
      registers: [this.registry],
      collect: () => {
        const { total, idle, waiting } = this.db.poolStats();
        pool.set({ state: 'total' }, total);
        pool.set({ state: 'in_use' }, total - idle);
        pool.set({ state: 'idle' }, idle);
        pool.set({ state: 'waiting' }, waiting);
      },
    });
    const queues: Gauge<'queue' | 'state'> = new Gauge({
      name: 'queue_jobs',
      help: 'Jobs of each BullMQ queue by state (waiting, active, delayed, failed); read at scrape, cached 5 s. Absent without Redis.',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      collect: async () => {
        const depths = await this.queueDepths.get().catch((error) => this.failed('queue depths', error, []));
        for (const [queue, counts] of depths)
          for (const state of QUEUE_STATES) queues.set({ queue, state }, counts[state] ?? 0);
      },
    });
    const lag: Gauge = new Gauge({
      name: 'webhook_delivery_lag_seconds',
      help: 'Seconds since the oldest pending webhook delivery became due (0 when none is due); cached 5 s.',
      registers: [this.registry],
      collect: async () => {
        const backlog = await this.deliveryBacklog();
        if (backlog) lag.set(backlog.lagSeconds);
      },
    });
    const pending: Gauge = new Gauge({
      name: 'outbox_pending',
      help: 'Pending webhook deliveries whose time has come (the outbox backlog); cached 5 s.',
      registers: [this.registry],
      collect: async () => {
        const backlog = await this.deliveryBacklog();
        if (backlog) pending.set(backlog.pending);
      },
    });
  }

  private deliveryBacklog(): Promise<{ pending: number; lagSeconds: number } | null> {
    return this.deliveries.get().catch((error) => this.failed('delivery backlog', error, null));
  }

  /** The metrics in the Prometheus text format. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  /** A gauge whose source does not answer is left out of this scrape, and said in the log. */
  private failed<T>(what: string, error: unknown, fallback: T): T {
    this.logger.warn(`${what} not read: ${String(error)}`);
    return fallback;
  }

  private async loadQueueDepths(): Promise<[string, Record<string, number>][]> {
    if (!redisConfigured(this.config)) return [];
    return Promise.all(
      Object.values(QUEUES).map(async (name): Promise<[string, Record<string, number>]> => {
        const queue = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
        return [name, await withTimeout(queue.getJobCounts(...QUEUE_STATES), REDIS_TIMEOUT_MS)];
      }),
    );
  }

  /** One statement on the due index (webhook_deliveries_due_idx): how many are due, and since when. */
  private async loadDeliveryBacklog(): Promise<{ pending: number; lagSeconds: number }> {
    const [row]: { pending: number; lag: number | null }[] = await this.db.platform.query(
      `SELECT count(*)::int AS pending, extract(epoch FROM now() - min(${DUE_AT}))::float8 AS lag
         FROM webhook_deliveries d WHERE status = 'pending' AND next_attempt_at <= now() AND ${DUE_AT} <= now()`,
    );
    return { pending: row?.pending ?? 0, lagSeconds: Math.max(0, row?.lag ?? 0) };
  }
}
