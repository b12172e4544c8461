import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError } from '../../common/errors/app-error';
import { RateLimitStore, windowIndex } from './buckets';
import { RATE_LIMIT_STORE } from './rate-limit.options';
import { setRateLimitHeaders } from './rate-limit.headers';

/** Failed authentications per client address and minute (ten a second). */
export const ANONYMOUS_QUOTA = { limit: 600, windowMs: 60_000 };

/**
 * Requests refused before a church is known (no X-Tenant, no or bad token) still draw from a
 * bucket, per client address, and carry the rate-limit headers; past the quota they get a 429.
 */
@Injectable()
export class AnonymousLimiter {
  constructor(@Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore) {}

  async charge(req: Request, res: Response): Promise<void> {
    const now = Date.now();
    const { limit, windowMs } = ANONYMOUS_QUOTA;
    const key = `rl:anon:${req.ip ?? 'unknown'}:${windowIndex(now, windowMs)}`;
    const result = await this.store.take([{ name: 'anonymous', key, kind: 'window', limit, windowMs }], now);
    setRateLimitHeaders(res, result.states, now, [`"anonymous";q=${limit};w=${windowMs / 1000};pk=ip`]);
    if (!result.allowed) {
      const retryAfter = String(Math.max(1, Math.ceil(result.states[0].retryMs / 1000)));
      throw new AppError('rate_limited', { retry_after: retryAfter }, [], { 'Retry-After': retryAfter });
    }
  }
}
