import { IdPrefix, parsePublicId } from '../ids/id';
import type { FilterValue, Operator, SqlCondition } from './list-spec';

/** A uuid no row has: what a filter naming only malformed ids compares with. */
export const NO_ID = '00000000-0000-0000-0000-000000000000';

/** A filter's value as strings (`field=a` or `field[in]=a,b`). */
export const asStrings = (value: FilterValue | FilterValue[]): string[] =>
  (Array.isArray(value) ? value : [value]).map(String);

/** The uuids of the public ids among `refs`; a malformed one matches nothing (as an unknown one does). */
export function uuidsOf(prefix: IdPrefix, refs: string[]): string[] {
  const ids = refs.map((r) => parsePublicId(prefix, r)).filter((id): id is string => id !== null);
  return ids.length ? ids : [NO_ID];
}

/** `<field>=<prefixed id>` or `<field>[in]=a,b` on a uuid column (one id: `=`, so the (tenant_id, column, …) index is a range). */
export function idCondition(column: string, prefix: IdPrefix): SqlCondition {
  return (alias: string, _op: Operator, value: FilterValue | FilterValue[], param: (v: unknown) => string): string => {
    const ids = uuidsOf(prefix, asStrings(value));
    return ids.length === 1 ? `${alias}.${column} = ${param(ids[0])}` : `${alias}.${column} IN ${param(ids)}`;
  };
}
