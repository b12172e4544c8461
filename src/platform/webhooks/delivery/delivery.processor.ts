import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { DelayedError, Job, Worker } from 'bullmq';
import { Batcher } from '../../../common/batching/batcher';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { queueConnection } from '../../queue/queue-connection';
import { DELIVERY_QUEUE, DeliveryQueue, DeliveryRef } from './delivery-queue';
import { DeliveryRunner } from './delivery-runner';

const BUSY_DELAY_MS = 250;

/** The BullMQ consumer of delivery attempts; registered in the worker process only. */
@Injectable()
export class DeliveryProcessor implements OnModuleDestroy {
  private readonly logger = new Logger('WebhookWorker');
  private worker?: Worker;
  /** Retries of concurrent jobs are added together. */
  private readonly retries = new Batcher<{ ref: DeliveryRef; delayMs: number }, void>(async (items) => {
    await this.queue.enqueueEach(items);
    return items.map(() => undefined);
  });

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly runner: DeliveryRunner,
    private readonly queue: DeliveryQueue,
  ) {}

  start(): void {
    if (this.worker || !this.config.REDIS_URL) return;
    this.worker = new Worker(DELIVERY_QUEUE, (job, token) => this.process(job, token), {
      connection: queueConnection(this.config.REDIS_URL, `${DELIVERY_QUEUE}-worker`, 'worker'),
      prefix: this.config.QUEUE_PREFIX,
      concurrency: this.config.WEBHOOK_CONCURRENCY,
    });
    this.worker.on('error', (error) => this.logger.warn(`worker connection: ${error.message}`));
  }

  private async process(job: Job<DeliveryRef>, token?: string): Promise<string> {
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
    if (retry) await this.retries.submit(retry);
    return outcome;
  }

  /** Before the queue and the database close (onApplicationShutdown): lets active jobs finish. */
  async onModuleDestroy(): Promise<void> {
    await this.worker?.close();
  }
}
