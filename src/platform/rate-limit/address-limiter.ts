import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isIP } from 'node:net';
import { AppError } from '../../common/errors/app-error';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { RateLimitStore, windowIndex } from './buckets';
import { RATE_LIMIT_STORE } from './rate-limit.options';
import { setRateLimitHeaders } from './rate-limit.headers';

/** Failed authentications per client address and minute (ten a second). */
export const ANONYMOUS_QUOTA = { limit: 600, windowMs: 60_000 };
const MINUTE_MS = 60_000;

/**
 * The client a request is counted against: an IPv4 address, or the /64 an IPv6 address is in (one
 * subscriber's network: rotating through its addresses buys nothing). The address is Express's
 * `req.ip`, so behind a proxy it is the client only when TRUST_PROXY says how many proxies to trust.
 */
export function clientKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const address = ip.split('%')[0];
  if (address.toLowerCase().startsWith('::ffff:') && isIP(address.slice(7)) === 4) return address.slice(7);
  if (isIP(address) !== 6) return address;
  const [head, tail] = address.includes('::') ? address.split('::') : [address, null];
  const groups = (part: string | null) =>
    (part ? part.split(':') : []).flatMap((g) => (g.includes('.') ? ['0', '0'] : [g]));
  const left = groups(head);
  const right = groups(tail);
  const all = tail === null ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * Buckets per client address, for requests no church is known for: public routes (the OAuth
 * pages and token endpoint, metadata, the OpenAPI document: PUBLIC_RATE_LIMIT a minute) and
 * refusals before authentication (no X-Tenant, no or bad token: ANONYMOUS_QUOTA). Both carry the
 * rate-limit headers and answer 429 with Retry-After past their quota.
 */
@Injectable()
export class AddressLimiter {
  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A request to a public route. */
  chargePublic(req: Request, res: Response): Promise<void> {
    return this.charge('public', this.config.PUBLIC_RATE_LIMIT, req, res);
  }

  /** A request refused before a church is known. */
  chargeAnonymous(req: Request, res: Response): Promise<void> {
    return this.charge('anonymous', ANONYMOUS_QUOTA.limit, req, res);
  }

  private async charge(name: string, limit: number, req: Request, res: Response): Promise<void> {
    const now = Date.now();
    const key = `rl:${name}:${clientKey(req.ip)}:${windowIndex(now, MINUTE_MS)}`;
    const result = await this.store.take([{ name, key, kind: 'window', limit, windowMs: MINUTE_MS }], now);
    setRateLimitHeaders(res, result.states, now, [`"${name}";q=${limit};w=${MINUTE_MS / 1000};pk=ip`]);
    if (!result.allowed) {
      const retryAfter = String(Math.max(1, Math.ceil(result.states[0].retryMs / 1000)));
      throw new AppError('rate_limited', { retry_after: retryAfter }, [], { 'Retry-After': retryAfter });
    }
  }
}
