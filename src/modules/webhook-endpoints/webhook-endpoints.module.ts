import { Module } from '@nestjs/common';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookEndpointsChangeSource } from './webhook-endpoints.changes';
import { WebhookEventsController } from './webhook-events.controller';
import { WebhookEventsService } from './webhook-events.service';
import { WebhookEndpointHealthService } from './webhook-endpoint-health.service';
import { SampleEvents } from './sample-events';
import { OpenApiModule } from '../../platform/openapi/openapi.module';

/** The church's webhook endpoints (with their health and test events) and its event log (resend, backfill, deliveries and attempts). */
@Module({
  imports: [OpenApiModule],
  controllers: [WebhookEndpointsController, WebhookEventsController],
  providers: [
    WebhookEndpointsService,
    WebhookEndpointHealthService,
    SampleEvents,
    WebhookEndpointsChangeSource,
    WebhookEventsService,
    WebhookEndpointsRepository,
  ],
  exports: [WebhookEndpointsService, WebhookEventsService],
})
export class WebhookEndpointsModule {}
