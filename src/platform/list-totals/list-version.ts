import { SetMetadata } from '@nestjs/common';

export const LIST_VERSION = 'list-totals:version';

/**
 * The route reads the church's version of list `resource` (ListTotals.open): the rate limiter reads
 * it in its own round trip to Redis, and the handler then needs none while the total for that
 * version is known in process.
 */
export const ReadsListVersion = (resource: string) => SetMetadata(LIST_VERSION, resource);

/** The Redis key of a church's version of a list (replaced by every committed write to it). */
export const listVersionKey = (tenantId: string, resource: string): string => `totals:{${tenantId}}:${resource}:v`;

/** Where the rate limiter leaves the version it read, on the request. */
export const PREFETCHED_LIST_VERSION = Symbol('prefetchedListVersion');

export interface PrefetchedListVersion {
  resource: string;
  version: string;
}

export type WithListVersion = { [PREFETCHED_LIST_VERSION]?: PrefetchedListVersion };
