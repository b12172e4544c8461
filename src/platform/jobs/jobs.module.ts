import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import type { ConnectionOptions } from 'bullmq';
import { queueTelemetry } from '../../common/telemetry/tracing';
import { DailyJobs } from './daily-jobs';
import { InProcessJobs } from './in-process-jobs';
import { JobRegistry } from './job-registry';
import { JobRunner } from './job-runner';
import { JobSweeper } from './job-sweeper';
import { JobsRepository } from './jobs.repository';
import { JobsService } from './jobs.service';
import { QueueConnections } from './queue-connections';
import { QueueWorkers } from './queue-workers';
import { QUEUES } from './queues';
import { queuePrefix, redisConfigured } from '../redis/redis-connection';
import { QUEUE_CONNECTION } from '../redis/redis.module';

/**
 * Background jobs (see jobs.service.ts) and, with Redis (REDIS_URL or REDIS_CLUSTER_NODES), BullMQ:
 * the connection of RedisModule and one queue per kind of work, each with its prefix (a hash tag
 * of its own on a cluster). Without Redis nothing of BullMQ is loaded and the API process runs the
 * jobs (InProcessJobs). Global, so any module may enqueue.
 *
 * The producers' connection fails fast (no offline queue): a request never waits on an
 * unreachable Redis, the sweeper hands over what was missed. BullMQ makes its workers' blocking
 * connections wait for Redis by itself.
 */
@Module({})
export class JobsModule {
  static forRoot(config: AppConfig): DynamicModule {
    const bull = redisConfigured(config)
      ? [
          BullModule.forRootAsync({
            inject: [APP_CONFIG, QUEUE_CONNECTION],
            useFactory: (c: AppConfig, connection: ConnectionOptions) => ({
              connection,
              prefix: c.QUEUE_PREFIX,
              // With tracing on, jobs carry the trace of the request or job that added them.
              telemetry: queueTelemetry(),
            }),
          }),
          BullModule.registerQueue(
            ...Object.values(QUEUES).map((name) => ({ name, prefix: queuePrefix(config, name) })),
          ),
        ]
      : [];
    return {
      module: JobsModule,
      global: true,
      imports: [DiscoveryModule, ...bull],
      providers: [
        JobsRepository,
        JobRegistry,
        JobRunner,
        JobsService,
        InProcessJobs,
        JobSweeper,
        QueueWorkers,
        QueueConnections,
        DailyJobs,
      ],
      exports: [JobsService, JobRunner, InProcessJobs, JobSweeper, QueueWorkers, DailyJobs, ...bull],
    };
  }
}
