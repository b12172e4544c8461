import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Logger, OnModuleInit } from '@nestjs/common';
import { DelayedError, type Job } from 'bullmq';
import { Batcher } from '../../../common/batching/batcher';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { currentTraceMetadata } from '../../../common/telemetry/tracing';
import { DELIVERY_QUEUE, DeliveryJobData, DeliveryQueue, DeliveryRef, QueuedAttempt, refsOf } from './delivery-queue';
import { AttemptResult, DeliveryRunner } from './delivery-runner';
import { redisConfigured } from '../../redis/redis-connection';

const BUSY_DELAY_MS = 250;
/**
 * How long an attempt of a batch job waits for its endpoint's slot: the job's attempts to one
 * endpoint take turns, while a slow endpoint's attempts go back to the queue instead of holding the
 * worker's slot.
 */
const BATCH_SLOT_WAIT_MS = 1_000;

/**
 * The BullMQ consumer of delivery attempts; registered in the worker process only (started by
 * QueueWorkers). A job a killed worker held goes back to the queue within 15 s (its lock, renewed
 * every 5 s while it runs, lapses after 10 s; stalled jobs are looked for every 5 s); its delivery
 * is sent again once the claim's lease has run out (DeliveryBook), by the sweeper if need be.
 */
@Processor(DELIVERY_QUEUE, { autorun: false, lockDuration: 10_000, stalledInterval: 5_000 })
export class DeliveryProcessor extends WorkerHost implements OnModuleInit {
  private readonly logger = new Logger('WebhookWorker');
  /** Retries (and busy attempts) of concurrent jobs are added together, in batch jobs. */
  private readonly later = new Batcher<QueuedAttempt, void>(async (items) => {
    await this.queue.enqueueBatches(items);
    return items.map(() => undefined);
  });

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly runner: DeliveryRunner,
    private readonly queue: DeliveryQueue,
  ) {
    super();
  }

  /** The worker exists by now (BullModule creates it at init); its concurrency comes from the configuration. */
  onModuleInit(): void {
    if (redisConfigured(this.config)) this.worker.concurrency = this.config.WEBHOOK_CONCURRENCY;
  }

  async process(job: Job<DeliveryJobData>, token?: string): Promise<string> {
    if ('deliveries' in job.data) return this.processBatch(refsOf(job.data));
    const ref = job.data;
    let result: AttemptResult;
    try {
      result = await this.runner.attempt(ref);
    } catch (error) {
      // The delivery stays pending; the sweeper re-enqueues it when its claim expires.
      this.logger.warn(`delivery ${ref.deliveryId} attempt ${ref.attempt + 1} errored: ${String(error)}`);
      throw error;
    }
    if (result.outcome === 'busy') {
      // Another attempt to the same endpoint holds its slots: wait without holding a worker slot
      // (the job keeps its id, so the sweeper cannot add it twice meanwhile).
      await job.moveToDelayed(Date.now() + BUSY_DELAY_MS, token);
      throw new DelayedError();
    }
    if (result.retry) await this.later.submit({ ...result.retry, trace: currentTraceMetadata() });
    return result.outcome;
  }

  /**
   * A batch job: each attempt's retry, or its next try when its endpoint stayed busy, is added as
   * soon as that attempt is done (batched with the other attempts ending meanwhile), not after the
   * whole job. An attempt's error does not stop the others: its delivery stays pending and the
   * sweeper sends it again once its claim has lapsed.
   */
  private async processBatch(refs: DeliveryRef[]): Promise<string> {
    const trace = currentTraceMetadata();
    const counts = new Map<string, number>();
    await Promise.all(
      this.runner.attemptEach(refs, BATCH_SLOT_WAIT_MS).map(async (attempt, i) => {
        const result = await attempt;
        const outcome = 'error' in result ? 'errored' : result.outcome;
        counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
        if ('error' in result)
          this.logger.warn(
            `delivery ${refs[i].deliveryId} attempt ${refs[i].attempt + 1} errored: ${String(result.error)}`,
          );
        else if (result.outcome === 'busy') await this.later.submit({ ref: refs[i], delayMs: BUSY_DELAY_MS, trace });
        else if (result.retry) await this.later.submit({ ...result.retry, trace });
      }),
    );
    return [...counts].map(([outcome, n]) => `${n} ${outcome}`).join(', ');
  }
}
