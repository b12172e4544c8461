import { Injectable } from '@nestjs/common';
import { API_VERSION } from '../../common/api-version';
import { TenantContext } from '../../common/context/tenant-context';
import { ID_PREFIX, newUuid, toPublicId } from '../../common/ids/id';
import { previousAttributes } from '../../common/events/previous-attributes';
import { matchesFilters, type DeliveryFilter } from './delivery-filters';
import { DeliveryDispatcher } from './delivery/delivery-dispatcher';
import { TenantsService } from '../tenancy/tenants.service';
import type { EventType } from './event-types';
import type { EventPayload } from './webhook-event.entity';

/**
 * The outbox. A service that changes state records its events here, inside its own transaction:
 * the event rows and one delivery per matching enabled endpoint commit with the change or not at
 * all. Deliveries are dispatched after the commit; the sweeper catches any that were not.
 */
@Injectable()
export class OutboxService {
  constructor(
    private readonly dispatcher: DeliveryDispatcher,
    private readonly tenants: TenantsService,
  ) {}

  record(type: EventType, object: unknown): Promise<void> {
    return this.recordMany(type, [object]);
  }

  /**
   * A `*.updated` event: the record after the change, with `data.previous_attributes` (the
   * top-level fields the change modified, with their old values; CONTRACT §16).
   */
  recordUpdate(type: EventType, before: object, after: object): Promise<void> {
    return this.recordUpdates(type, [{ before, after }]);
  }

  recordUpdates(type: EventType, changes: { before: object; after: object }[]): Promise<void> {
    return this.recordMany(
      type,
      changes.map((c) => c.after),
      changes.map((c) => ({ previous_attributes: previousAttributes(c.before, c.after) })),
    );
  }

  /**
   * One statement for the events and one for the deliveries, whatever the number of objects.
   * `extras[i]`: fields of the i-th event's `data` beside `object` (EVENT_OBJECTS documents them);
   * `exceptEndpoints`: endpoints (uuids) that do not get these events (an endpoint's own health).
   */
  async recordMany(
    type: EventType,
    objects: unknown[],
    extras?: Record<string, unknown>[],
    exceptEndpoints: string[] = [],
  ): Promise<void> {
    if (objects.length === 0) return;
    const scope = TenantContext.current();
    const { manager, tenantId } = scope;
    const now = new Date();
    const tenant = await this.tenants.currentSlug();
    const events = objects.map((object, i) => {
      const id = newUuid();
      const payload: EventPayload = {
        id: toPublicId(ID_PREFIX.event, id),
        type,
        created: Math.floor(now.getTime() / 1000),
        tenant,
        api_version: API_VERSION,
        data: { object, ...extras?.[i] },
      };
      return { id, payload };
    });
    // The payloads as one text, separated by U+001E (JSON.stringify escapes every control character,
    // so none occurs inside a payload), split by PostgreSQL and zipped with the ids (ROWS FROM): each
    // payload is parsed once (its cast to json) and stored as sent, with no per-value array encoding
    // here. One JSON array would be parsed twice: by its cast and by json_array_elements.
    await manager.query(
      `INSERT INTO webhook_events (tenant_id, id, type, payload, created_at)
       SELECT $1, e.id, $2, e.payload::json, $3 FROM ROWS FROM (unnest($4::uuid[]), string_to_table($5, E'\\x1e')) AS e(id, payload)`,
      [tenantId, type, now, events.map((e) => e.id), events.map((e) => JSON.stringify(e.payload)).join('\x1e')],
    );
    // FOR KEY SHARE: an endpoint being deleted meanwhile is waited for and then skipped (or waits
    // for this commit and takes its deliveries along), instead of failing the change on the
    // deliveries' foreign key. It does not wait for, nor block, PATCHes of the endpoint.
    const endpoints: { id: string; filters: DeliveryFilter[] }[] = await manager.query(
      `SELECT id, filters FROM webhook_endpoints WHERE tenant_id = $1 AND status = 'enabled' AND events && ARRAY[$2, '*']::text[] FOR KEY SHARE`,
      [tenantId, type],
    );
    const deliveries: { id: string; endpointId: string; eventId: string }[] = [];
    for (const endpoint of endpoints) {
      if (exceptEndpoints.includes(endpoint.id)) continue;
      for (const event of events) {
        if (matchesFilters(event.payload, endpoint.filters))
          deliveries.push({ id: newUuid(), endpointId: endpoint.id, eventId: event.id });
      }
    }
    if (deliveries.length === 0) return;
    await manager.query(
      `INSERT INTO webhook_deliveries (tenant_id, id, endpoint_id, event_id, next_attempt_at, created_at, updated_at)
       SELECT $1, d.id, d.endpoint_id, d.event_id, $5, $5, $5 FROM unnest($2::uuid[], $3::uuid[], $4::uuid[]) AS d(id, endpoint_id, event_id)`,
      [
        tenantId,
        deliveries.map((d) => d.id),
        deliveries.map((d) => d.endpointId),
        deliveries.map((d) => d.eventId),
        now,
      ],
    );
    scope.afterCommit.push(() =>
      this.dispatcher.dispatch(
        deliveries.map((d) => ({ tenantId, deliveryId: d.id, endpointId: d.endpointId, attempt: 0 })),
      ),
    );
  }
}
