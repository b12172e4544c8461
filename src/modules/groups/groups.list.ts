import { ID_PREFIX } from '../../common/ids/id';
import type { ListSpec } from '../../common/lists/list-spec';
import { GROUP_STATUSES, GroupEntity, MEETING_DAYS } from './group.entity';
import { timestampFilter, timestampSort } from '../../common/lists/list-spec-parts';
import { CAMPUS_FILTER } from '../campuses/campus-filter';
import { NAME_SEARCH, strictIdCondition } from '../../common/lists/ref-filters';

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
      sql: strictIdCondition('parent_group_id', 'parent_group_id', ID_PREFIX.group),
      description: 'The group they multiplied from (grp_ id). A value that is not a grp_ id is a 400.',
    },
    created_at: timestampFilter('created_at', 'Creation time (ISO 8601; an offset is honoured).'),
    updated_at: timestampFilter('updated_at', 'Last change (ISO 8601): for incremental sync.'),
    q: {
      type: 'string',
      ops: [],
      sql: NAME_SEARCH,
      description: 'Search in the name (substring, case-insensitive).',
    },
  },
};
