import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../../config/app-config';

/** DI token of the shared Redis client (rate limits, usage, list totals); null without REDIS_URL. */
export const REDIS = 'REDIS';

/**
 * One client per process for the request path. Commands fail fast when Redis is away (no offline
 * queue, 500 ms time-out): every user has a fallback, and no request waits on Redis.
 */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): Redis | null => {
        if (!config.REDIS_URL) return null;
        const redis = new Redis(config.REDIS_URL, {
          maxRetriesPerRequest: 1,
          enableOfflineQueue: false,
          commandTimeout: 500,
          connectionName: 'church-api',
        });
        redis.on('error', () => undefined); // each caller reports its own (throttled) failure
        return redis;
      },
    },
  ],
  exports: [REDIS],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis | null) {}

  onApplicationShutdown(): void {
    this.redis?.disconnect();
  }
}
