import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { JobRegistry } from './job-registry';
import { JobRunner } from './job-runner';
import { JobsRepository } from './jobs.repository';

const TICK_MS = 1_000;
/** Jobs run at once in this process (the API's pool also serves requests). */
const CONCURRENCY = 4;

/**
 * Without REDIS_URL, background jobs run in the API process from the job tables: the
 * same runner, only the scheduler differs (as webhook deliveries do). Polls every second and
 * right after a job is enqueued; retries wait for their `run_at`.
 */
@Injectable()
export class InProcessJobs implements OnModuleDestroy {
  private readonly logger = new Logger('Jobs');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private rerun = false;
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: JobsRepository,
    private readonly runner: JobRunner,
    private readonly registry: JobRegistry,
  ) {}

  start(): void {
    if (this.timer || this.config.REDIS_URL) return;
    this.timer = setInterval(() => this.kick(), TICK_MS);
    this.timer.unref();
    this.logger.log('REDIS_URL unset: background jobs run in-process from the job tables');
    this.kick();
  }

  kick(): void {
    if (!this.timer || this.stopped) return;
    if (this.running) {
      this.rerun = true;
      return;
    }
    this.running = this.drain()
      .catch((error: unknown) => this.logger.warn(`in-process jobs: ${String(error)}`))
      .finally(() => {
        this.running = undefined;
        if (this.rerun && !this.stopped) {
          this.rerun = false;
          this.kick();
        }
      });
  }

  /** Runs what is due, a few at a time; each failure is already recorded on its job by the runner. */
  private async drain(): Promise<void> {
    for (let round = 0; round < 20 && !this.stopped; round++) {
      const due = await this.repository.due(0, CONCURRENCY, this.registry.kinds());
      if (due.length === 0) return;
      await Promise.allSettled(due.map((job) => this.runner.run({ id: job.id, tenantId: job.tenant_id })));
    }
  }

  /** Before the database closes (onApplicationShutdown): lets running jobs finish. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
