import type { ListSpec } from '../../common/lists/list-spec';
import type { CampusEntity } from './campus.entity';

export const CAMPUS_LIST: ListSpec<CampusEntity> = {
  resource: 'campus',
  defaultSort: 'created_at',
  sorts: {
    created_at: { column: 'created_at', type: 'timestamp', value: (row) => row.createdAt.toISOString() },
    name: { column: 'name', type: 'text', value: (row) => row.name },
  },
  filters: {
    key: { type: 'string', ops: ['in'], column: 'key', description: 'Campus key; `key[in]=a,b` for several.' },
    created_at: {
      type: 'timestamp',
      ops: ['gt', 'gte', 'lt', 'lte'],
      column: 'created_at',
      description: 'Creation time (ISO 8601).',
    },
  },
};
