import { Inject, Injectable } from '@nestjs/common';
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

/**
 * Requests and response bytes per church, today and this minute. Recorded after the response is
 * sent (off the critical path); a 304 adds a request and no bytes.
 */
@Injectable()
export class UsageMeter {
  private readonly memory = new Map<string, { requests: number; bytes: number; expires: number }>();

  constructor(@Inject(REDIS) private readonly redis: RedisClient | null) {}

  record(tenantId: string, bytes: number, now = Date.now()): void {
    if (this.redis) {
      const pipeline = this.redis.pipeline();
      for (const [name, ms] of Object.entries(WINDOWS)) {
        const key = `usage:{${tenantId}}:${name}:${windowIndex(now, ms)}`;
        pipeline
          .hincrby(key, 'requests', 1)
          .hincrby(key, 'bytes', bytes)
          .pexpireat(key, windowEnd(now, ms) + ms);
      }
      pipeline.exec().catch(() => undefined);
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

  async read(tenantId: string, now = Date.now()): Promise<Record<keyof typeof WINDOWS, UsageWindow>> {
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
