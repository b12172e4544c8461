import type { OpenAPIObject, OperationObject, SchemaObject } from '@nestjs/swagger';
import { API_VERSION } from '../../common/api-version';
import { EVENT_OBJECTS, EVENT_TYPES, EventType } from '../outbox/event-types';

/** `member.created` -> `WebhookEvent_member_created` */
export const webhookEventSchemaName = (type: EventType) => `WebhookEvent_${type.replace('.', '_')}`;

/**
 * Every event type as an OpenAPI 3.1 webhook: a POST to the subscriber's URL whose body is the
 * component schema `WebhookEvent_<type>`, signed in `Service-Signature`. Needs the components the
 * controllers produced (the `data.object` of an event is the resource's GET answer).
 */
export function addWebhooks(document: OpenAPIObject): void {
  const schemas = document.components!.schemas!;
  document.webhooks = {};
  for (const type of EVENT_TYPES) {
    const name = webhookEventSchemaName(type);
    schemas[name] = eventSchema(type, schemas);
    document.webhooks[type] = { post: deliveryOperation(type, name) };
  }
}

function eventSchema(type: EventType, schemas: Record<string, unknown>): SchemaObject {
  const { schema, description } = EVENT_OBJECTS[type];
  const object: SchemaObject =
    schema && schemas[schema]
      ? { description, allOf: [{ $ref: `#/components/schemas/${schema}` }] }
      : { type: 'object', description, additionalProperties: true };
  return {
    type: 'object',
    description: `The \`${type}\` event.`,
    required: ['id', 'type', 'created', 'tenant', 'api_version', 'data'],
    properties: {
      id: {
        type: 'string',
        example: 'evt_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
        description: 'Unique per event: de-duplicate on it.',
      },
      type: { type: 'string', enum: [type] },
      created: { type: 'integer', example: 1767225600, description: 'Unix time in seconds.' },
      tenant: { type: 'string', example: 'grace', description: 'The church key.' },
      api_version: { type: 'string', example: API_VERSION },
      data: type.endsWith('.updated')
        ? {
            type: 'object',
            required: ['object', 'previous_attributes'],
            properties: {
              object,
              previous_attributes: {
                type: 'object',
                additionalProperties: true,
                example: { email: 'ana.old@example.org' },
                description:
                  'The top-level fields of the object that this change modified, with their old values (as Stripe sends them); updated_at is not listed.',
              },
            },
          }
        : {
            type: 'object',
            required: ['object', ...Object.keys(EVENT_OBJECTS[type].data ?? {})],
            properties: { object, ...EVENT_OBJECTS[type].data },
          },
    },
  };
}

function deliveryOperation(type: EventType, schemaName: string): OperationObject {
  return {
    operationId: `Webhook_${type.replace('.', '_')}`,
    summary: type,
    description: `${EVENT_OBJECTS[type].description} POSTed to every enabled endpoint subscribed to \`${type}\` (or \`*\`) whose filters match.`,
    tags: ['Webhook events'],
    // The receiver authenticates the sender by the signature, not by an API credential.
    security: [],
    parameters: [
      {
        name: 'Service-Signature',
        in: 'header',
        required: true,
        description:
          '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` with the endpoint\'s secret; while a rolled secret is still live, one `v1=` per secret. Check it on the raw bytes and reject old timestamps.',
        schema: {
          type: 'string',
          pattern: '^t=\\d+(,v1=[0-9a-f]{64})+$',
          example: 't=1767225600,v1=6ffbb59b2300aae63f272406069a9788598b792a944a07aba816edb039989a39',
        },
      },
      {
        name: 'Service-Webhook-Id',
        in: 'header',
        required: true,
        description:
          'The event id, the same on every retry and resend: drop a delivery whose id was already processed.',
        schema: { type: 'string', pattern: '^evt_[0-9a-f]{32}$', example: 'evt_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' },
      },
    ],
    requestBody: {
      required: true,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaName}` } } },
    },
    responses: {
      '2XX': { description: 'Delivered. Any 2xx within the timeout (3 s by default) counts; the body is ignored.' },
      '410': { description: 'Gone: the endpoint is disabled at once, without retries.' },
      default: {
        description:
          'Anything else, or no answer in time, fails the attempt: it is retried (30 s, 5 min, 1 h, 6 h, 24 h by default) and the endpoint is disabled after the last retry fails.',
      },
    },
  };
}
