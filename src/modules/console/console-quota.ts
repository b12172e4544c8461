import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { RateLimitStore, windowIndex } from '../../platform/rate-limit/buckets';
import { ENDPOINT_QUOTAS } from '../../platform/rate-limit/quotas';
import { RATE_LIMIT_STORE } from '../../platform/rate-limit/rate-limit.options';
import type { ConsoleSession } from './console-sessions.service';

/**
 * The endpoint quota of `POST /v1/auth/tokens` (10 an hour), for the console's token forms: the API
 * counts it per token, the console per staff member (no token stands behind a session), in the
 * same store. Over it: 429 `rate_limited`, as the route answers.
 */
@Injectable()
export class ConsoleQuota {
  constructor(@Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore) {}

  async chargeTokenCreation(session: ConsoleSession): Promise<void> {
    const { limit, windowMs } = ENDPOINT_QUOTAS.tokens;
    const now = Date.now();
    const key = `rl:{${session.tenantId}}:tokens:console:${session.userId}:${windowIndex(now, windowMs)}`;
    const result = await this.store.take([{ name: 'tokens', key, kind: 'window', limit, windowMs }], now);
    if (result.allowed) return;
    const retryAfter = String(Math.max(1, Math.ceil(Math.max(...result.states.map((s) => s.retryMs)) / 1000)));
    throw new AppError('rate_limited', { retry_after: retryAfter }, [], { 'Retry-After': retryAfter });
  }
}
