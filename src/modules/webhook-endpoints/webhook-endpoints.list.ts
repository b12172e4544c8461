import type { ListSpec } from '../../common/lists/list-spec';
import type { WebhookAttemptEntity } from '../../platform/outbox/webhook-attempt.entity';
import type { WebhookEndpointEntity } from '../../platform/outbox/webhook-endpoint.entity';
import type { WebhookEventEntity } from '../../platform/outbox/webhook-event.entity';
import { EVENT_TYPES } from '../../platform/outbox/event-types';
import { timestampFilter, timestampSort } from '../../common/lists/list-spec-parts';

export const ENDPOINT_LIST: ListSpec<WebhookEndpointEntity> = {
  resource: 'webhook endpoint',
  defaultSort: 'created_at',
  sorts: { created_at: timestampSort('created_at', (row) => row.createdAt) },
  filters: {
    status: {
      type: 'enum',
      values: ['enabled', 'disabled'],
      ops: [],
      column: 'status',
      description: 'enabled or disabled.',
    },
  },
};

export const EVENT_LIST: ListSpec<WebhookEventEntity> = {
  resource: 'webhook event',
  defaultSort: '-created_at',
  sorts: { created_at: timestampSort('created_at', (row) => row.createdAt) },
  filters: {
    type: { type: 'enum', values: EVENT_TYPES, ops: ['in'], column: 'type', description: 'Event type.' },
    created_at: timestampFilter('created_at', 'When the event happened.'),
  },
};

export const ATTEMPT_LIST: ListSpec<WebhookAttemptEntity> = {
  resource: 'webhook delivery attempt',
  defaultSort: '-created_at',
  sorts: { created_at: timestampSort('created_at', (row) => row.createdAt) },
  filters: {
    succeeded: {
      type: 'boolean',
      ops: [],
      sql: (a, _o, v) =>
        v
          ? `(${a}.status_code BETWEEN 200 AND 299 AND ${a}.error IS NULL)`
          : `NOT (coalesce(${a}.status_code, 0) BETWEEN 200 AND 299 AND ${a}.error IS NULL)`,
      description: 'true: only 2xx answers in time; false: only failures.',
    },
    created_at: timestampFilter('created_at', 'When the attempt was made.'),
  },
};
