import type { ApiTokenType } from './api-token.entity';

const DAY_MS = 86_400_000;

/** Lifetimes from the specification: PAT 90 days, service token 1 year, OAuth access 1 hour; kiosk keys never expire. */
export const TOKEN_LIFETIME_MS: Record<ApiTokenType, number | null> = {
  pat: 90 * DAY_MS,
  service: 365 * DAY_MS,
  oauth: 3_600_000,
  kiosk: null,
};

export function expiryFor(type: ApiTokenType, from = new Date()): Date | null {
  const lifetime = TOKEN_LIFETIME_MS[type];
  return lifetime === null ? null : new Date(from.getTime() + lifetime);
}
