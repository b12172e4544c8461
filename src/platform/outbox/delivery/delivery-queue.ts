import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { currentTraceMetadata } from '../../../common/telemetry/tracing';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { QUEUES } from '../../jobs/queues';
import { redisConfigured } from '../../redis/redis-connection';

export const DELIVERY_QUEUE = QUEUES.webhookDeliveries;

/** A job names a delivery attempt by ids only: never a secret, never the payload. */
export interface DeliveryRef {
  tenantId: string;
  deliveryId: string;
  /** Lets the worker see a busy endpoint before touching the database (absent in jobs of older versions). */
  endpointId?: string;
  /** Attempts already made; the job performs attempt `attempt + 1`. */
  attempt: number;
}

/** An attempt to add, after `delayMs`, in the trace `trace` (see `enqueueEach`). */
export interface QueuedAttempt {
  ref: DeliveryRef;
  delayMs: number;
  trace?: string;
}

/** The BullMQ queue of delivery attempts (producer side); absent without Redis. */
@Injectable()
export class DeliveryQueue {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @InjectQueue(DELIVERY_QUEUE) private readonly queue?: Queue<DeliveryRef>,
  ) {}

  get enabled(): boolean {
    return redisConfigured(this.config);
  }

  /**
   * jobId = delivery + attempt: adding a live attempt again (sweeper, retries) is a no-op. Finished
   * jobs are removed, so the sweeper can re-add an attempt whose job failed.
   */
  async enqueue(refs: DeliveryRef[], delayMs = 0, trace = currentTraceMetadata()): Promise<void> {
    await this.enqueueEach(refs.map((ref) => ({ ref, delayMs, trace })));
  }

  /**
   * Several attempts, each with its own delay, in one round trip. `trace` (tracing on): the trace
   * context of the request or job that asked for the attempt, taken when it asked; batched with
   * other callers' attempts, each job still continues its own trace in the worker.
   */
  async enqueueEach(items: QueuedAttempt[]): Promise<void> {
    if (!items.length) return;
    if (!this.queue) throw new Error('DeliveryQueue used without Redis');
    await this.queue.addBulk(
      items.map(({ ref, delayMs, trace }) => ({
        name: 'deliver',
        data: ref,
        opts: {
          jobId: `${ref.deliveryId}-${ref.attempt}`,
          delay: delayMs,
          removeOnComplete: true,
          removeOnFail: true,
          ...(trace ? { telemetry: { metadata: trace } } : {}),
        },
      })),
    );
  }
}
