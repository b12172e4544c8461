import type { ListSpec } from '../../common/lists/list-spec';
import type { HouseholdEntity } from './household.entity';
import { timestampFilter, timestampSort } from '../../common/lists/list-spec-parts';
import { NAME_SEARCH } from '../../common/lists/ref-filters';

export const HOUSEHOLD_LIST: ListSpec<HouseholdEntity> = {
  resource: 'household',
  defaultSort: 'created_at',
  sorts: {
    created_at: timestampSort('created_at', (row) => row.createdAt),
    name: { column: 'name', type: 'text', value: (row) => row.name },
  },
  filters: {
    q: { type: 'string', ops: [], sql: NAME_SEARCH, description: 'Search in the name (substring, case-insensitive).' },
    created_at: timestampFilter('created_at', 'Creation time (ISO 8601; an offset is honoured).'),
    updated_at: timestampFilter('updated_at', 'Last change (ISO 8601): for incremental sync.'),
  },
};
