import { ID_PREFIX, parsePublicId } from '../../common/ids/id';
import type { FilterValue, ListSpec, Operator } from '../../common/lists/list-spec';
import { PrayerRequestEntity, VISIBILITIES } from './prayer-request.entity';

/** Matches nothing: the uuid no row has, for references that name no record. */
const NO_ID = '00000000-0000-0000-0000-000000000000';

const valuesOf = (value: FilterValue | FilterValue[]) => (Array.isArray(value) ? value : [value]).map(String);

/** member_id=mem_… or member_id[in]=a,b (ids checked by the service before the query). */
function memberCondition(
  alias: string,
  _op: Operator,
  value: FilterValue | FilterValue[],
  param: (v: unknown) => string,
): string {
  const ids = valuesOf(value).map((v) => parsePublicId(ID_PREFIX.member, v) ?? NO_ID);
  return `${alias}.member_id IN ${param(ids)}`;
}

/** campus=<key or cmp_ id>, or campus[in]=a,b. */
function campusCondition(
  alias: string,
  _op: Operator,
  value: FilterValue | FilterValue[],
  param: (v: unknown) => string,
): string {
  const refs = valuesOf(value);
  const ids = refs.map((r) => parsePublicId(ID_PREFIX.campus, r)).filter((id): id is string => id !== null);
  return `${alias}.campus_id IN (SELECT c.id FROM campuses c WHERE c.tenant_id = ${alias}.tenant_id AND (c.key IN ${param(refs)} OR c.id IN ${param(ids.length ? ids : [NO_ID])}))`;
}

export const PRAYER_REQUEST_LIST: ListSpec<PrayerRequestEntity> = {
  resource: 'prayer request',
  defaultSort: 'created_at',
  sorts: {
    created_at: { column: 'created_at', type: 'timestamp', value: (row) => row.createdAt.toISOString() },
  },
  filters: {
    answered: {
      type: 'boolean',
      ops: [],
      sql: (a, _o, v) => `${a}.answered_at IS ${v ? 'NOT NULL' : 'NULL'}`,
      description: 'true: answered ones only; false: those awaiting an answer.',
    },
    visibility: {
      type: 'enum',
      values: VISIBILITIES,
      ops: ['ne', 'in'],
      column: 'visibility',
      description: 'Visibility (private ones are listed only for their author and org_admins).',
    },
    urgent: { type: 'boolean', ops: [], column: 'urgent', description: 'true or false.' },
    member_id: {
      type: 'string',
      ops: ['in'],
      sql: memberCondition,
      description: 'The member (mem_ id); `member_id[in]=a,b` for several.',
    },
    campus: {
      type: 'string',
      ops: ['in'],
      sql: campusCondition,
      description: 'Campus key or cmp_ id; `campus[in]=a,b` for several.',
    },
    created_at: {
      type: 'timestamp',
      ops: ['gt', 'gte', 'lt', 'lte'],
      column: 'created_at',
      description: 'Creation time (ISO 8601; an offset is honoured).',
    },
    updated_at: {
      type: 'timestamp',
      ops: ['gt', 'gte', 'lt', 'lte'],
      column: 'updated_at',
      description: 'Last change (ISO 8601): for incremental sync.',
    },
  },
};
