import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { RecurringWork } from '../../common/background/recurring-work';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { JobRegistry } from './job-registry';
import { JobRunner } from './job-runner';
import { JobsRepository } from './jobs.repository';
import { redisConfigured } from '../redis/redis-connection';

const TICK_MS = 1_000;
/** Jobs run at once in this process (the API's pool also serves requests). */
const CONCURRENCY = 4;

/**
 * Without Redis, background jobs run in the API process from the job tables: the same runner,
 * only the scheduler differs (as webhook deliveries do). Polls every second and right after a job
 * is enqueued; retries wait for their `run_at`.
 */
@Injectable()
export class InProcessJobs implements OnModuleDestroy {
  private readonly logger = new Logger('Jobs');
  private readonly task = new RecurringWork(
    () => this.drain(),
    (error) => this.logger.warn(`in-process jobs: ${String(error)}`),
  );

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: JobsRepository,
    private readonly runner: JobRunner,
    private readonly registry: JobRegistry,
  ) {}

  start(): void {
    if (this.task.started || redisConfigured(this.config)) return;
    this.task.start(TICK_MS);
    this.logger.log('no Redis (REDIS_URL, REDIS_CLUSTER_NODES): background jobs run in-process from the job tables');
    this.task.kick();
  }

  kick(): void {
    if (this.task.started) this.task.kick();
  }

  /** Runs what is due, a few at a time; each failure is already recorded on its job by the runner. */
  private async drain(): Promise<void> {
    for (let round = 0; round < 20 && this.task.started; round++) {
      const due = await this.repository.due(0, CONCURRENCY, this.registry.kinds());
      if (due.length === 0) return;
      await Promise.allSettled(due.map((job) => this.runner.run({ id: job.id, tenantId: job.tenant_id })));
    }
  }

  /** Before the database closes (onApplicationShutdown): lets running jobs finish. */
  onModuleDestroy(): Promise<void> {
    return this.task.stop();
  }
}
