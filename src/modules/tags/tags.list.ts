import type { ListSpec } from '../../common/lists/list-spec';
import type { TagEntity } from './tag.entity';
import { timestampFilter, timestampSort } from '../../common/lists/list-spec-parts';

export const TAG_LIST: ListSpec<TagEntity> = {
  resource: 'tag',
  defaultSort: 'created_at',
  sorts: {
    created_at: timestampSort('created_at', (row) => row.createdAt),
    name: { column: 'name', type: 'text', value: (row) => row.name },
  },
  filters: {
    name: {
      type: 'string',
      ops: ['in'],
      sql: (a, _o, v, p) =>
        `lower(${a}.name) IN ${p((Array.isArray(v) ? v : [v]).map((n) => String(n).trim().toLowerCase()))}`,
      description: 'Exact name, ignoring case; `name[in]=a,b` for several.',
    },
    created_at: timestampFilter('created_at', 'Creation time (ISO 8601).'),
    updated_at: timestampFilter('updated_at', 'Last change (ISO 8601).'),
  },
};
