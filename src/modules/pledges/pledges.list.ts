import { ID_PREFIX } from '../../common/ids/id';
import type { ListSpec } from '../../common/lists/list-spec';
import { idCondition } from '../../common/lists/ref-filters';
import { PledgeEntity } from './pledge.entity';
import { timestampFilter, timestampSort } from '../../common/lists/list-spec-parts';

export const PLEDGE_LIST: ListSpec<PledgeEntity> = {
  resource: 'pledge',
  defaultSort: 'created_at',
  sorts: {
    created_at: timestampSort('created_at', (row) => row.createdAt),
    ends_on: { column: 'ends_on', type: 'date', value: (row) => row.endsOn },
  },
  filters: {
    donor_id: {
      type: 'string',
      ops: ['in'],
      sql: idCondition('donor_id', ID_PREFIX.member),
      description: 'The donor (mem_ id); `donor_id[in]=a,b` for several.',
    },
    fund_id: {
      type: 'string',
      ops: ['in'],
      sql: idCondition('fund_id', ID_PREFIX.fund),
      description: 'The fund (fnd_ id); `fund_id[in]=a,b` for several.',
    },
    currency: {
      type: 'string',
      ops: ['in'],
      column: 'currency',
      description: 'ISO 4217 code in upper case, e.g. `USD`.',
    },
    starts_on: {
      type: 'date',
      ops: ['gt', 'gte', 'lt', 'lte'],
      column: 'starts_on',
      description: 'First day of the pledge window (YYYY-MM-DD).',
    },
    ends_on: {
      type: 'date',
      ops: ['gt', 'gte', 'lt', 'lte'],
      column: 'ends_on',
      description: 'Last day of the pledge window (YYYY-MM-DD); `ends_on[gte]=<today>` for the pledges still open.',
    },
    created_at: timestampFilter('created_at', 'Creation time (ISO 8601; an offset is honoured).'),
    updated_at: timestampFilter('updated_at', 'Last change (ISO 8601): for incremental sync.'),
  },
};
