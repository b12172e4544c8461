import { Global, Module } from '@nestjs/common';
import { DeliveryDispatcher } from './delivery/delivery-dispatcher';
import { DeliveryQueue } from './delivery/delivery-queue';
import { DeliveryRunner } from './delivery/delivery-runner';
import { DeliveryBook } from './delivery/delivery-book';
import { DueDeliveries } from './delivery/due-deliveries';
import { InProcessDeliveries } from './delivery/in-process-deliveries';
import { EndpointsService } from './endpoints.service';
import { EventsService } from './events.service';
import { WebhookEventsService } from './webhook-events.service';
import { WebhooksRepository } from './webhooks.repository';

/**
 * Events (the outbox) and their delivery. Shared by the API, the worker and the CLI: controllers
 * live in WebhooksApiModule, the BullMQ consumer and the sweeper in the worker.
 */
@Global()
@Module({
  providers: [
    EventsService,
    EndpointsService,
    WebhookEventsService,
    WebhooksRepository,
    DeliveryQueue,
    DeliveryDispatcher,
    DeliveryRunner,
    DeliveryBook,
    DueDeliveries,
    InProcessDeliveries,
  ],
  exports: [
    EventsService,
    EndpointsService,
    WebhookEventsService,
    DeliveryQueue,
    DeliveryRunner,
    DueDeliveries,
    InProcessDeliveries,
  ],
})
export class WebhooksModule {}
