import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { ConnectionOptions } from 'bullmq';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { createRedisClient, queueConnection, RedisClient } from './redis-connection';

/** DI token of the shared Redis client (rate limits, usage, list totals); null without Redis. */
export const REDIS = 'REDIS';
/** DI token of BullMQ's connection (redis-connection.ts, queueConnection); null without Redis. */
export const QUEUE_CONNECTION = 'QUEUE_CONNECTION';

const isClient = (connection: ConnectionOptions | null): connection is RedisClient =>
  connection !== null && typeof (connection as { disconnect?: unknown }).disconnect === 'function';

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
      useFactory: (config: AppConfig): RedisClient | null => {
        const redis = createRedisClient(config, {
          maxRetriesPerRequest: 1,
          enableOfflineQueue: false,
          commandTimeout: 500,
          connectionName: 'church-api',
        });
        redis?.on('error', () => undefined); // each caller reports its own (throttled) failure
        return redis;
      },
    },
    {
      provide: QUEUE_CONNECTION,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): ConnectionOptions | null => {
        const connection = queueConnection(config);
        // A shared client's errors reach the queues' listeners (QueueConnections); this one keeps ioredis quiet.
        if (isClient(connection)) connection.on('error', () => undefined);
        return connection;
      },
    },
  ],
  exports: [REDIS, QUEUE_CONNECTION],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(
    @Inject(REDIS) private readonly redis: RedisClient | null,
    @Inject(QUEUE_CONNECTION) private readonly queues: ConnectionOptions | null,
  ) {}

  /**
   * BullMQ leaves a shared client open, so it is closed here. Whichever module shuts down first,
   * the workers have stopped by now (QueueWorkers, on module destroy) and a queue's close sends
   * nothing on a shared client.
   */
  onApplicationShutdown(): void {
    this.redis?.disconnect();
    if (isClient(this.queues)) this.queues.disconnect();
  }
}
