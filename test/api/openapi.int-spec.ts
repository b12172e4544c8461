import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { load } from 'js-yaml';
import request from 'supertest';
import { EVENT_TYPES } from '../../src/platform/outbox/event-types';
import { TestApi, TypedResponse } from '../support/api';

/** The published description: GET /v1/openapi.json, /v1/openapi.yaml and the /docs UI. */

/**
 * The parts of an OpenAPI 3.1 document these tests read. What OpenAPI lets a document leave out is
 * optional, so a test that expects it to be there says so with `!`.
 */
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, PathItem>;
  webhooks?: Record<string, PathItem>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, SecurityScheme> };
  /** Every error code with its HTTP status. */
  'x-error-codes': Record<string, number>;
  'x-webhooks'?: unknown;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

type PathItem = Partial<Record<(typeof METHODS)[number], Operation>>;

interface Operation {
  operationId?: string;
  summary?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, { description: string; content?: Record<string, MediaType> }>;
  /** Alternatives (OR), each naming schemes that are all needed (AND) with their scopes. */
  security?: Record<string, string[]>[];
  'x-required-scopes'?: string[];
}

interface Parameter {
  name: string;
  in: 'query' | 'header' | 'path' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: Schema;
}

interface MediaType {
  schema?: Schema;
}

/** A JSON Schema 2020-12 (OpenAPI 3.1) schema: the keywords these tests read. */
interface Schema {
  type?: string | string[];
  $ref?: string;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  required?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  pattern?: string;
  example?: unknown;
}

interface SecurityScheme {
  type: 'apiKey' | 'http' | 'oauth2' | 'openIdConnect';
  scheme?: string;
  bearerFormat?: string;
  in?: string;
  name?: string;
}

function operations(document: OpenApiDocument, prefix?: string): { path: string; method: string; op: Operation }[] {
  const out: { path: string; method: string; op: Operation }[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    if (prefix && path !== prefix && !path.startsWith(`${prefix}/`)) continue;
    for (const method of METHODS) if (item[method]) out.push({ path, method, op: item[method] });
  }
  return out;
}

function parameterNames(op: Operation): string[] {
  return (op.parameters ?? []).map((p) => p.name);
}

