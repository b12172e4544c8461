import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  ThrottlerModuleOptions,
  ThrottlerStorage,
} from '@nestjs/throttler';
import type { Response } from 'express';
import { AppError } from '../../common/errors/app-error';
import { ADDRESS_LIMIT_METADATA, AUTH_METADATA, RouteAccess } from '../auth/auth.decorator';
import type { AuthRequest } from '../auth/principal';
import { AddressLimiter } from './address-limiter';
import { BucketSpec, RateLimitStore, windowIndex } from './buckets';
import { RATE_LIMIT_STORE, throttlerPlan } from './rate-limit.options';
import { setRateLimitHeaders } from './rate-limit.headers';
import {
  LIST_VERSION,
  listVersionKey,
  PREFETCHED_LIST_VERSION,
  type WithListVersion,
} from '../list-totals/list-version';

/**
 * Plan quotas per church (minute bucket with burst, day window) and endpoint quotas per token,
 * as named throttlers of @nestjs/throttler; public routes per client address (AddressLimiter). All of a request's throttlers are charged in one
 * atomic store call, and the answer carries the rate-limit headers, 429 included.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    private readonly addresses: AddressLimiter,
  ) {
    super(options, storage, reflector);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<RouteAccess | undefined>(AUTH_METADATA, [
      context.getHandler(),
      context.getClass(),
    ]);
    const req = context.switchToHttp().getRequest<AuthRequest>();
    if (access === 'public') {
      if (this.reflector.get<boolean>(ADDRESS_LIMIT_METADATA, context.getHandler()))
        await this.addresses.chargePublic(req, context.switchToHttp().getResponse<Response>());
      return true;
    }
    if (!access || !req.principal) return true;
    const now = Date.now();
    const buckets: BucketSpec[] = [];
    const policies: string[] = [];
    for (const throttler of this.throttlers) {
      const plan = throttlerPlan(throttler.name!, req.principal, access);
      if (!plan) continue;
      const tracker = plan.per === 'token' ? `tok:${req.principal.tokenId}` : `church:${req.principal.tenantId}`;
      const suffix = plan.kind === 'window' ? `:${windowIndex(now, plan.windowMs)}` : '';
      // {tenant} is a Redis Cluster hash tag: a request's keys live in one slot, so one script runs on them.
      buckets.push({
        name: plan.name,
        key: `rl:{${req.principal.tenantId}}:${plan.name}:${tracker}${suffix}`,
        kind: plan.kind,
        limit: plan.limit,
        windowMs: plan.windowMs,
      });
      policies.push(plan.policy);
    }
    // A list route's version rides along (ListTotals.open then needs no round trip of its own).
    const list = this.reflector.get<string | undefined>(LIST_VERSION, context.getHandler());
    const result = await this.store.take(
      buckets,
      now,
      list ? [listVersionKey(req.principal.tenantId, list)] : undefined,
    );
    if (list && result.reads)
      (req as AuthRequest & WithListVersion)[PREFETCHED_LIST_VERSION] = {
        resource: list,
        version: result.reads[0] ?? '0',
      };
    const res = context.switchToHttp().getResponse<Response>();
    setRateLimitHeaders(res, result.states, now, policies);
    if (!result.allowed) {
      const retryMs = Math.max(...result.states.map((s) => s.retryMs));
      const retryAfter = String(Math.max(1, Math.ceil(retryMs / 1000)));
      throw new AppError('rate_limited', { retry_after: retryAfter }, [], { 'Retry-After': retryAfter });
    }
    return true;
  }
}
