import type { Plan } from '../tenancy/tenant.entity';

export interface Quota {
  /** Sustained requests per minute (the bucket's refill rate). */
  rpm: number;
  perDay: number;
  /** Capacity of the minute bucket: the instantaneous peak above the average. */
  burst: number;
}

/** Plan quotas of the specification (Enterprise: 6,000 and more; custom values by `tenant:quota`). */
export const PLAN_QUOTAS: Record<Plan, Quota> = {
  starter: { rpm: 60, perDay: 50_000, burst: 100 },
  growth: { rpm: 600, perDay: 500_000, burst: 1_000 },
  business: { rpm: 3_000, perDay: 5_000_000, burst: 5_000 },
  enterprise: { rpm: 6_000, perDay: 50_000_000, burst: 10_000 },
};

/** Stricter endpoint quotas, per token (specification, Limits). */
export const ENDPOINT_QUOTAS = {
  donations: { limit: 30, windowMs: 60_000 },
  notifications: { limit: 100, windowMs: 60_000 },
  tokens: { limit: 10, windowMs: 3_600_000 },
  reports: { limit: 30, windowMs: 60_000 },
} as const;

export type EndpointQuota = keyof typeof ENDPOINT_QUOTAS;

export interface QuotaOverride {
  rpm: number | null;
  perDay: number | null;
  burst: number | null;
  until: Date | null;
}

/** The plan's quota, raised by a temporary override while it has not ended. */
export function effectiveQuota(plan: Plan, override: QuotaOverride | null, now = Date.now()): Quota {
  const base = PLAN_QUOTAS[plan] ?? PLAN_QUOTAS.starter;
  if (!override || (override.until && override.until.getTime() <= now)) return base;
  return { rpm: override.rpm ?? base.rpm, perDay: override.perDay ?? base.perDay, burst: override.burst ?? base.burst };
}