describe('OpenAPI description', () => {
  let api: TestApi;
  let document: OpenApiDocument;

  beforeAll(async () => {
    api = await TestApi.start();
    const res = await request(api.app.getHttpServer()).get('/v1/openapi.json');
    document = res.body as OpenApiDocument;
  });
  afterAll(async () => {
    await api?.close();
  });

  const http = () => request(api.app.getHttpServer());

  it('GET /v1/openapi.json is public (no token, no X-Tenant) and answers JSON', async () => {
    const res: TypedResponse<OpenApiDocument> = await http().get('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-request-id']).toMatch(/^req_/);
    expect(res.body.openapi).toMatch(/^3\.1\.\d+$/);
    expect(res.body.info).toEqual(expect.objectContaining({ title: expect.any(String), version: expect.any(String) }));
    expect(res.body.info.title.length).toBeGreaterThan(0);
    expect(res.body.info.description).toMatch(/X-Tenant/);
  });

  it('a bad or foreign token does not matter on the public description', async () => {
    const res: TypedResponse<OpenApiDocument> = await http()
      .get('/v1/openapi.json')
      .set('Authorization', 'Bearer chp_not_a_token')
      .set('X-Tenant', 'nobody');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe(document.openapi);
  });

  it('defines the Problem schema and the bearer and tenant security schemes', () => {
    const problem = document.components.schemas.Problem;
    expect(problem).toBeDefined();
    expect(problem.type).toBe('object');
    expect(problem.required).toEqual(expect.arrayContaining(['type', 'title', 'status', 'code', 'request_id']));
    expect(problem.properties!.errors.items!.properties).toEqual(
      expect.objectContaining({ field: expect.anything(), issue: expect.anything(), message: expect.anything() }),
    );
    expect(problem.properties!.code.enum).toEqual(
      expect.arrayContaining([
        'missing_tenant',
        'validation_failed',
        'token_revoked',
        'scope_insufficient',
        'resource_not_found',
        'conflict',
        'rate_limited',
      ]),
    );

    const schemes = document.components.securitySchemes;
    expect(schemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.tenant).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Tenant' });
  });

  it('does not call the opaque API tokens JWTs', () => {
    // chp_/chs_/chk_/cho_ tokens are opaque strings, not JSON Web Tokens
    expect(document.components.securitySchemes.bearer.bearerFormat).not.toBe('JWT');
  });

  it('types every schema property: a `string | null` field is `type: [string, null]`, not a shapeless object', () => {
    const shapeless: string[] = [];
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      for (const [property, definition] of Object.entries(schema.properties ?? {})) {
        const typed =
          definition.type !== undefined ||
          definition.$ref ||
          definition.allOf ||
          definition.anyOf ||
          definition.oneOf ||
          definition.enum;
        const open =
          definition.type === 'object' &&
          !definition.properties &&
          !definition.additionalProperties &&
          !definition.allOf;
        if (!typed || open) shapeless.push(`${name}.${property}`);
      }
    }
    expect(shapeless).toEqual([]);
    expect(document.components.schemas.CreateMemberDto.properties!.email).toMatchObject({ type: ['string', 'null'] });
  });

  it('says null the OpenAPI 3.1 way: no `nullable` keyword anywhere, a nullable $ref is anyOf [$ref, null]', () => {
    const nullable: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (Array.isArray(node)) node.forEach((item, i) => walk(item, `${at}/${i}`));
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === 'nullable') nullable.push(at);
          else if (!key.startsWith('x-') && key !== 'example') walk(value, `${at}/${key}`);
        }
      }
    };
    walk(document, '#');
    expect(nullable).toEqual([]);
    expect(document.components.schemas.CreateMemberDto.properties!.address).toMatchObject({
      anyOf: [{ $ref: '#/components/schemas/AddressDto' }, { type: 'null' }],
    });
  });

  it('describes every webhook event as a signed POST of its WebhookEvent_<type> schema', () => {
    const types = Object.keys(document.webhooks ?? {});
    expect(types).toEqual([...EVENT_TYPES]);
    expect(document['x-webhooks']).toBeUndefined();
    for (const type of types) {
      const operation = document.webhooks![type].post;
      const name = `WebhookEvent_${type.replace('.', '_')}`;
      expect({ type, body: operation?.requestBody }).toEqual({
        type,
        body: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
      });
      const headers = Object.fromEntries(
        operation!.parameters!.filter((p) => p.in === 'header').map((p) => [p.name, p.required]),
      );
      expect({ type, headers }).toEqual({ type, headers: { 'Service-Signature': true, 'Service-Webhook-Id': true } });
      expect({
        type,
        success: Object.keys(operation!.responses).some((status) => /^2(\d\d|XX)$/.test(status)),
      }).toEqual({ type, success: true });
      const event = document.components.schemas[name];
      expect(event.required).toEqual(['id', 'type', 'created', 'tenant', 'api_version', 'data']);
      expect(event.properties!.type.enum).toEqual([type]);
    }
    const signature = document.webhooks!['member.created'].post!.parameters!.find(
      (p) => p.name === 'Service-Signature',
    )!;
    expect(signature.description).toMatch(/HMAC-SHA256/);
    expect(new RegExp(signature.schema!.pattern!).test(signature.schema!.example as string)).toBe(true);
    expect(document.components.schemas.WebhookEvent_member_created.properties!.data.properties!.object.allOf).toEqual([
      { $ref: '#/components/schemas/MemberResponse' },
    ]);
  });

  it('lists every error code with its HTTP status under x-error-codes', () => {
    const codes = document['x-error-codes'];
    expect(Object.keys(codes).sort()).toEqual([...document.components.schemas.Problem.properties!.code.enum!].sort());
    expect(codes).toMatchObject({
      missing_tenant: 400,
      unauthorized: 401,
      scope_insufficient: 403,
      resource_not_found: 404,
      validation_failed: 422,
      rate_limited: 429,
    });
  });

  it('public operations say so with an empty security requirement', () => {
    expect(document.paths['/healthz'].get!.security).toEqual([]);
    expect(document.paths['/healthz'].get!['x-required-scopes']).toBeUndefined();
  });

  it('documents every member and campus operation with x-required-scopes', () => {
    const ops = [...operations(document, '/v1/members'), ...operations(document, '/v1/campuses')];
    const names = ops.map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'GET /v1/members',
        'POST /v1/members',
        'POST /v1/members/bulk',
        'GET /v1/members/{id}',
        'PATCH /v1/members/{id}',
        'PUT /v1/members/{id}',
        'DELETE /v1/members/{id}',
        'GET /v1/campuses',
        'POST /v1/campuses',
        'GET /v1/campuses/{id}',
        'PATCH /v1/campuses/{id}',
      ]),
    );
    for (const { path, method, op } of ops) {
      const scopes = op['x-required-scopes'];
      // A member's donations are giving data: they ride on the donations scopes (CONTRACT §9b); their attendance on the attendance scopes (§11).
      const resource =
        path === '/v1/members/{id}/donations'
          ? 'donations'
          : path === '/v1/members/{id}/attendance'
            ? 'attendance'
            : path.split('/')[2];
      const expected = method === 'get' ? `read:${resource}` : `write:${resource}`;
      expect({ op: `${method} ${path}`, scopes }).toEqual({ op: `${method} ${path}`, scopes: [expected] });
      expect(op.operationId).toEqual(expect.any(String));
      expect(op.summary).toEqual(expect.any(String));
    }
  });

  it('every operation that needs a token names its scopes and requires bearer AND tenant together', () => {
    const secured = operations(document).filter(({ op }) => Array.isArray(op.security) && op.security.length > 0);
    expect(secured.length).toBeGreaterThan(0);
    for (const { path, method, op } of secured) {
      const label = `${method} ${path}`;
      // documented even when empty (an endpoint any valid token may call, e.g. the caller's own tokens)
      expect({ label, scopes: Array.isArray(op['x-required-scopes']) }).toEqual({ label, scopes: true });
      // OpenAPI ORs the entries of `security` and ANDs the schemes inside one entry: both are needed on every call
      const both = op.security!.some((requirement) => 'bearer' in requirement && 'tenant' in requirement);
      expect({ label, security: op.security, both }).toEqual({ label, security: op.security, both: true });
    }
  });

  it('documents the error answers: 400/401/403 on every secured operation, 404 on every {id} operation, 422 on writes with a body', () => {
    const missing: string[] = [];
    for (const { path, method, op } of [
      ...operations(document, '/v1/members'),
      ...operations(document, '/v1/campuses'),
    ]) {
      const statuses = Object.keys(op.responses ?? {});
      const needed = ['400', '401', '403'];
      if (path.includes('{id}')) needed.push('404');
      if (op.requestBody) needed.push('422');
      for (const status of needed) {
        if (!statuses.includes(status)) missing.push(`${method.toUpperCase()} ${path} ${status}`);
        else if (!op.responses[status].content?.['application/problem+json'])
          missing.push(`${method.toUpperCase()} ${path} ${status} (no application/problem+json body)`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('list operations document cursor, limit, sort and the filters', () => {
    for (const path of ['/v1/members', '/v1/campuses']) {
      const names = parameterNames(document.paths[path].get!);
      expect(names).toEqual(expect.arrayContaining(['cursor', 'limit', 'sort']));
      const limit = document.paths[path].get!.parameters!.find((p) => p.name === 'limit');
      expect(limit).toMatchObject({
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 1, maximum: 250, default: 50 },
      });
      const envelope = document.paths[path].get!.responses['200'].content!['application/json'].schema!;
      expect(envelope.required).toEqual(expect.arrayContaining(['data', 'next_cursor', 'total']));
    }
    const members = document.paths['/v1/members'].get!;
    expect(parameterNames(members)).toEqual(
      expect.arrayContaining([
        'campus',
        'active',
        'status',
        'age[gte]',
        'age[lt]',
        'created_at[gte]',
        'created_after',
        'created_before',
        'q',
      ]),
    );
    for (const p of members.parameters!.filter((x) => x.name.includes('['))) expect(p.in).toBe('query');
    const sort = members.parameters!.find((p) => p.name === 'sort')!;
    for (const field of ['last_name', 'first_name', 'created_at', 'age']) expect(sort.description).toContain(field);
  });

  it('request and response bodies of members and campuses point at schemas that exist', () => {
    const schemas = document.components.schemas;
    const refs = new Set<string>();
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref' && typeof value === 'string') refs.add(value);
          else walk(value);
        }
      }
    };
    walk(document);
    expect(refs.size).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(schemas).toHaveProperty([ref.replace('#/components/schemas/', '')]);
    }
    const member = schemas.MemberResponse;
    expect(Object.keys(member.properties!)).toEqual(
      expect.arrayContaining([
        'id',
        'first_name',
        'last_name',
        'age',
        'campus',
        'gender_label',
        'status_label',
        'created_at',
        'updated_at',
      ]),
    );
    expect(document.paths['/v1/members'].post!.requestBody!.content['application/json'].schema!.$ref).toBe(
      '#/components/schemas/CreateMemberDto',
    );
    expect(schemas.CreateMemberDto.required).toEqual(expect.arrayContaining(['first_name', 'last_name']));
  });

  it('GET /v1/openapi.yaml is public and parses to the same document', async () => {
    const res = await http()
      .get('/v1/openapi.yaml')
      .buffer(true)
      .parse((response, done) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => done(null, text));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/yaml/);
    const text = res.body as string;
    expect(text.startsWith('openapi:')).toBe(true);
    expect(load(text)).toEqual(document);
  });

  it('GET /docs serves the interactive documentation as HTML', async () => {
    const res = await http().get('/docs').redirects(2);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toMatch(/swagger/i);
  });

  it('validates against the OpenAPI 3.1 structure (Ajv, structural subset)', () => {
    // A compact schema of the parts of OpenAPI 3.1 the API uses; it catches malformed operations,
    // parameters and responses without a network fetch of the official schema.
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const ref = {
      type: 'object',
      required: ['$ref'],
      properties: { $ref: { type: 'string', pattern: '^#/components/' } },
    };
    const schemaOrRef = { type: 'object' };
    const parameter = {
      anyOf: [
        ref,
        {
          type: 'object',
          required: ['name', 'in'],
          properties: {
            name: { type: 'string', minLength: 1 },
            in: { enum: ['query', 'header', 'path', 'cookie'] },
            required: { type: 'boolean' },
            schema: schemaOrRef,
          },
          if: { properties: { in: { const: 'path' } } },
          then: { required: ['name', 'in', 'required'], properties: { required: { const: true } } },
        },
      ],
    };
    const response = {
      anyOf: [
        ref,
        {
          type: 'object',
          required: ['description'],
          properties: {
            description: { type: 'string' },
            content: { type: 'object', additionalProperties: { type: 'object', properties: { schema: schemaOrRef } } },
          },
        },
      ],
    };
    const operation = {
      type: 'object',
      required: ['responses'],
      properties: {
        operationId: { type: 'string' },
        parameters: { type: 'array', items: parameter },
        requestBody: { type: 'object', required: ['content'] },
        responses: {
          type: 'object',
          minProperties: 1,
          propertyNames: { pattern: '^([1-5](\\d\\d|XX)|default)$' },
          additionalProperties: response,
        },
        security: {
          type: 'array',
          items: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
        },
      },
    };
    const pathItem = {
      type: 'object',
      propertyNames: {
        pattern: '^(get|put|post|delete|options|head|patch|trace|parameters|summary|description|servers|x-.*)$',
      },
      properties: Object.fromEntries([...METHODS, 'options', 'head', 'trace'].map((m) => [m, operation])),
    };
    const openapi = {
      type: 'object',
      required: ['openapi', 'info', 'paths'],
      properties: {
        openapi: { type: 'string', pattern: '^3\\.1\\.\\d+$' },
        info: {
          type: 'object',
          required: ['title', 'version'],
          properties: { title: { type: 'string' }, version: { type: 'string' } },
        },
        servers: { type: 'array', items: { type: 'object', required: ['url'] } },
        paths: { type: 'object', propertyNames: { pattern: '^/' }, additionalProperties: pathItem },
        webhooks: { type: 'object', minProperties: 1, additionalProperties: pathItem },
        components: {
          type: 'object',
          properties: {
            schemas: { type: 'object', additionalProperties: schemaOrRef },
            securitySchemes: {
              type: 'object',
              additionalProperties: {
                type: 'object',
                required: ['type'],
                properties: { type: { enum: ['apiKey', 'http', 'oauth2', 'openIdConnect'] } },
              },
            },
          },
        },
      },
    };
    const validate = ajv.compile(openapi);
    const ok = validate(document);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);

    // every path template parameter is declared as a path parameter of each operation
    for (const { path, method, op } of operations(document)) {
      for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
        const declared = (op.parameters ?? []).some((p) => p.in === 'path' && p.name === name);
        expect({ op: `${method} ${path}`, name, declared }).toEqual({ op: `${method} ${path}`, name, declared: true });
      }
    }
    // operationIds are unique
    const ids = operations(document)
      .map(({ op }) => op.operationId)
      .filter(Boolean);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
