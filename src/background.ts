import type { INestApplicationContext } from '@nestjs/common';
import { loadConfig } from './config/app-config';
import { DailyJobs } from './platform/jobs/daily-jobs';
import { InProcessJobs } from './platform/jobs/in-process-jobs';
import { JobSweeper } from './platform/jobs/job-sweeper';
import { QueueWorkers } from './platform/jobs/queue-workers';
import { DeliverySweeper } from './platform/outbox/delivery/delivery-sweeper';
import { InProcessDeliveries } from './platform/outbox/delivery/in-process-deliveries';
import { redisConfigured } from './platform/redis/redis-connection';

/**
 * Background work, started once the database is connected. With Redis the worker process runs
 * the BullMQ consumers, the sweepers and the daily schedule; without it, the API process runs the
 * same work in-process from the database tables.
 */
export function startBackground(app: INestApplicationContext, role: 'api' | 'worker'): void {
  const redis = redisConfigured(loadConfig());
  if (!redis) {
    app.get(InProcessDeliveries).start();
    app.get(InProcessJobs).start();
    app.get(DailyJobs).start();
    return;
  }
  if (role === 'worker') {
    app.get(QueueWorkers).start();
    app.get(DeliverySweeper).start();
    app.get(JobSweeper).start();
    app.get(DailyJobs).start();
  }
}
