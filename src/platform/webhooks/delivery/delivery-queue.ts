import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { queueConnection } from '../../queue/queue-connection';

export const DELIVERY_QUEUE = 'webhook-deliveries';

/** A job names a delivery attempt by ids only: never a secret, never the payload. */
export interface DeliveryRef {
  tenantId: string;
  deliveryId: string;
  /** Lets the worker see a busy endpoint before touching the database (absent in jobs of older versions). */
  endpointId?: string;
  /** Attempts already made; the job performs attempt `attempt + 1`. */
  attempt: number;
}

/** The BullMQ queue of delivery attempts (producer side); absent without REDIS_URL. */
@Injectable()
export class DeliveryQueue implements OnApplicationShutdown {
  private readonly logger = new Logger('DeliveryQueue');
  private queue?: Queue;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get enabled(): boolean {
    return this.config.REDIS_URL !== undefined;
  }

  /**
   * jobId = delivery + attempt: adding a live attempt again (sweeper, retries) is a no-op. Finished
   * jobs are removed, so the sweeper can re-add an attempt whose job failed.
   */
  async enqueue(refs: DeliveryRef[], delayMs = 0): Promise<void> {
    await this.enqueueEach(refs.map((ref) => ({ ref, delayMs })));
  }

  /** Several attempts, each with its own delay, in one round trip. */
  async enqueueEach(items: { ref: DeliveryRef; delayMs: number }[]): Promise<void> {
    if (!items.length) return;
    await this.open().addBulk(
      items.map(({ ref, delayMs }) => ({
        name: 'deliver',
        data: ref,
        opts: { jobId: `${ref.deliveryId}-${ref.attempt}`, delay: delayMs, removeOnComplete: true, removeOnFail: true },
      })),
    );
  }

  private open(): Queue {
    if (!this.config.REDIS_URL) throw new Error('DeliveryQueue used without REDIS_URL');
    if (!this.queue) {
      this.queue = new Queue(DELIVERY_QUEUE, { connection: queueConnection(this.config.REDIS_URL, `${DELIVERY_QUEUE}-producer`, 'producer'), prefix: this.config.QUEUE_PREFIX });
      this.queue.on('error', (error) => this.logger.warn(`queue connection: ${error.message}`));
    }
    return this.queue;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue?.close().catch(() => undefined);
  }
}
