import type { FilterDef, Operator, SqlCondition } from '../../common/lists/list-spec';
import type { CustomFieldEntity } from './custom-field.entity';

const SQL_OP: Partial<Record<Operator, string>> = { gt: '>', gte: '>=', lt: '<', lte: '<=' };

/** The filter parameter of a field in member lists. */
export const filterName = (key: string) => `custom_fields.${key}`;

/**
 * `custom_fields.<key>=value` as containment (`custom_fields @> {"<key>": value}`), which the GIN
 * index over members' custom_fields answers; the value is typed by the definition (a number, a
 * boolean, a string).
 */
function equals(key: string): SqlCondition {
  return (alias, _op, value, param) => `${alias}.custom_fields @> ${param(JSON.stringify({ [key]: value }))}::jsonb`;
}

/**
 * Range operators of number fields. A value of another type (kept from before the definition
 * existed) never matches, and never makes the cast fail.
 */
function numberRange(key: string): SqlCondition {
  return (alias, op, value, param) => {
    if (op === 'eq') return equals(key)(alias, op, value, param);
    const k = param(key);
    return `(CASE WHEN jsonb_typeof(${alias}.custom_fields -> ${k}) = 'number' THEN (${alias}.custom_fields ->> ${k})::numeric END) ${SQL_OP[op]} ${param(value)}::numeric`;
  };
}

/** Range operators of date fields: YYYY-MM-DD strings compare as text (byte order, whatever the collation). */
function dateRange(key: string): SqlCondition {
  return (alias, op, value, param) => {
    if (op === 'eq') return equals(key)(alias, op, value, param);
    const text = `(${alias}.custom_fields ->> ${param(key)})`;
    return `(${text} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' AND ${text} COLLATE "C" ${SQL_OP[op]} ${param(value)})`;
  };
}

/** The member-list filters of the church's custom fields, by parameter name. */
export function customFieldFilters(definitions: CustomFieldEntity[]): Record<string, FilterDef> {
  const filters: Record<string, FilterDef> = {};
  for (const d of definitions) {
    const description = `Custom field ${d.key} (${d.type}).`;
    switch (d.type) {
      case 'text':
        filters[filterName(d.key)] = { type: 'string', ops: [], sql: equals(d.key), description };
        break;
      case 'select':
        filters[filterName(d.key)] = {
          type: 'enum',
          values: d.options ?? [],
          ops: [],
          sql: equals(d.key),
          description,
        };
        break;
      case 'boolean':
        filters[filterName(d.key)] = { type: 'boolean', ops: [], sql: equals(d.key), description };
        break;
      case 'number':
        filters[filterName(d.key)] = {
          type: 'number',
          ops: ['gt', 'gte', 'lt', 'lte'],
          sql: numberRange(d.key),
          description,
        };
        break;
      case 'date':
        filters[filterName(d.key)] = {
          type: 'date',
          ops: ['gt', 'gte', 'lt', 'lte'],
          sql: dateRange(d.key),
          description,
        };
        break;
    }
  }
  return filters;
}
