import { Inject, Injectable, Logger } from '@nestjs/common';
import type { RedisClient } from '../redis/redis-connection';
import { afterCommitOnce, TenantContext } from '../../common/context/tenant-context';
import { newUuid } from '../../common/ids/id';
import { todayUtc, type ListQuery } from '../../common/lists/list-query';
import { REDIS } from '../redis/redis.module';
import { BoundedMap } from '../../common/caching/bounded-map';
import { RequestContext } from '../../common/context/request-context';
import { listVersionKey, PREFETCHED_LIST_VERSION, type WithListVersion } from './list-version';

/** Reads the church's current version of a list and the total cached for it, in one round trip. */
const LOOKUP = `
local version = redis.call('GET', KEYS[1]) or '0'
return { version, redis.call('HGET', KEYS[2] .. version, ARGV[1]) }`;

const TTL_MS = 600_000;
const KNOWN_TOTALS = 10_000;

/** A list's state for one request: its version (changes with every write) and the cached total, if any. */
export interface ListState {
  version: string;
  total: number | null;
  store(total: number): void;
}

/**
 * Exact list totals without a COUNT per request: a total is cached in Redis under the church's
 * version of the list and the request's filters; every committed write replaces the version, so a
 * cached total is never read after the list changed. Without Redis every request counts.
 */
@Injectable()
export class ListTotals {
  private readonly logger = new Logger('ListTotals');
  private lastWarning = 0;
  /**
   * Totals seen in this process, by church, list, version and filters: a version names one state of
   * the list (every write replaces it), so its total never changes, and the version itself is read
   * from Redis on every request.
   */
  private readonly known = new BoundedMap<string, number>(KNOWN_TOTALS);

  constructor(@Inject(REDIS) private readonly redis: RedisClient | null) {
    this.redis?.defineCommand('listTotal', { numberOfKeys: 2, lua: LOOKUP });
  }

  /**
   * The church's current version of a list and the total cached for this request's filters, in
   * one round trip; undefined without Redis (or when it fails): then every request counts.
   */
  async open(resource: string, query: ListQuery): Promise<ListState | undefined> {
    const redis = this.redis;
    if (!redis) return undefined;
    const { tenantId } = TenantContext.current();
    // The UTC day is part of the key: filters such as age[gte] move with the date.
    const signature = `${todayUtc()}|${JSON.stringify(query.filters)}`;
    const hashPrefix = `totals:{${tenantId}}:${resource}:`;
    try {
      const prefetched = (RequestContext.current() as WithListVersion | undefined)?.[PREFETCHED_LIST_VERSION];
      let version: string;
      let cached: string | number | null;
      if (prefetched?.resource === resource) {
        // The version came with the rate limiter's round trip; a total already seen under it is exact.
        version = prefetched.version;
        cached =
          this.known.get(`${hashPrefix}${version}|${signature}`) ?? (await redis.hget(hashPrefix + version, signature));
      } else {
        [version, cached] = await (
          redis as unknown as { listTotal(...a: string[]): Promise<[string, string | null]> }
        ).listTotal(listVersionKey(tenantId, resource), hashPrefix, signature);
      }
      const knownKey = `${hashPrefix}${version}|${signature}`;
      if (cached !== null) this.known.set(knownKey, Number(cached));
      return {
        version,
        total: cached === null ? null : Number(cached),
        store: (total: number) => {
          this.known.set(knownKey, total);
          const key = hashPrefix + version;
          redis
            .multi()
            .hset(key, signature, String(total))
            .pexpire(key, TTL_MS)
            .exec()
            .catch((error: unknown) => this.warn(error));
        },
      };
    } catch (error) {
      this.warn(error);
      return undefined;
    }
  }

  /** After the current transaction commits, the church's cached totals of `resource` are stale. */
  invalidate(resource: string): void {
    const redis = this.redis;
    if (!redis) return;
    const key = listVersionKey(TenantContext.current().tenantId, resource);
    afterCommitOnce(key, async () => {
      // A fresh unique version (not INCR): a lost or reset key can never bring back an old total.
      await redis.set(key, newUuid()).catch((error: unknown) => this.warn(error));
    });
  }

  private warn(error: unknown): void {
    if (Date.now() - this.lastWarning < 30_000) return;
    this.lastWarning = Date.now();
    this.logger.warn(`Redis unavailable for list totals (${String(error)}); counting instead`);
  }
}
