import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_VERSION } from '../../common/api-version';
import { ERROR_CODES, statusOf } from '../../common/errors/error-codes';
import { PROBLEM_TYPE_BASE } from '../../common/errors/problem';
import { SCOPES } from '../auth/scopes';
import { KIOSK_ROUTES } from '../auth/kiosk-routes';
import { API_DESCRIPTION } from './openapi.description';
import { addWebhooks } from './openapi.webhooks';

/**
 * Builds the OpenAPI 3.1 description from the controllers' decorators. Needs no database.
 * For 3.1, SwaggerModule itself rewrites the decorators' `nullable: true` as `type: [X, 'null']`
 * (or `anyOf [.., {type: 'null'}]` around a $ref/allOf); what is added here after it is written
 * in 3.1 terms directly.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Church Management API')
    .setVersion(`v1 (${API_VERSION})`)
    .setDescription(API_DESCRIPTION)
    .addServer('/', 'This server')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'opaque (chp_/chs_/chk_/cho_ + 36 characters)',
        description: `API token (chp_ PAT, chs_ service, chk_ kiosk, cho_ OAuth). Scopes: ${SCOPES.join(', ')}. A kiosk key reaches only ${KIOSK_ROUTES.join(', ')}: any other route answers it 403 scope_insufficient.`,
      },
      'bearer',
    )
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Tenant', description: 'The church key (slug).' }, 'tenant')
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
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
      merged_into: {
        type: 'string',
        pattern: '^mem_[0-9a-f]{32}$',
        example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
        description:
          '`member_merged` only: the member the requested one was merged into (the `Location` header names it too).',
      },
      errors: {
        type: 'array',
        items: {
          type: 'object',
          required: ['field', 'issue', 'message'],
          properties: {
            field: { type: 'string', example: 'email' },
            issue: { type: 'string', example: 'invalid_format' },
            message: { type: 'string' },
          },
        },
      },
    },
  };
  markPublicOperations(document);
  addWebhooks(document);
  (document as unknown as Record<string, unknown>)['x-error-codes'] = Object.fromEntries(
    ERROR_CODES.map((code) => [code, statusOf(code)]),
  );
  return document;
}

/**
 * @Auth() puts `security` on every operation that needs a token; the others are @Public() (the
 * guard fails closed on a route with neither), so they say so with an empty requirement.
 */
function markPublicOperations(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const) {
      const operation = item[method];
      if (operation && !operation.security) operation.security = [];
    }
  }
}
