import { ID_PREFIX } from '../../common/ids/id';
import type { ListSpec } from '../../common/lists/list-spec';
import { idCondition } from '../../common/lists/ref-filters';
import { PrayerRequestEntity, VISIBILITIES } from './prayer-request.entity';
import { timestampFilter, timestampSort } from '../../common/lists/list-spec-parts';
import { CAMPUS_FILTER } from '../campuses/campus-filter';

export const PRAYER_REQUEST_LIST: ListSpec<PrayerRequestEntity> = {
  resource: 'prayer request',
  defaultSort: 'created_at',
  sorts: {
    created_at: timestampSort('created_at', (row) => row.createdAt),
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
      sql: idCondition('member_id', ID_PREFIX.member),
      description: 'The member (mem_ id); `member_id[in]=a,b` for several.',
    },
    campus: CAMPUS_FILTER,
    created_at: timestampFilter('created_at', 'Creation time (ISO 8601; an offset is honoured).'),
    updated_at: timestampFilter('updated_at', 'Last change (ISO 8601): for incremental sync.'),
  },
};
