import type { ThrottlerOptions } from '@nestjs/throttler';
import type { RouteAccess } from '../auth/auth.decorator';
import type { Principal } from '../auth/principal';
import { effectiveQuota, ENDPOINT_QUOTAS } from './quotas';

export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');

/** The named throttlers. Their limits depend on the church's plan, resolved per request by throttlerPlan. */
export const THROTTLERS: ThrottlerOptions[] = [
  { name: 'minute', limit: 0, ttl: 60_000 },
  { name: 'day', limit: 0, ttl: 86_400_000 },
  { name: 'endpoint', limit: 0, ttl: 60_000 },
];

export interface ThrottlerPlan {
  name: string;
  kind: 'bucket' | 'window';
  per: 'church' | 'token';
  limit: number;
  windowMs: number;
  policy: string;
}

/**
 * minute: a token bucket per church holding `burst` requests, refilled at the plan's rate per
 * minute. day: a fixed window per church (00:00 UTC). endpoint: the route's stricter quota, per token.
 */
export function throttlerPlan(
  name: string,
  principal: Principal,
  access: Exclude<RouteAccess, 'public'>,
): ThrottlerPlan | null {
  const quota = effectiveQuota(principal.tenantPlan, principal.quotaOverride);
  switch (name) {
    case 'minute':
      return {
        name,
        kind: 'bucket',
        per: 'church',
        limit: quota.burst,
        windowMs: (quota.burst * 60_000) / quota.rpm,
        policy: `"minute";q=${quota.rpm};w=60;burst=${quota.burst}`,
      };
    case 'day':
      return {
        name,
        kind: 'window',
        per: 'church',
        limit: quota.perDay,
        windowMs: 86_400_000,
        policy: `"day";q=${quota.perDay};w=86400`,
      };
    case 'endpoint': {
      if (!access.quota) return null;
      const q = ENDPOINT_QUOTAS[access.quota];
      return {
        name: access.quota,
        kind: 'window',
        per: 'token',
        limit: q.limit,
        windowMs: q.windowMs,
        policy: `"${access.quota}";q=${q.limit};w=${q.windowMs / 1000};pk=token`,
      };
    }
    default:
      return null;
  }
}
