import { Global, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import type { RedisClient } from '../redis/redis-connection';
import { AddressLimiter } from './address-limiter';
import { MemoryRateLimitStore, RateLimitStore } from './buckets';
import { UsageMeter } from './usage-meter';
import { RATE_LIMIT_STORE, THROTTLERS } from './rate-limit.options';
import { RedisRateLimitStore } from './redis-rate-limit.store';
import { REDIS } from '../redis/redis.module';

@Global()
@Module({
  imports: [ThrottlerModule.forRoot({ throttlers: THROTTLERS, setHeaders: false })],
  providers: [
    UsageMeter,
    AddressLimiter,
    {
      provide: RATE_LIMIT_STORE,
      inject: [REDIS],
      useFactory: (redis: RedisClient | null): RateLimitStore =>
        redis ? new RedisRateLimitStore(redis) : new MemoryRateLimitStore(),
    },
  ],
  exports: [RATE_LIMIT_STORE, ThrottlerModule, UsageMeter, AddressLimiter],
})
export class RateLimitModule {}
