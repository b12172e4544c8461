import { Global, Module } from '@nestjs/common';
import { DeliveryBook } from './delivery/delivery-book';
import { DeliveryDispatcher } from './delivery/delivery-dispatcher';
import { DeliveryQueue } from './delivery/delivery-queue';
import { DeliveryRunner } from './delivery/delivery-runner';
import { HealthNotices } from './delivery/health-notices';
import { DueDeliveries } from './delivery/due-deliveries';
import { InProcessDeliveries } from './delivery/in-process-deliveries';
import { OutboxService } from './outbox.service';

/**
 * The outbox (events recorded in the transaction of the change) and the delivery engine. Shared by
 * the API, the worker and the CLI; the BullMQ consumer and the sweeper are registered in the worker.
 */
@Global()
@Module({
  providers: [
    OutboxService,
    DeliveryQueue,
    DeliveryDispatcher,
    DeliveryRunner,
    DeliveryBook,
    HealthNotices,
    DueDeliveries,
    InProcessDeliveries,
  ],
  exports: [
    OutboxService,
    DeliveryDispatcher,
    DeliveryQueue,
    DeliveryRunner,
    DueDeliveries,
    InProcessDeliveries,
    HealthNotices,
  ],
})
export class OutboxModule {}
