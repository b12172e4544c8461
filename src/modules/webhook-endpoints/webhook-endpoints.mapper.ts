import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import type { AttemptResponse, EndpointResponse } from './dto/endpoint.response';
import type { WebhookEventResponse } from './dto/webhook-event.response';
import type { WebhookAttemptEntity } from '../../platform/outbox/webhook-attempt.entity';
import type { WebhookEndpointEntity } from '../../platform/outbox/webhook-endpoint.entity';
import type { WebhookEventEntity } from '../../platform/outbox/webhook-event.entity';

export function toEndpointResponse(endpoint: WebhookEndpointEntity): EndpointResponse {
  return {
    id: toPublicId(ID_PREFIX.webhookEndpoint, endpoint.id),
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    filters: endpoint.filters,
    status: endpoint.status,
    disabled_reason: endpoint.disabledReason,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

export function toEventResponse(event: WebhookEventEntity): WebhookEventResponse {
  return event.payload;
}

export function toAttemptResponse(attempt: WebhookAttemptEntity): AttemptResponse {
  return {
    delivery_id: toPublicId(ID_PREFIX.webhookDelivery, attempt.deliveryId),
    event_id: toPublicId(ID_PREFIX.event, attempt.eventId),
    attempt: attempt.attempt,
    status_code: attempt.statusCode,
    duration_ms: attempt.durationMs,
    error: attempt.error,
    succeeded:
      attempt.error === null && attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300,
    created_at: attempt.createdAt.toISOString(),
  };
}
