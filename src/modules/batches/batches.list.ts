import type { ListSpec } from '../../common/lists/list-spec';
import { CURRENCY_CODES } from '../../common/money/currencies';
import { BATCH_STATUSES, BatchEntity } from './batch.entity';
import { timestampFilter, timestampSort } from '../../common/lists/list-spec-parts';

export const BATCH_LIST: ListSpec<BatchEntity> = {
  resource: 'batch',
  defaultSort: 'created_at',
  sorts: {
    created_at: timestampSort('created_at', (row) => row.createdAt),
  },
  filters: {
    status: {
      type: 'enum',
      values: BATCH_STATUSES,
      ops: ['ne'],
      column: 'status',
      description: '`status=open` for the batches still being entered.',
    },
    currency: { type: 'enum', values: CURRENCY_CODES, ops: ['in'], column: 'currency', description: 'ISO 4217 code.' },
    created_at: timestampFilter('created_at', 'Creation time (ISO 8601; an offset is honoured).'),
    updated_at: timestampFilter('updated_at', 'Last change (ISO 8601): for incremental sync.'),
  },
};
