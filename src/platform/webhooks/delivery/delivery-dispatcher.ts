import { Injectable } from '@nestjs/common';
import { DeliveryQueue, DeliveryRef } from './delivery-queue';
import { InProcessDeliveries } from './in-process-deliveries';

/** After a commit: to the BullMQ queue when there is Redis, otherwise to the in-process loop. */
@Injectable()
export class DeliveryDispatcher {
  constructor(
    private readonly queue: DeliveryQueue,
    private readonly inProcess: InProcessDeliveries,
  ) {}

  async dispatch(refs: DeliveryRef[], delayMs = 0): Promise<void> {
    if (this.queue.enabled) await this.queue.enqueue(refs, delayMs);
    else this.inProcess.kick(delayMs);
  }
}
