import { AppError } from '../errors/app-error';
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

/** Like idCondition, but an id of the wrong shape is a 400 naming the field instead of matching nothing. */
export function strictIdCondition(field: string, column: string, prefix: IdPrefix): SqlCondition {
  return (alias: string, op: Operator, value: FilterValue | FilterValue[], param: (v: unknown) => string): string => {
    const ids = asStrings(value).map((v) => parsePublicId(prefix, v));
    if (ids.some((id) => id === null))
      throw AppError.invalidParameter(op === 'in' ? `${field}[in]` : field, 'invalid_format', {
        format: `${prefix}_ id`,
      });
    return `${alias}.${column} IN ${param(ids)}`;
  };
}

/** `q=<text>`: a case-insensitive substring of any of the expressions (`%`, `_` and `\` are literal). */
export function textSearch(...expressions: ((alias: string) => string)[]): SqlCondition {
  return (alias: string, _op: Operator, value: FilterValue | FilterValue[], param: (v: unknown) => string): string => {
    const p = param(`%${String(value).replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const each = expressions.map((expression) => `${expression(alias)} ILIKE ${p}`);
    return each.length === 1 ? each[0] : `(${each.join(' OR ')})`;
  };
}

/** The `q` search of people (members, prospects): full name or e-mail. */
export const PERSON_SEARCH = textSearch(
  (a) => `(${a}.first_name || ' ' || ${a}.last_name)`,
  (a) => `${a}.email`,
);

/** The `q` search of named records (funds, groups, households). */
export const NAME_SEARCH = textSearch((a) => `${a}.name`);
