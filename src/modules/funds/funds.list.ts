import type { ListSpec } from '../../common/lists/list-spec';
import type { FundEntity } from './fund.entity';
import { timestampFilter, timestampSort } from '../../common/lists/list-spec-parts';
import { NAME_SEARCH } from '../../common/lists/ref-filters';

export const FUND_LIST: ListSpec<FundEntity> = {
  resource: 'fund',
  defaultSort: 'created_at',
  sorts: {
    created_at: timestampSort('created_at', (row) => row.createdAt),
    name: { column: 'name', type: 'text', value: (row) => row.name },
  },
  filters: {
    active: {
      type: 'boolean',
      ops: [],
      column: 'active',
      description: '`active=true` for the funds that take gifts, `false` for the archived ones.',
    },
    tax_deductible: {
      type: 'boolean',
      ops: [],
      column: 'tax_deductible',
      description: 'Whether gifts to the fund appear on year-end statements.',
    },
    q: {
      type: 'string',
      ops: [],
      sql: NAME_SEARCH,
      description: 'Search in the name (substring, case-insensitive).',
    },
    created_at: timestampFilter('created_at', 'Creation time (ISO 8601; an offset is honoured).'),
    updated_at: timestampFilter('updated_at', 'Last change (ISO 8601): for incremental sync.'),
  },
};
