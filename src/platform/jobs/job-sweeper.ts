import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { RecurringWork } from '../../common/background/recurring-work';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { JobRegistry } from './job-registry';
import { JobsRepository } from './jobs.repository';
import { JobsService } from './jobs.service';
import { redisConfigured } from '../redis/redis-connection';

const EVERY_MS = 5_000;
/** A job this late has lost its BullMQ job (Redis was down at commit, a crash, a lapsed lease). */
const OVERDUE_MS = 10_000;

/** In the worker: hands overdue jobs to their queues again; the job id makes a live job's re-add a no-op. */
@Injectable()
export class JobSweeper implements OnModuleDestroy {
  private readonly logger = new Logger('JobSweeper');
  private readonly task = new RecurringWork(
    () => this.sweepOnce(),
    (error) => this.logger.warn(`sweep failed (will retry): ${String(error)}`),
  );

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: JobsRepository,
    private readonly jobs: JobsService,
    private readonly registry: JobRegistry,
  ) {}

  start(): void {
    if (redisConfigured(this.config)) this.task.start(EVERY_MS);
  }

  /** Jobs handed over (0 when a sweep is already running). */
  async sweep(): Promise<number> {
    return (await this.task.runOnce()) ?? 0;
  }

  private async sweepOnce(): Promise<number> {
    const due = await this.repository.due(OVERDUE_MS, 500, this.registry.kinds());
    if (due.length) {
      await this.jobs.dispatch(due);
      this.logger.log(`re-enqueued ${due.length} overdue background jobs`);
    }
    return due.length;
  }

  /** Before the queues and the database close: lets a running sweep finish. */
  onModuleDestroy(): Promise<void> {
    return this.task.stop();
  }
}
