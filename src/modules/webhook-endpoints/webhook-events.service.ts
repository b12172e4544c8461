import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { ID_PREFIX, requirePublicId, toPublicId } from '../../common/ids/id';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import type { WebhookEventResponse } from './dto/webhook-event.response';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { EVENT_LIST } from './webhook-endpoints.list';
import { toEventResponse } from './webhook-endpoints.mapper';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

/** The event log: every event the church raised, and resending one to an endpoint. */
@Injectable()
export class WebhookEventsService {
  constructor(
    private readonly webhooks: WebhookEndpointsRepository,
    private readonly endpoints: WebhookEndpointsService,
  ) {}

  async list(rawQuery: Record<string, unknown>): Promise<ListEnvelope<WebhookEventResponse>> {
    return toEnvelope(await this.webhooks.listEvents(parseListQuery(rawQuery, EVENT_LIST)), toEventResponse);
  }

  async get(id: string): Promise<WebhookEventResponse> {
    const event = await this.webhooks.findEvent(id);
    if (!event) throw AppError.notFound('event');
    return toEventResponse(event);
  }

  async resend(id: string, endpointPublicId: string): Promise<{ delivery_id: string }> {
    const event = await this.webhooks.findEvent(id);
    if (!event) throw AppError.notFound('event');
    const endpointId = requirePublicId(ID_PREFIX.webhookEndpoint, endpointPublicId, 'webhook endpoint');
    await this.endpoints.require(endpointId, 'for_key_share');
    const [deliveryId] = await this.endpoints.enqueueDeliveries(endpointId, [event.id]);
    return { delivery_id: toPublicId(ID_PREFIX.webhookDelivery, deliveryId) };
  }
}
