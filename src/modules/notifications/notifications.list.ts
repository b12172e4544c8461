import type { ListSpec } from '../../common/lists/list-spec';
import { NOTIFICATION_STATUSES, NotificationEntity } from './notification.entity';
import { timestampFilter, timestampSort } from '../../common/lists/list-spec-parts';

export const NOTIFICATION_LIST: ListSpec<NotificationEntity> = {
  resource: 'notification',
  defaultSort: 'created_at',
  sorts: {
    created_at: timestampSort('created_at', (row) => row.createdAt),
  },
  filters: {
    status: {
      type: 'enum',
      values: NOTIFICATION_STATUSES,
      ops: ['ne', 'in'],
      column: 'status',
      description: 'queued, sending, sent or canceled; `status[in]=queued,sending` for several.',
    },
    created_at: timestampFilter('created_at', 'When it was posted (ISO 8601; an offset is honoured).'),
  },
};
