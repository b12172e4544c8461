import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_VERSION } from '../../common/api-version';
import { ERROR_CODES, statusOf } from '../../common/errors/error-codes';
import { PROBLEM_TYPE_BASE } from '../../common/errors/problem';
import { SCOPES } from '../auth/scopes';
import { EVENT_OBJECTS, EVENT_TYPES } from '../webhooks/event-types';
import { API_DESCRIPTION } from './openapi.description';


/** Builds the OpenAPI description from the controllers' decorators. Needs no database. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Church Management API')
    .setVersion(`v1 (${API_VERSION})`)
    .setDescription(API_DESCRIPTION)
    .addServer('/', 'This server')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'opaque (chp_/chs_/chk_/cho_ + 36 characters)', description: `API token (chp_ PAT, chs_ service, chk_ kiosk, cho_ OAuth). Scopes: ${SCOPES.join(', ')}.` }, 'bearer')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Tenant', description: 'The church key (slug).' }, 'tenant')
    .build();
  const document = SwaggerModule.createDocument(app, config, { operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}` });
  document.components ??= {};
  document.components.schemas ??= {};
  document.components.schemas.Problem = {
    type: 'object',
    description: 'RFC 9457 problem details. `code` is stable; title, detail and messages follow Accept-Language.',
    required: ['type', 'title', 'status', 'detail', 'code', 'request_id'],
    properties: {
      type: { type: 'string', example: `${PROBLEM_TYPE_BASE}validation_failed` },
      title: { type: 'string', example: 'Validation failed' },
      status: { type: 'integer', example: 422 },
      detail: { type: 'string' },
      code: { type: 'string', enum: [...ERROR_CODES] },
      request_id: { type: 'string', example: 'req_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' },
      errors: {
        type: 'array',
        items: {
          type: 'object',
          required: ['field', 'issue', 'message'],
          properties: { field: { type: 'string', example: 'email' }, issue: { type: 'string', example: 'invalid_format' }, message: { type: 'string' } },
        },
      },
    },
  };
  addWebhookEvents(document);
  (document as unknown as Record<string, unknown>)['x-error-codes'] = Object.fromEntries(ERROR_CODES.map((code) => [code, statusOf(code)]));
  return document;
}

/**
 * The payload of every event type, as components `WebhookEvent_<type>` and the map `x-webhooks`
 * (type -> schema). Deliveries are POSTed with `Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`.
 */
function addWebhookEvents(document: OpenAPIObject): void {
  const schemas = document.components!.schemas!;
  const map: Record<string, { $ref: string }> = {};
  for (const type of EVENT_TYPES) {
    const { schema, description } = EVENT_OBJECTS[type];
    const name = `WebhookEvent_${type.replace('.', '_')}`;
    const object = schema && schemas[schema] ? { description, allOf: [{ $ref: `#/components/schemas/${schema}` }] } : { type: 'object', description, additionalProperties: true };
    schemas[name] = {
      type: 'object',
      description: `The \`${type}\` event.`,
      required: ['id', 'type', 'created', 'tenant', 'api_version', 'data'],
      properties: {
        id: { type: 'string', example: 'evt_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', description: 'Unique per event: de-duplicate on it.' },
        type: { type: 'string', enum: [type] },
        created: { type: 'integer', example: 1767225600, description: 'Unix time in seconds.' },
        tenant: { type: 'string', example: 'grace', description: 'The church key.' },
        api_version: { type: 'string', example: API_VERSION },
        data: { type: 'object', required: ['object'], properties: { object } },
      },
    } as never;
    map[type] = { $ref: `#/components/schemas/${name}` };
  }
  (document as unknown as Record<string, unknown>)['x-webhooks'] = map;
}
