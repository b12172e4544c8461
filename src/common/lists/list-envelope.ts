import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiQuery, getSchemaPath } from '@nestjs/swagger';
import { ListSpec, MAX_LIMIT, DEFAULT_LIMIT } from './list-spec';
import type { Page } from './keyset-page';

/** The list envelope of the specification. */
export interface ListEnvelope<R> {
  data: R[];
  next_cursor: string | null;
  /** Null when the request asked `total=false`. */
  total: number | null;
}

export function toEnvelope<T, R>(page: Page<T>, map: (row: T) => R): ListEnvelope<R> {
  return { data: page.rows.map(map), next_cursor: page.nextCursor, total: page.total };
}

/** OpenAPI for a list route: the envelope of `item`, and every query parameter of the spec. */
export function ApiList<T>(item: Type<unknown>, spec: ListSpec<T>) {
  const sortable = Object.keys(spec.sorts);
  const decorators = [
    ApiExtraModels(item),
    ApiOkResponse({
      description: `A page of ${spec.resource} records.`,
      schema: {
        type: 'object',
        required: ['data', 'next_cursor', 'total'],
        properties: {
          data: { type: 'array', items: { $ref: getSchemaPath(item) } },
          next_cursor: {
            type: 'string',
            nullable: true,
            description: 'Pass as `cursor` for the next page; null at the end.',
          },
          total: {
            type: 'integer',
            nullable: true,
            description: 'Number of records matching the filters (exact); null with `total=false`.',
          },
        },
      },
    }),
    ApiQuery({
      name: 'cursor',
      required: false,
      type: String,
      description: 'Opaque cursor from next_cursor. Valid only with the same sort.',
    }),
    ApiQuery({
      name: 'limit',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
    }),
    ApiQuery({
      name: 'total',
      required: false,
      schema: { type: 'boolean', default: true },
      description: '`false` skips counting (the envelope then has `total: null`).',
    }),
    ApiQuery({
      name: 'sort',
      required: false,
      schema: {
        type: 'string',
        default: spec.defaultSort,
        example: sortable.length > 1 ? `-${sortable[0]},${sortable[1]}` : sortable[0],
      },
      description: `Comma-separated fields, \`-\` for descending; the id breaks ties. Sortable: ${sortable.join(', ')}.`,
    }),
  ];
  for (const [name, def] of Object.entries(spec.filters)) {
    const schema =
      def.type === 'enum'
        ? { type: 'string', enum: [...(def.values ?? [])] }
        : { type: typeOf(def.type), format: formatOf(def.type) };
    decorators.push(ApiQuery({ name, required: false, schema, description: def.description }));
    for (const op of def.ops) {
      decorators.push(
        ApiQuery({
          name: `${name}[${op}]`,
          required: false,
          schema: op === 'in' ? { type: 'string', description: 'comma-separated' } : schema,
          description: `${name} ${op}`,
        }),
      );
    }
  }
  return applyDecorators(...decorators);
}

function typeOf(type: string): string {
  return type === 'integer' ? 'integer' : type === 'number' ? 'number' : type === 'boolean' ? 'boolean' : 'string';
}

function formatOf(type: string): string | undefined {
  return type === 'timestamp' ? 'date-time' : type === 'date' ? 'date' : undefined;
}
