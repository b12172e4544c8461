import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { JobRegistry } from './job-registry';
import { JobsRepository } from './jobs.repository';
import { JobsService } from './jobs.service';

const EVERY_MS = 5_000;
/** A job this late has lost its BullMQ job (Redis was down at commit, a crash, a lapsed lease). */
const OVERDUE_MS = 10_000;

/** In the worker: hands overdue jobs to their queues again; the job id makes a live job's re-add a no-op. */
@Injectable()
export class JobSweeper implements OnModuleDestroy {
  private readonly logger = new Logger('JobSweeper');
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: JobsRepository,
    private readonly jobs: JobsService,
    private readonly registry: JobRegistry,
  ) {}

  start(): void {
    if (this.timer || !this.config.REDIS_URL) return;
    this.timer = setInterval(() => void this.sweep(), EVERY_MS);
  }

  async sweep(): Promise<number> {
    if (this.running) return 0;
    this.running = this.sweepOnce().finally(() => (this.running = undefined));
    return this.running;
  }

  private async sweepOnce(): Promise<number> {
    try {
      const due = await this.repository.due(OVERDUE_MS, 500, this.registry.kinds());
      if (due.length) {
        await this.jobs.dispatch(due);
        this.logger.log(`re-enqueued ${due.length} overdue background jobs`);
      }
      return due.length;
    } catch (error) {
      this.logger.warn(`sweep failed (will retry): ${String(error)}`);
      return 0;
    }
  }

  /** Before the queues and the database close: lets a running sweep finish. */
  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
