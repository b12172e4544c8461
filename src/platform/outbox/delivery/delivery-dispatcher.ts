import { Injectable } from '@nestjs/common';
import { Batcher } from '../../../common/batching/batcher';
import { currentTraceMetadata } from '../../../common/telemetry/tracing';
import { DeliveryQueue, DeliveryRef, QueuedAttempt } from './delivery-queue';
import { InProcessDeliveries } from './in-process-deliveries';

/**
 * After a commit: to the BullMQ queue when there is Redis, otherwise to the in-process loop. The
 * first attempts of concurrent requests' commits go to Redis together (one `addBulk` per turn, two
 * in flight at most): one per request cost the API ~1 ms of CPU per event under load (bench 8);
 * a church's attempts of one turn share batch jobs (DeliveryQueue.enqueueBatches). A lost enqueue
 * is still the sweeper's to find.
 */
@Injectable()
export class DeliveryDispatcher {
  private readonly firstAttempts = new Batcher<QueuedAttempt[], void>(
    async (batches) => {
      await this.queue.enqueueBatches(batches.flat());
      return batches.map(() => undefined);
    },
    { maxSize: 50, lanes: 2 },
  );

  constructor(
    private readonly queue: DeliveryQueue,
    private readonly inProcess: InProcessDeliveries,
  ) {}

  async dispatch(refs: DeliveryRef[], delayMs = 0): Promise<void> {
    if (!this.queue.enabled) this.inProcess.kick(delayMs);
    else if (delayMs === 0 && refs.length) {
      const trace = currentTraceMetadata();
      await this.firstAttempts.submit(refs.map((ref) => ({ ref, delayMs, trace })));
    } else await this.queue.enqueue(refs, delayMs);
  }
}
