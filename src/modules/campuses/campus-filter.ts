import { ID_PREFIX } from '../../common/ids/id';
import type { FilterDef, FilterValue, Operator } from '../../common/lists/list-spec';
import { asStrings, uuidsOf } from '../../common/lists/ref-filters';

/** `campus=<key or cmp_ id>` or `campus[in]=a,b` on a record's campus_id. */
function campusCondition(
  alias: string,
  _op: Operator,
  value: FilterValue | FilterValue[],
  param: (v: unknown) => string,
): string {
  const refs = asStrings(value);
  return `${alias}.campus_id IN (SELECT c.id FROM campuses c WHERE c.tenant_id = ${alias}.tenant_id AND (c.key IN ${param(refs)} OR c.id IN ${param(uuidsOf(ID_PREFIX.campus, refs))}))`;
}

/** The `campus` filter of every list whose records carry a campus_id. */
export const CAMPUS_FILTER: FilterDef = {
  type: 'string',
  ops: ['in'],
  sql: campusCondition,
  description: 'Campus key or cmp_ id; `campus[in]=a,b` for several.',
};
