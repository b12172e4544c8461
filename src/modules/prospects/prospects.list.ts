import { ID_PREFIX } from '../../common/ids/id';
import type { ListSpec } from '../../common/lists/list-spec';
import { PROSPECT_SOURCES, PROSPECT_STAGES, ProspectEntity } from './prospect.entity';
import { timestampFilter, timestampSort } from '../../common/lists/list-spec-parts';
import { CAMPUS_FILTER } from '../campuses/campus-filter';
import { PERSON_SEARCH, idCondition } from '../../common/lists/ref-filters';

export const PROSPECT_LIST: ListSpec<ProspectEntity> = {
  resource: 'prospect',
  defaultSort: 'created_at',
  sorts: {
    created_at: timestampSort('created_at', (row) => row.createdAt),
    follow_up_on: { column: 'follow_up_on', type: 'date', nullable: true, value: (row) => row.followUpOn },
    last_name: { column: 'last_name', type: 'text', value: (row) => row.lastName },
  },
  filters: {
    stage: {
      type: 'enum',
      values: PROSPECT_STAGES,
      ops: ['ne', 'in'],
      column: 'stage',
      description: 'Pipeline stage; `stage[in]=new,contacted` for several.',
    },
    campus: CAMPUS_FILTER,
    assigned_to: {
      type: 'string',
      ops: ['in'],
      sql: idCondition('assigned_to', ID_PREFIX.user),
      description: 'The staff user (usr_ id) following the prospect up; `assigned_to[in]=a,b` for several.',
    },
    source: {
      type: 'enum',
      values: PROSPECT_SOURCES,
      ops: ['ne', 'in'],
      column: 'source',
      description: 'How the church met the person.',
    },
    follow_up_on: {
      type: 'date',
      ops: ['ne', 'gt', 'gte', 'lt', 'lte'],
      column: 'follow_up_on',
      description:
        'Follow-up date (YYYY-MM-DD), e.g. `follow_up_on[lte]=<today>` for the ones due; prospects without one never match.',
    },
    created_at: timestampFilter('created_at', 'Creation time (ISO 8601; an offset is honoured).'),
    updated_at: timestampFilter('updated_at', 'Last change (ISO 8601): for incremental sync.'),
    q: {
      type: 'string',
      ops: [],
      sql: PERSON_SEARCH,
      description: 'Search in name and e-mail (substring, case-insensitive).',
    },
  },
};
