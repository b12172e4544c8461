/** One counter a request draws from: a token bucket (refilling) or a fixed window. */
export interface BucketSpec {
  name: string;
  key: string;
  kind: 'bucket' | 'window';
  limit: number;
  /** Window length; for a token bucket, the time to refill it from empty to `limit`. */
  windowMs: number;
}

export interface BucketState {
  name: string;
  limit: number;
  remaining: number;
  /** Milliseconds until the window resets, or until the bucket is full again. */
  resetMs: number;
  /** Milliseconds until one more request would be allowed (0 when it is). */
  retryMs: number;
}

export interface TakeResult {
  allowed: boolean;
  states: BucketState[];
  /** The values of `reads` (null: no such key), read in the same round trip; absent when the store could not read them. */
  reads?: (string | null)[];
}

/**
 * Takes one request from every bucket atomically: either all allow it and each is charged, or
 * none is charged and the request is refused.
 */
export interface RateLimitStore {
  /** `reads`: keys to read along (GET), in the buckets' Redis Cluster slot; a store in process memory reads none. */
  take(buckets: BucketSpec[], now: number, reads?: string[]): Promise<TakeResult>;
}

/** The same arithmetic as the Redis script, in process memory (no Redis configured, or Redis unreachable). */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private readonly tokenBuckets = new Map<string, { tokens: number; at: number }>();

  take(buckets: BucketSpec[], now: number): Promise<TakeResult> {
    this.evict(now);
    const current = buckets.map((b) => {
      if (b.kind === 'window') {
        const w = this.windows.get(b.key);
        return w && w.endsAt > now ? w.count : 0;
      }
      const t = this.tokenBuckets.get(b.key);
      return t ? Math.min(b.limit, t.tokens + ((now - t.at) * b.limit) / b.windowMs) : b.limit;
    });
    const allowed = buckets.every((b, i) => (b.kind === 'window' ? current[i] + 1 <= b.limit : current[i] >= 1));
    const states = buckets.map((b, i): BucketState => {
      if (b.kind === 'window') {
        const count = current[i] + (allowed ? 1 : 0);
        const endsAt = this.windows.get(b.key)?.endsAt ?? windowEnd(now, b.windowMs);
        if (allowed) this.windows.set(b.key, { count, endsAt: endsAt > now ? endsAt : windowEnd(now, b.windowMs) });
        const resetMs = Math.max(0, (endsAt > now ? endsAt : windowEnd(now, b.windowMs)) - now);
        return {
          name: b.name,
          limit: b.limit,
          remaining: Math.max(0, b.limit - count),
          resetMs,
          retryMs: count >= b.limit ? resetMs : 0,
        };
      }
      const tokens = current[i] - (allowed ? 1 : 0);
      if (allowed) this.tokenBuckets.set(b.key, { tokens, at: now });
      const rate = b.limit / b.windowMs;
      return {
        name: b.name,
        limit: b.limit,
        remaining: Math.max(0, Math.floor(tokens)),
        resetMs: Math.ceil((b.limit - tokens) / rate),
        retryMs: tokens >= 1 ? 0 : Math.ceil((1 - tokens) / rate),
      };
    });
    return Promise.resolve({ allowed, states });
  }

  private evict(now: number): void {
    if (this.windows.size + this.tokenBuckets.size < 100_000) return;
    for (const [key, w] of this.windows) if (w.endsAt <= now) this.windows.delete(key);
    this.tokenBuckets.clear();
  }
}

/** Fixed windows are aligned (minute on the minute, day at 00:00 UTC). */
export function windowEnd(now: number, windowMs: number): number {
  return (Math.floor(now / windowMs) + 1) * windowMs;
}

export function windowIndex(now: number, windowMs: number): number {
  return Math.floor(now / windowMs);
}
