import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AppConfigModule } from '../../config/config.module';
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

/**
 * Background jobs (see jobs.service.ts) and, with REDIS_URL, BullMQ: one connection from the
 * configuration and one queue per kind of work. Without REDIS_URL nothing of BullMQ is loaded and
 * the API process runs the jobs (InProcessJobs). Global, so any module may enqueue.
 *
 * The producers' connection fails fast (no offline queue): a request never waits on an
 * unreachable Redis, the sweeper hands over what was missed. BullMQ makes its workers' blocking
 * connections wait for Redis by itself.
 */
@Module({})
export class JobsModule {
  static forRoot(config: AppConfig): DynamicModule {
    const bull = config.REDIS_URL
      ? [
          BullModule.forRootAsync({
            imports: [AppConfigModule],
            inject: [APP_CONFIG],
            useFactory: (c: AppConfig) => ({
              connection: { url: c.REDIS_URL, connectionName: 'church-api-queues', enableOfflineQueue: false },
              prefix: c.QUEUE_PREFIX,
            }),
          }),
          BullModule.registerQueue(...Object.values(QUEUES).map((name) => ({ name }))),
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
