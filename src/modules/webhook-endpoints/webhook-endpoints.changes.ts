import { Injectable, OnModuleInit } from '@nestjs/common';
import { ID_PREFIX } from '../../common/ids/id';
import { ChangeSources } from '../../platform/changes/change-sources';
import { EndpointResponse } from './dto/endpoint.response';
import { WebhookEndpointsService } from './webhook-endpoints.service';

/** Webhook endpoints in the changes feed (CONTRACT §15–§16). */
@Injectable()
export class WebhookEndpointsChangeSource implements OnModuleInit {
  constructor(
    private readonly sources: ChangeSources,
    private readonly webhookEndpoints: WebhookEndpointsService,
  ) {}

  onModuleInit(): void {
    this.sources.register({
      type: 'webhook_endpoint',
      prefix: ID_PREFIX.webhookEndpoint,
      scope: 'admin:*',
      response: EndpointResponse,
      load: (ids) => this.webhookEndpoints.getMany(ids),
    });
  }
}
