import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { Cluster } from 'ioredis';
import type { RedisClient } from '../redis/redis-connection';
import { windowEnd, windowIndex } from './buckets';
import { REDIS } from '../redis/redis.module';

export interface UsageWindow {
  requests: number;
  response_bytes: number;
  window_start: string;
  window_end: string;
}

const WINDOWS = { day: 86_400_000, minute: 60_000 } as const;

/** How long recorded usage waits in the process before it goes to Redis, batched with the rest. */
export const USAGE_FLUSH_MS = 200;

interface PendingUsage {
  requests: number;
  bytes: number;
  expiresAt: number;
}

/**
 * Requests and response bytes per church, today and this minute. Recorded after the response is
 * sent (off the critical path); a 304 adds a request and no bytes. With Redis the counts gather
 * in the process and go in one pipeline every USAGE_FLUSH_MS (one round trip for every request of
 * that time, instead of one per request), each under the window of its request; a read in this
 * process sends what is pending first, and so does shutdown.
 */
@Injectable()
export class UsageMeter implements BeforeApplicationShutdown {
  private readonly memory = new Map<string, { requests: number; bytes: number; expires: number }>();
  private pending = new Map<string, PendingUsage>();
  private timer: NodeJS.Timeout | undefined;

  constructor(@Inject(REDIS) private readonly redis: RedisClient | null) {}

  record(tenantId: string, bytes: number, now = Date.now()): void {
    if (this.redis) {
      for (const [name, ms] of Object.entries(WINDOWS)) {
        const key = `usage:{${tenantId}}:${name}:${windowIndex(now, ms)}`;
        const entry = this.pending.get(key);
        if (entry) {
          entry.requests += 1;
          entry.bytes += bytes;
        } else this.pending.set(key, { requests: 1, bytes, expiresAt: windowEnd(now, ms) + ms });
      }
      this.timer ??= setTimeout(() => void this.flush(), USAGE_FLUSH_MS).unref();
      return;
    }
    for (const [name, ms] of Object.entries(WINDOWS)) {
      const key = `${tenantId}:${name}:${windowIndex(now, ms)}`;
      const entry = this.memory.get(key) ?? { requests: 0, bytes: 0, expires: windowEnd(now, ms) + ms };
      entry.requests += 1;
      entry.bytes += bytes;
      this.memory.set(key, entry);
    }
    if (this.memory.size > 50_000) for (const [key, e] of this.memory) if (e.expires < now) this.memory.delete(key);
  }

  /** Sends the pending counts to Redis in one pipeline (a failure loses them, as a lost write did before). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.redis || this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    // On a cluster a pipeline's keys share one slot: one pipeline per church (its hash tag).
    const cluster = this.redis instanceof Cluster;
    const pipelines = new Map<string, ReturnType<RedisClient['pipeline']>>();
    for (const [key, { requests, bytes, expiresAt }] of batch) {
      const group = cluster ? key.slice(0, key.indexOf('}')) : '';
      let pipeline = pipelines.get(group);
      if (!pipeline) pipelines.set(group, (pipeline = this.redis.pipeline()));
      pipeline.hincrby(key, 'requests', requests);
      if (bytes) pipeline.hincrby(key, 'bytes', bytes);
      pipeline.pexpireat(key, expiresAt);
    }
    await Promise.all([...pipelines.values()].map((p) => p.exec().catch(() => undefined)));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  async read(tenantId: string, now = Date.now()): Promise<Record<keyof typeof WINDOWS, UsageWindow>> {
    await this.flush();
    const out = {} as Record<keyof typeof WINDOWS, UsageWindow>;
    for (const [name, ms] of Object.entries(WINDOWS) as [keyof typeof WINDOWS, number][]) {
      const index = windowIndex(now, ms);
      let requests: number;
      let bytes: number;
      if (this.redis) {
        const hash = await this.redis
          .hgetall(`usage:{${tenantId}}:${name}:${index}`)
          .catch((): Record<string, string> => ({}));
        requests = Number(hash.requests ?? 0);
        bytes = Number(hash.bytes ?? 0);
      } else {
        const entry = this.memory.get(`${tenantId}:${name}:${index}`);
        requests = entry?.requests ?? 0;
        bytes = entry?.bytes ?? 0;
      }
      out[name] = {
        requests,
        response_bytes: bytes,
        window_start: new Date(index * ms).toISOString(),
        window_end: new Date((index + 1) * ms).toISOString(),
      };
    }
    return out;
  }
}
