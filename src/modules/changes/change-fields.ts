import type { Type } from '@nestjs/common';
import { ID_PREFIX, type IdPrefix, toPublicId } from '../../common/ids/id';
import type { ChangeSource } from '../../platform/changes/change-sources';

/** Columns that hold another record's id, and that record's prefix. */
const REFERENCES: Record<string, IdPrefix> = {
  member_id: ID_PREFIX.member,
  donor_id: ID_PREFIX.member,
  primary_contact_id: ID_PREFIX.member,
  household_id: ID_PREFIX.household,
  campus_id: ID_PREFIX.campus,
  fund_id: ID_PREFIX.fund,
  batch_id: ID_PREFIX.batch,
  recurring_gift_id: ID_PREFIX.recurringGift,
  event_id: ID_PREFIX.event,
  group_id: ID_PREFIX.group,
  parent_group_id: ID_PREFIX.group,
  check_in_id: ID_PREFIX.checkIn,
  tag_id: ID_PREFIX.tag,
  assigned_to: ID_PREFIX.user,
  created_by: ID_PREFIX.user,
};

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d$/;

/** Where @nestjs/swagger keeps a class's @ApiProperty names (its DECORATORS constant, not exported by the package). */
const PROPERTIES = 'swagger/apiModelPropertiesArray';

const fieldsOf = new WeakMap<Type<unknown>, Set<string>>();

/** The fields a response class documents (its @ApiProperty names). */
export function documentedFields(response: Type<unknown>): Set<string> {
  let fields = fieldsOf.get(response);
  if (!fields) {
    const names = (Reflect.getMetadata(PROPERTIES, response.prototype as object) ?? []) as string[];
    fields = new Set(names.map((n) => n.replace(/^:/, '')));
    fieldsOf.set(response, fields);
  }
  return fields;
}

/**
 * Column values of a change as the record's GET names them: a column its GET shows under the same
 * name (an id column as a public id), or a reference column shown as an object (`campus_id` as
 * `campus: {id}`). Columns the GET does not show are never returned.
 */
export function toFields(source: ChangeSource, columns: Record<string, unknown> | null): Record<string, unknown> {
  const fields = documentedFields(source.response);
  const out: Record<string, unknown> = {};
  for (const [column, raw] of Object.entries(columns ?? {})) {
    const prefix = REFERENCES[column];
    const value = prefix && typeof raw === 'string' ? toPublicId(prefix, raw) : normalize(raw);
    if (fields.has(column)) out[column] = value;
    else if (column.endsWith('_id') && fields.has(column.slice(0, -3)))
      out[column.slice(0, -3)] = value === null ? null : { id: value };
  }
  return out;
}

function normalize(value: unknown): unknown {
  return typeof value === 'string' && TIMESTAMP.test(value) ? new Date(value).toISOString() : value;
}
