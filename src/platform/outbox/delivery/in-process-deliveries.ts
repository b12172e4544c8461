import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { RecurringWork } from '../../../common/background/recurring-work';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { DeliveryRunner } from './delivery-runner';
import { DueDeliveries } from './due-deliveries';
import { redisConfigured } from '../../redis/redis-connection';

const TICK_MS = 500;

/**
 * Without Redis, deliveries run in this process from the database outbox: the same runner,
 * only the scheduler differs. Due rows are polled every half second (and right after a commit).
 */
@Injectable()
export class InProcessDeliveries implements OnModuleDestroy {
  private readonly logger = new Logger('Webhooks');
  private readonly task = new RecurringWork(
    () => this.drain(),
    (error) => this.logger.warn(`in-process deliveries: ${String(error)}`),
  );
  private readonly active = new Set<Promise<unknown>>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly due: DueDeliveries,
    private readonly runner: DeliveryRunner,
  ) {}

  start(): void {
    if (this.task.started || redisConfigured(this.config)) return;
    this.task.start(TICK_MS);
    this.logger.log('no Redis (REDIS_URL, REDIS_CLUSTER_NODES): webhook deliveries run in-process from the outbox');
  }

  kick(delayMs = 0): void {
    if (!this.task.started) return;
    if (delayMs > 0) setTimeout(() => this.task.kick(), delayMs).unref();
    else this.task.kick();
  }

  private async drain(): Promise<void> {
    const limit = this.config.WEBHOOK_CONCURRENCY;
    for (let round = 0; round < 20 && this.task.started; round++) {
      const refs = await this.due.find(0, limit * 4);
      if (refs.length === 0) return;
      for (const ref of refs) {
        while (this.active.size >= limit) await Promise.race(this.active);
        const task: Promise<unknown> = this.runner
          .attempt(ref)
          .catch((error: unknown) => this.logger.warn(`delivery ${ref.deliveryId}: ${String(error)}`));
        this.active.add(task);
        void task.finally(() => this.active.delete(task));
      }
      await Promise.all(this.active);
    }
  }

  /** Before the database closes (onApplicationShutdown): lets the running poll and attempts finish. */
  async onModuleDestroy(): Promise<void> {
    await this.task.stop();
    await Promise.allSettled([...this.active]);
  }
}
