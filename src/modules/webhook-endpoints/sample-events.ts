import { Inject, Injectable } from '@nestjs/common';
import { API_VERSION } from '../../common/api-version';
import { ID_PREFIX, newUuid, toPublicId } from '../../common/ids/id';
import { OPENAPI_DOCUMENT, OpenApiDocumentHolder } from '../../platform/openapi/openapi.controller';
import { exampleOf } from '../../platform/openapi/openapi.examples';
import { webhookEventSchemaName } from '../../platform/openapi/openapi.webhooks';
import type { EventType } from '../../platform/outbox/event-types';
import type { EventPayload } from '../../platform/outbox/webhook-event.entity';
import { TenantsService } from '../../platform/tenancy/tenants.service';

/** A test event (CONTRACT §18): an event's envelope with `"test": true`. */
export type TestEventPayload = EventPayload & { test: true };

/**
 * Sample events for `POST /v1/webhook-endpoints/{id}/test`: the envelope as a real delivery has it
 * (a fresh evt_ id, the church, now), `data` the OpenAPI document's example of the type's event.
 */
@Injectable()
export class SampleEvents {
  constructor(
    @Inject(OPENAPI_DOCUMENT) private readonly holder: OpenApiDocumentHolder,
    private readonly tenants: TenantsService,
  ) {}

  async event(type: EventType): Promise<TestEventPayload> {
    const document = this.holder.document;
    const schema = document?.components?.schemas?.[webhookEventSchemaName(type)];
    const example = document && schema ? (exampleOf(document, schema) as { data?: EventPayload['data'] }) : {};
    return {
      id: toPublicId(ID_PREFIX.event, newUuid()),
      type,
      created: Math.floor(Date.now() / 1000),
      tenant: await this.tenants.currentSlug(),
      api_version: API_VERSION,
      test: true,
      data: example.data ?? { object: {} },
    };
  }
}
