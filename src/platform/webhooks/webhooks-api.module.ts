import { Module } from '@nestjs/common';
import { EndpointsController } from './endpoints.controller';
import { WebhookEventsController } from './webhook-events.controller';

@Module({ controllers: [EndpointsController, WebhookEventsController] })
export class WebhooksApiModule {}
