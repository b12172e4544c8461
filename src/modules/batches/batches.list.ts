import type { ListSpec } from '../../common/lists/list-spec';
import { CURRENCY_CODES } from '../../common/money/currencies';
import { BATCH_STATUSES, BatchEntity } from './batch.entity';

export const BATCH_LIST: ListSpec<BatchEntity> = {
  resource: 'batch',
  defaultSort: 'created_at',
  sorts: {
    created_at: { column: 'created_at', type: 'timestamp', value: (row) => row.createdAt.toISOString() },
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
  },
};
