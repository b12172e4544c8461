import { AppError } from '../../common/errors/app-error';
import { ID_PREFIX, parsePublicId } from '../../common/ids/id';
import type { FilterValue, ListSpec, Operator } from '../../common/lists/list-spec';
import { GROUP_STATUSES, GroupEntity, MEETING_DAYS } from './group.entity';

const NO_ID = '00000000-0000-0000-0000-000000000000';
const asStrings = (value: FilterValue | FilterValue[]) => (Array.isArray(value) ? value : [value]).map(String);

/** campus=<key or cmp_ id>, or campus[in]=a,b (as members filter it). */
function campusCondition(
  alias: string,
  _op: Operator,
  value: FilterValue | FilterValue[],
  param: (v: unknown) => string,
): string {
  const refs = asStrings(value);
  const ids = refs.map((r) => parsePublicId(ID_PREFIX.campus, r)).filter((id): id is string => id !== null);
  return `${alias}.campus_id IN (SELECT c.id FROM campuses c WHERE c.tenant_id = ${alias}.tenant_id AND (c.key IN ${param(refs)} OR c.id IN ${param(ids.length ? ids : [NO_ID])}))`;
}

/** parent_group_id=<grp_ id>: the groups a group multiplied into; a value that is no grp_ id is a 400. */
function parentCondition(
  alias: string,
  op: Operator,
  value: FilterValue | FilterValue[],
  param: (v: unknown) => string,
): string {
  const ids = asStrings(value).map((v) => parsePublicId(ID_PREFIX.group, v));
  if (ids.some((id) => id === null))
    throw AppError.invalidParameter(op === 'in' ? 'parent_group_id[in]' : 'parent_group_id', 'invalid_format', {
      format: 'grp_ id',
    });
  return `${alias}.parent_group_id IN ${param(ids)}`;
}

function searchCondition(
  alias: string,
  _op: Operator,
  value: FilterValue | FilterValue[],
  param: (v: unknown) => string,
): string {
  const pattern = `%${String(value).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return `${alias}.name ILIKE ${param(pattern)}`;
}

export const GROUP_LIST: ListSpec<GroupEntity> = {
  resource: 'group',
  defaultSort: 'created_at',
  sorts: {
    created_at: { column: 'created_at', type: 'timestamp', value: (row) => row.createdAt.toISOString() },
    name: { column: 'name', type: 'text', value: (row) => row.name },
  },
  filters: {
    campus: {
      type: 'string',
      ops: ['in'],
      sql: campusCondition,
      description: 'Campus key or cmp_ id; `campus[in]=a,b` for several.',
    },
    status: {
      type: 'enum',
      values: GROUP_STATUSES,
      ops: ['ne', 'in'],
      column: 'status',
      description: 'open, full or closed; `status[ne]=closed` for the groups still meeting.',
    },
    meeting_day: {
      type: 'enum',
      values: MEETING_DAYS,
      ops: ['in'],
      column: 'meeting_day',
      description: 'Day of the week the group meets.',
    },
    parent_group_id: {
      type: 'string',
      ops: ['in'],
      sql: parentCondition,
      description: 'The group they multiplied from (grp_ id). A value that is not a grp_ id is a 400.',
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
    q: {
      type: 'string',
      ops: [],
      sql: searchCondition,
      description: 'Search in the name (substring, case-insensitive).',
    },
  },
};
