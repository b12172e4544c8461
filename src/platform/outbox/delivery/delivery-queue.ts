import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { JobsOptions, Queue } from 'bullmq';
import { newUuid } from '../../../common/ids/id';
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

/**
 * A job of several attempts of one church, due at the same time (first attempts committed together,
 * retries of attempts that failed together): one job's overhead in Redis and the worker instead of
 * one per attempt, and their claims and records in the same round trips.
 */
export interface DeliveryBatch {
  tenantId: string;
  deliveries: Omit<DeliveryRef, 'tenantId'>[];
}

export type DeliveryJobData = DeliveryRef | DeliveryBatch;

/** Most attempts in one batch job. */
export const BATCH_SIZE = 50;

/** The attempts a job names, whatever its shape. */
export function refsOf(data: DeliveryJobData): DeliveryRef[] {
  return 'deliveries' in data ? data.deliveries.map((d) => ({ tenantId: data.tenantId, ...d })) : [data];
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
    @Optional() @InjectQueue(DELIVERY_QUEUE) private readonly queue?: Queue<DeliveryJobData>,
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
        opts: jobOptions(`${ref.deliveryId}-${ref.attempt}`, delayMs, trace),
      })),
    );
  }

  /**
   * Attempts of one church with the same delay (and trace) go in batch jobs of up to BATCH_SIZE; an
   * attempt alone is a job as `enqueueEach` makes it. A batch job's id is its own: an attempt named
   * twice (in a batch and by the sweeper) is sent once, because the claim takes it once.
   */
  async enqueueBatches(items: QueuedAttempt[]): Promise<void> {
    const groups = new Map<string, QueuedAttempt[]>();
    for (const item of items) {
      const key = `${item.ref.tenantId}|${item.delayMs}|${item.trace ?? ''}`;
      const group = groups.get(key);
      if (group) group.push(item);
      else groups.set(key, [item]);
    }
    const singles: QueuedAttempt[] = [];
    const batches: { name: string; data: DeliveryBatch; opts: JobsOptions }[] = [];
    for (const group of groups.values())
      for (let i = 0; i < group.length; i += BATCH_SIZE) {
        const chunk = group.slice(i, i + BATCH_SIZE);
        if (chunk.length === 1) {
          singles.push(chunk[0]);
          continue;
        }
        const { delayMs, trace } = chunk[0];
        batches.push({
          name: 'deliver-batch',
          data: {
            tenantId: chunk[0].ref.tenantId,
            deliveries: chunk.map(({ ref }) => ({
              deliveryId: ref.deliveryId,
              endpointId: ref.endpointId,
              attempt: ref.attempt,
            })),
          },
          opts: jobOptions(`batch-${newUuid()}`, delayMs, trace),
        });
      }
    if (!this.queue) throw new Error('DeliveryQueue used without Redis');
    await Promise.all([this.enqueueEach(singles), batches.length ? this.queue.addBulk(batches) : undefined]);
  }
}

/** A delivery job's options: removed once finished, carrying the asker's trace context when tracing is on. */
function jobOptions(jobId: string, delay: number, trace: string | undefined): JobsOptions {
  return {
    jobId,
    delay,
    removeOnComplete: true,
    removeOnFail: true,
    ...(trace ? { telemetry: { metadata: trace } } : {}),
  };
}
