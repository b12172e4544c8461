import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { RecurringWork } from '../../../common/background/recurring-work';
import { DeliveryQueue } from './delivery-queue';
import { DueDeliveries } from './due-deliveries';
import { HealthNotices } from './health-notices';

const EVERY_MS = 5_000;
/** A delivery this late has lost its job (Redis was down at commit, or a crash between commit and enqueue). */
const OVERDUE_MS = 10_000;

/**
 * In the worker: re-enqueues deliveries left pending (job ids make a re-enqueue of a live job a
 * no-op) and gives the health notices left behind.
 */
@Injectable()
export class DeliverySweeper implements OnModuleDestroy {
  private readonly logger = new Logger('WebhookSweeper');
  private readonly task = new RecurringWork(
    () => this.sweepOnce(),
    (error) => this.logger.warn(`sweep failed (will retry): ${String(error)}`),
  );

  constructor(
    private readonly due: DueDeliveries,
    private readonly queue: DeliveryQueue,
    private readonly notices: HealthNotices,
  ) {}

  start(): void {
    if (this.queue.enabled) this.task.start(EVERY_MS);
  }

  /** Deliveries re-enqueued (0 when a sweep is already running). */
  async sweep(): Promise<number> {
    return (await this.task.runOnce()) ?? 0;
  }

  private async sweepOnce(): Promise<number> {
    const refs = await this.due.find(OVERDUE_MS, 1000);
    if (refs.length) await this.queue.enqueue(refs);
    if (refs.length) this.logger.log(`re-enqueued ${refs.length} overdue deliveries`);
    for (const [tenantId, endpointIds] of await this.due.staleNotices(OVERDUE_MS, 100))
      await this.notices.give(tenantId, endpointIds);
    return refs.length;
  }

  /** Before the queue and the database close (onApplicationShutdown): lets a running sweep finish. */
  onModuleDestroy(): Promise<void> {
    return this.task.stop();
  }
}
