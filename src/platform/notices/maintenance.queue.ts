import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { JobsOptions, Queue } from 'bullmq';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { queueConnection } from '../queue/queue-connection';
import { DAILY_PATTERN } from './maintenance.schedule';

export const MAINTENANCE_QUEUE = 'maintenance';
export const TOKEN_EXPIRY_JOB = 'token-expiry';
export const TOKEN_EXPIRY_SCHEDULER = 'token-expiry-daily';

/** Scheduled runs retry a failed notice a few times within the day; jobs carry no data. */
const SCHEDULED_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 5 * 60_000 },
  removeOnComplete: { count: 30 },
  removeOnFail: { count: 100 },
};

/** The 'maintenance' queue (daily platform chores), created on first use; null without REDIS_URL. */
@Injectable()
export class MaintenanceQueue implements OnApplicationShutdown {
  private readonly logger = new Logger('MaintenanceQueue');
  private queue?: Queue;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get(): Queue | null {
    if (!this.config.REDIS_URL) return null;
    if (!this.queue) {
      this.queue = new Queue(MAINTENANCE_QUEUE, { connection: queueConnection(this.config.REDIS_URL, `${MAINTENANCE_QUEUE}-queue`, 'producer'), prefix: this.config.QUEUE_PREFIX });
      this.queue.on('error', (error) => this.logger.error(`Queue connection: ${error.message}`));
    }
    return this.queue;
  }

  /** Idempotent: every worker upserts the same schedulers at start. */
  async registerSchedulers(): Promise<void> {
    const queue = this.get();
    if (!queue) throw new Error('REDIS_URL is not set');
    await queue.upsertJobScheduler(TOKEN_EXPIRY_SCHEDULER, { pattern: DAILY_PATTERN, tz: 'UTC' }, { name: TOKEN_EXPIRY_JOB, data: {}, opts: SCHEDULED_JOB_OPTIONS });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue?.close();
  }
}
