import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { DeliveryQueue } from './delivery-queue';
import { DueDeliveries } from './due-deliveries';

const EVERY_MS = 5_000;
/** A delivery this late has lost its job (Redis was down at commit, or a crash between commit and enqueue). */
const OVERDUE_MS = 10_000;

/** In the worker: re-enqueues deliveries left pending. Job ids make a re-enqueue of a live job a no-op. */
@Injectable()
export class DeliverySweeper implements OnModuleDestroy {
  private readonly logger = new Logger('WebhookSweeper');
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    private readonly due: DueDeliveries,
    private readonly queue: DeliveryQueue,
  ) {}

  start(): void {
    if (this.timer || !this.queue.enabled) return;
    this.timer = setInterval(() => void this.sweep(), EVERY_MS);
  }

  async sweep(): Promise<number> {
    if (this.running) return 0;
    this.running = this.sweepOnce().finally(() => (this.running = undefined));
    return this.running;
  }

  private async sweepOnce(): Promise<number> {
    try {
      const refs = await this.due.find(OVERDUE_MS, 1000);
      if (refs.length) await this.queue.enqueue(refs);
      if (refs.length) this.logger.log(`re-enqueued ${refs.length} overdue deliveries`);
      return refs.length;
    } catch (error) {
      this.logger.warn(`sweep failed (will retry): ${String(error)}`);
      return 0;
    }
  }

  /** Before the queue and the database close (onApplicationShutdown): lets a running sweep finish. */
  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
