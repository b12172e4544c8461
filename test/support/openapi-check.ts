import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { OpenAPIObject } from '@nestjs/swagger';

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
}

/**
 * Checks a response against the OpenAPI description: the route and method exist, a 2xx status is
 * documented, and the body matches the documented schema (problem+json bodies match Problem).
 * OpenAPI 3.1 schemas are JSON Schema 2020-12 (null is `type: [X, 'null']`), hence Ajv's 2020 build;
 * unknown keywords such as `example` are ignored (strict: false).
 */
export class OpenApiCheck {
  private readonly ajv: Ajv2020;
  private readonly routes: { regex: RegExp; template: string }[];
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenAPIObject) {
    if (!/^3\.1\.\d+$/.test(document.openapi))
      throw new Error(`OpenApiCheck reads OpenAPI 3.1 schemas; the document is ${document.openapi}`);
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ ...(toAjvRefs(document) as object), $id: 'openapi' });
    this.routes = Object.keys(document.paths).map((template) => ({
      template,
      regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
  }

  /** Returns a list of problems; empty when the response conforms. */
  check(method: string, url: string, status: number, contentType: string | undefined, body: unknown): string[] {
    const path = url.split('?')[0];
    if (contentType?.startsWith('application/problem+json')) {
      return this.validate('#/components/schemas/Problem', body, `${method} ${path} ${status}`);
    }
    if (status === 304 || status === 204) return [];
    const route = this.routes.find((r) => r.regex.test(path));
    if (!route) return [`${path} is not in the OpenAPI description`];
    const operation = (this.document.paths[route.template] as Record<string, Operation>)[method.toLowerCase()];
    if (!operation) return [`${method} ${route.template} is not in the OpenAPI description`];
    const response = operation.responses?.[String(status)];
    if (!response) return [`${method} ${route.template} does not document status ${status}`];
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return [];
    const pointer = `${route.template}|${method}|${status}`;
    let validate = this.cache.get(pointer);
    if (!validate) {
      validate = this.ajv.compile(toAjvRefs(schema) as object);
      this.cache.set(pointer, validate);
    }
    return validate(body)
      ? []
      : (validate.errors ?? []).map((e) => `${method} ${path} ${status}: ${e.instancePath} ${e.message}`);
  }

  private validate(ref: string, body: unknown, label: string): string[] {
    const validate = this.ajv.getSchema(`openapi${ref}`);
    if (!validate) return [`schema ${ref} missing`];
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${label}: ${e.instancePath} ${e.message}`);
  }
}

/** Local `$ref`s (`#/components/...`) pointed into the document registered as `openapi`. */
function toAjvRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toAjvRefs);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `openapi${v}` : toAjvRefs(v),
    ]),
  );
}
