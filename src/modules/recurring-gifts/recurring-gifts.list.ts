import { ID_PREFIX } from '../../common/ids/id';
import type { ListSpec } from '../../common/lists/list-spec';
import { idCondition } from '../../common/lists/ref-filters';
import { RECURRING_STATUSES, RecurringGiftEntity } from './recurring-gift.entity';
import { INTERVALS } from './schedule';
import { timestampFilter, timestampSort } from '../../common/lists/list-spec-parts';

export const RECURRING_GIFT_LIST: ListSpec<RecurringGiftEntity> = {
  resource: 'recurring gift',
  defaultSort: 'created_at',
  sorts: {
    created_at: timestampSort('created_at', (row) => row.createdAt),
    start_on: { column: 'start_on', type: 'date', value: (row) => row.startOn },
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
    status: {
      type: 'enum',
      values: RECURRING_STATUSES,
      ops: ['ne', 'in'],
      column: 'status',
      description: '`active`, `paused` or `canceled`; `status[in]=active,paused` for the live ones.',
    },
    interval: { type: 'enum', values: INTERVALS, ops: ['in'], column: 'interval', description: 'The cadence.' },
    currency: {
      type: 'string',
      ops: ['in'],
      column: 'currency',
      description: 'ISO 4217 code in upper case, e.g. `USD`.',
    },
    start_on: {
      type: 'date',
      ops: ['gt', 'gte', 'lt', 'lte'],
      column: 'start_on',
      description: 'First charge date (YYYY-MM-DD).',
    },
    created_at: timestampFilter('created_at', 'Creation time (ISO 8601; an offset is honoured).'),
    updated_at: timestampFilter('updated_at', 'Last change (ISO 8601): for incremental sync.'),
  },
};
