import { AppError } from '../../common/errors/app-error';
import { ID_PREFIX, parsePublicId } from '../../common/ids/id';
import type { FilterValue, ListSpec, Operator } from '../../common/lists/list-spec';
import { GROUP_STATUSES, GroupEntity, MEETING_DAYS } from './group.entity';
import { timestampFilter, timestampSort } from '../../common/lists/list-spec-parts';
import { CAMPUS_FILTER } from '../campuses/campus-filter';

const asStrings = (value: FilterValue | FilterValue[]) => (Array.isArray(value) ? value : [value]).map(String);

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
    created_at: timestampSort('created_at', (row) => row.createdAt),
    name: { column: 'name', type: 'text', value: (row) => row.name },
  },
  filters: {
    campus: CAMPUS_FILTER,
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
    created_at: timestampFilter('created_at', 'Creation time (ISO 8601; an offset is honoured).'),
    updated_at: timestampFilter('updated_at', 'Last change (ISO 8601): for incremental sync.'),
    q: {
      type: 'string',
      ops: [],
      sql: searchCondition,
      description: 'Search in the name (substring, case-insensitive).',
    },
  },
};
