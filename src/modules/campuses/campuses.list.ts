import type { ListSpec } from '../../common/lists/list-spec';
import type { CampusEntity } from './campus.entity';
import { timestampFilter, timestampSort } from '../../common/lists/list-spec-parts';

export const CAMPUS_LIST: ListSpec<CampusEntity> = {
  resource: 'campus',
  defaultSort: 'created_at',
  sorts: {
    created_at: timestampSort('created_at', (row) => row.createdAt),
    name: { column: 'name', type: 'text', value: (row) => row.name },
  },
  filters: {
    key: { type: 'string', ops: ['in'], column: 'key', description: 'Campus key; `key[in]=a,b` for several.' },
    created_at: timestampFilter('created_at', 'Creation time (ISO 8601).'),
  },
};
