import type { ListSpec } from '../../common/lists/list-spec';
import { NOTIFICATION_STATUSES, NotificationEntity } from './notification.entity';

export const NOTIFICATION_LIST: ListSpec<NotificationEntity> = {
  resource: 'notification',
  defaultSort: 'created_at',
  sorts: {
    created_at: { column: 'created_at', type: 'timestamp', value: (row) => row.createdAt.toISOString() },
  },
  filters: {
    status: {
      type: 'enum',
      values: NOTIFICATION_STATUSES,
      ops: ['ne', 'in'],
      column: 'status',
      description: 'queued, sending, sent or canceled; `status[in]=queued,sending` for several.',
    },
    created_at: {
      type: 'timestamp',
      ops: ['gt', 'gte', 'lt', 'lte'],
      column: 'created_at',
      description: 'When it was posted (ISO 8601; an offset is honoured).',
    },
  },
};
