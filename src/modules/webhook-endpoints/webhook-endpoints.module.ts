import { Module } from '@nestjs/common';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookEndpointsChangeSource } from './webhook-endpoints.changes';
import { WebhookEventsController } from './webhook-events.controller';
import { WebhookEventsService } from './webhook-events.service';

/** The church's webhook endpoints and its event log (resend, backfill, deliveries and attempts). */
@Module({
  controllers: [WebhookEndpointsController, WebhookEventsController],
  providers: [WebhookEndpointsService, WebhookEndpointsChangeSource, WebhookEventsService, WebhookEndpointsRepository],
  exports: [WebhookEndpointsService, WebhookEventsService],
})
export class WebhookEndpointsModule {}
