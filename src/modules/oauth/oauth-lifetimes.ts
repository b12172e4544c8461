import { TOKEN_LIFETIME_MS } from '../../platform/auth/token-lifetimes';

/** Lifetimes of CONTRACT §14 and the specification: code 10 minutes, access token 1 hour, refresh token 30 days. */
export const CODE_LIFETIME_MS = 10 * 60_000;
export const ACCESS_TOKEN_LIFETIME_MS = TOKEN_LIFETIME_MS.oauth!;
export const REFRESH_TOKEN_LIFETIME_MS = 30 * 86_400_000;

/**
 * How long a rotated refresh token may still be presented (two tabs refreshing at once): within it,
 * a second refresh with the same token gets a fresh pair of the same family; after it, a reuse is
 * treated as a theft and revokes the family.
 */
export const REFRESH_REUSE_GRACE_MS = 10_000;
