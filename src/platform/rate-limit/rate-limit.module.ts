import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { MemoryRateLimitStore, RateLimitStore } from './buckets';
import { UsageMeter } from './usage-meter';
import { UsageController } from './usage.controller';
import { RATE_LIMIT_STORE, THROTTLERS } from './rate-limit.options';
import { RedisRateLimitStore } from './redis-rate-limit.store';
import { RATE_LIMIT_REDIS } from './rate-limit.tokens';


@Global()
@Module({
  imports: [ThrottlerModule.forRoot({ throttlers: THROTTLERS, setHeaders: false })],
  controllers: [UsageController],
  providers: [
    UsageMeter,
    {
      provide: RATE_LIMIT_REDIS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): Redis | null => {
        if (!config.REDIS_URL) return null;
        const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: 500, connectionName: 'church-api-ratelimit' });
        redis.on('error', () => undefined); // reported (throttled) by the store when a call fails
        return redis;
      },
    },
    {
      provide: RATE_LIMIT_STORE,
      inject: [RATE_LIMIT_REDIS],
      useFactory: (redis: Redis | null): RateLimitStore => (redis ? new RedisRateLimitStore(redis) : new MemoryRateLimitStore()),
    },
  ],
  exports: [RATE_LIMIT_STORE, ThrottlerModule, UsageMeter],
})
export class RateLimitModule implements OnApplicationShutdown {
  constructor(@Inject(RATE_LIMIT_REDIS) private readonly redis: Redis | null) {}

  async onApplicationShutdown(): Promise<void> {
    this.redis?.disconnect();
  }
}
