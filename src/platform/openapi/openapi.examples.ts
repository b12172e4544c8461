import type { OpenAPIObject, ReferenceObject, SchemaObject } from '@nestjs/swagger';

type Schema = SchemaObject | ReferenceObject;

/** Nested objects deeper than this are left out (a schema that refers to itself ends there). */
const MAX_DEPTH = 8;

/**
 * An example value of `schema`, built from the document's own examples: a schema's `example`
 * first, then its properties' examples (through `$ref` and `allOf`), an enum's first value, an
 * array of one example item; null for a nullable value without one.
 */
export function exampleOf(document: OpenAPIObject, schema: Schema, depth = 0): unknown {
  const resolved = resolve(document, schema);
  if (resolved.example !== undefined) return resolved.example;
  if (resolved.allOf?.length)
    return Object.assign({}, ...resolved.allOf.map((part) => exampleOf(document, part, depth) as object));
  if (resolved.enum?.length) return resolved.enum[0];
  if (resolved.properties) {
    if (depth >= MAX_DEPTH) return {};
    return Object.fromEntries(
      Object.entries(resolved.properties).map(([name, property]) => [name, exampleOf(document, property, depth + 1)]),
    );
  }
  if (resolved.nullable) return null;
  switch (resolved.type) {
    case 'array':
      return resolved.items ? [exampleOf(document, resolved.items, depth + 1)] : [];
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'object':
      return {};
    default:
      return resolved.format === 'date-time' ? new Date(0).toISOString() : '';
  }
}

function resolve(document: OpenAPIObject, schema: Schema): SchemaObject {
  if (!('$ref' in schema)) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  return resolve(document, document.components?.schemas?.[name] ?? {});
}
