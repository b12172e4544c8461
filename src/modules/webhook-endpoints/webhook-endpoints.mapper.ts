import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import type { AttemptResponse, EndpointHealthResponse, EndpointResponse } from './dto/endpoint.response';
import { FAILING_FROM } from '../../platform/outbox/delivery/delivery-book';
import type { EndpointHealthRow } from './webhook-endpoints.repository';
import type { WebhookEventResponse } from './dto/webhook-event.response';
import type { WebhookAttemptEntity } from '../../platform/outbox/webhook-attempt.entity';
import type { WebhookEndpointEntity } from '../../platform/outbox/webhook-endpoint.entity';
import type { WebhookEventEntity } from '../../platform/outbox/webhook-event.entity';

/** `health` undefined: the endpoint has no health row yet (never attempted, or re-enabled): healthy. */
export function toEndpointResponse(endpoint: WebhookEndpointEntity, health?: EndpointHealthRow): EndpointResponse {
  return {
    id: toPublicId(ID_PREFIX.webhookEndpoint, endpoint.id),
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    filters: endpoint.filters,
    status: endpoint.status,
    disabled_reason: endpoint.disabledReason,
    health: toHealthResponse(endpoint, health),
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

function toHealthResponse(endpoint: WebhookEndpointEntity, health?: EndpointHealthRow): EndpointHealthResponse {
  const failures = health?.consecutive_failures ?? 0;
  const disabled = endpoint.status === 'disabled';
  return {
    state: disabled ? 'disabled' : failures >= FAILING_FROM ? 'failing' : 'healthy',
    failing_since: !disabled && health?.failing_since ? health.failing_since.toISOString() : null,
    consecutive_failures: failures,
    last_success_at: health?.last_success_at?.toISOString() ?? null,
    disable_at: !disabled && health?.disable_at ? health.disable_at.toISOString() : null,
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
