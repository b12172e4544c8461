import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Logger, OnModuleInit } from '@nestjs/common';
import { DelayedError, type Job } from 'bullmq';
import { Batcher } from '../../../common/batching/batcher';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { currentTraceMetadata } from '../../../common/telemetry/tracing';
import { DELIVERY_QUEUE, DeliveryQueue, DeliveryRef, QueuedAttempt } from './delivery-queue';
import { DeliveryRunner } from './delivery-runner';
import { redisConfigured } from '../../redis/redis-connection';

const BUSY_DELAY_MS = 250;

/**
 * The BullMQ consumer of delivery attempts; registered in the worker process only (started by
 * QueueWorkers). A job a killed worker held goes back to the queue within 15 s (its lock, renewed
 * every 5 s while it runs, lapses after 10 s; stalled jobs are looked for every 5 s); its delivery
 * is sent again once the claim's lease has run out (DeliveryBook), by the sweeper if need be.
 */
@Processor(DELIVERY_QUEUE, { autorun: false, lockDuration: 10_000, stalledInterval: 5_000 })
export class DeliveryProcessor extends WorkerHost implements OnModuleInit {
  private readonly logger = new Logger('WebhookWorker');
  /** Retries of concurrent jobs are added together. */
  private readonly retries = new Batcher<QueuedAttempt, void>(async (items) => {
    await this.queue.enqueueEach(items);
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

  async process(job: Job<DeliveryRef>, token?: string): Promise<string> {
    let result: Awaited<ReturnType<DeliveryRunner['attempt']>>;
    try {
      result = await this.runner.attempt(job.data);
    } catch (error) {
      // The delivery stays pending; the sweeper re-enqueues it when its claim expires.
      this.logger.warn(`delivery ${job.data.deliveryId} attempt ${job.data.attempt + 1} errored: ${String(error)}`);
      throw error;
    }
    const { outcome, retry } = result;
    if (outcome === 'busy') {
      // Another attempt to the same endpoint holds its slots: wait without holding a worker slot.
      await job.moveToDelayed(Date.now() + BUSY_DELAY_MS, token);
      throw new DelayedError();
    }
    if (retry) await this.retries.submit({ ...retry, trace: currentTraceMetadata() });
    return outcome;
  }
}
