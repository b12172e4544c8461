import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Job, Worker } from 'bullmq';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { queueConnection } from '../queue/queue-connection';
import { MAINTENANCE_QUEUE, MaintenanceQueue, TOKEN_EXPIRY_JOB } from './maintenance.queue';
import { DAILY_HOUR_UTC, nextDailyRun } from './maintenance.schedule';
import { TokenExpiryNotifier } from './token-expiry.notifier';

/**
 * Runs the maintenance jobs in the worker process. With REDIS_URL: a BullMQ worker on the
 * 'maintenance' queue, fed by a daily job scheduler. Without it: an in-process timer that runs the
 * same jobs at start and then daily (safe to overlap: each job is idempotent).
 */
@Injectable()
export class MaintenanceProcessor implements OnModuleDestroy {
  private readonly logger = new Logger('MaintenanceProcessor');
  private worker?: Worker;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queue: MaintenanceQueue,
    private readonly tokenExpiry: TokenExpiryNotifier,
  ) {}

  /** Called once the database is connected (src/worker.ts). */
  async start(): Promise<void> {
    if (!this.config.REDIS_URL) {
      this.logger.log(`REDIS_URL unset: maintenance jobs run in-process at start and daily at ${DAILY_HOUR_UTC}:00 UTC`);
      this.runInProcess();
      return;
    }
    await this.queue.registerSchedulers();
    this.worker = new Worker(MAINTENANCE_QUEUE, (job) => this.process(job), {
      connection: queueConnection(this.config.REDIS_URL, `${MAINTENANCE_QUEUE}-worker`, 'worker'),
      prefix: this.config.QUEUE_PREFIX,
      concurrency: 1,
    });
    this.worker.on('error', (error) => this.logger.error(`Worker connection: ${error.message}`));
    this.worker.on('failed', (job, error) => this.logger.error(`Job ${job?.name} (${job?.id}) failed: ${error.message}`));
    await this.worker.waitUntilReady();
    this.logger.log(`Processing queue '${MAINTENANCE_QUEUE}'`);
  }

  process(job: Job): Promise<unknown> {
    switch (job.name) {
      case TOKEN_EXPIRY_JOB:
        return this.tokenExpiry.run();
      default:
        throw new Error(`Unknown maintenance job '${job.name}'`);
    }
  }

  private runInProcess(): void {
    this.running = this.tokenExpiry
      .run()
      .then(
        () => undefined,
        (error: unknown) => this.logger.error(`In-process ${TOKEN_EXPIRY_JOB} failed: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => {
        if (!this.stopped) this.timer = setTimeout(() => this.runInProcess(), nextDailyRun(new Date()).getTime() - Date.now());
      });
  }

  /** Before the database closes (onApplicationShutdown): lets the running job finish. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.all([this.worker?.close(), this.running]);
  }
}
