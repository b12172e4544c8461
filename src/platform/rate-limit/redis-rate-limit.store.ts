import { Logger } from '@nestjs/common';
import type { RedisClient } from '../redis/redis-connection';
import { BucketSpec, MemoryRateLimitStore, RateLimitStore, TakeResult, windowEnd } from './buckets';

/**
 * All of a request's buckets in one atomic Lua call (one round trip). A refused request charges
 * nothing. KEYS: one per bucket, then the keys to read along; ARGV: now, then kind ('w' window |
 * 'b' bucket), limit, windowMs, windowEnd per bucket. Returns allowed, then remaining, resetMs,
 * retryMs per bucket, then the value of each key read (nil when absent).
 */
const SCRIPT = `
local now = tonumber(ARGV[1])
local n = (#ARGV - 1) / 4
local cur = {}
local allowed = 1
for i = 1, n do
  local base = 1 + (i - 1) * 4
  local kind, limit, win = ARGV[base + 1], tonumber(ARGV[base + 2]), tonumber(ARGV[base + 3])
  if kind == 'w' then
    cur[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
    if cur[i] + 1 > limit then allowed = 0 end
  else
    local h = redis.call('HMGET', KEYS[i], 't', 'at')
    local tokens, at = tonumber(h[1]), tonumber(h[2])
    if tokens == nil then tokens = limit; at = now end
    cur[i] = math.min(limit, tokens + (now - at) * limit / win)
    if cur[i] < 1 then allowed = 0 end
  end
end
local out = { allowed }
for i = 1, n do
  local base = 1 + (i - 1) * 4
  local kind, limit, win, wend = ARGV[base + 1], tonumber(ARGV[base + 2]), tonumber(ARGV[base + 3]), tonumber(ARGV[base + 4])
  if kind == 'w' then
    local count = cur[i]
    if allowed == 1 then
      count = redis.call('INCR', KEYS[i])
      if count == 1 then redis.call('PEXPIREAT', KEYS[i], wend) end
    end
    local reset = wend - now
    local retry = 0
    if count >= limit then retry = reset end
    table.insert(out, math.max(0, limit - count)); table.insert(out, reset); table.insert(out, retry)
  else
    local tokens = cur[i]
    if allowed == 1 then
      tokens = tokens - 1
      redis.call('HSET', KEYS[i], 't', tostring(tokens), 'at', tostring(now))
      redis.call('PEXPIRE', KEYS[i], math.ceil(win) + 1000)
    end
    local rate = limit / win
    local retry = 0
    if tokens < 1 then retry = math.ceil((1 - tokens) / rate) end
    table.insert(out, math.floor(tokens)); table.insert(out, math.ceil((limit - tokens) / rate)); table.insert(out, retry)
  end
end
for i = n + 1, #KEYS do table.insert(out, redis.call('GET', KEYS[i]) or false) end
return out`;

const LOG_EVERY_MS = 30_000;

export class RedisRateLimitStore implements RateLimitStore {
  private readonly logger = new Logger('RateLimit');
  private readonly fallback = new MemoryRateLimitStore();
  private lastWarning = 0;

  constructor(private readonly redis: RedisClient) {
    this.redis.defineCommand('takeBuckets', { lua: SCRIPT });
  }

  async take(buckets: BucketSpec[], now: number, reads: string[] = []): Promise<TakeResult> {
    try {
      const args: (string | number)[] = [now];
      for (const b of buckets)
        args.push(b.kind === 'window' ? 'w' : 'b', b.limit, b.windowMs, windowEnd(now, b.windowMs));
      const raw = await (
        this.redis as unknown as {
          takeBuckets(n: number, ...a: (string | number)[]): Promise<(number | string | null)[]>;
        }
      ).takeBuckets(buckets.length + reads.length, ...buckets.map((b) => b.key), ...reads, ...args);
      const numbers = raw as number[];
      return {
        allowed: numbers[0] === 1,
        states: buckets.map((b, i) => ({
          name: b.name,
          limit: b.limit,
          remaining: numbers[1 + i * 3],
          resetMs: numbers[2 + i * 3],
          retryMs: numbers[3 + i * 3],
        })),
        reads: raw.slice(1 + buckets.length * 3).map((v) => (v === null ? null : String(v))),
      };
    } catch (error) {
      if (now - this.lastWarning > LOG_EVERY_MS) {
        this.lastWarning = now;
        this.logger.warn(`Redis unavailable for rate limiting (${String(error)}); applying per-process limits`);
      }
      return this.fallback.take(buckets, now);
    }
  }
}
