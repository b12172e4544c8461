import type { ListSpec } from '../../common/lists/list-spec';
import type { TagEntity } from './tag.entity';

export const TAG_LIST: ListSpec<TagEntity> = {
  resource: 'tag',
  defaultSort: 'created_at',
  sorts: {
    created_at: { column: 'created_at', type: 'timestamp', value: (row) => row.createdAt.toISOString() },
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
    created_at: {
      type: 'timestamp',
      ops: ['gt', 'gte', 'lt', 'lte'],
      column: 'created_at',
      description: 'Creation time (ISO 8601).',
    },
    updated_at: {
      type: 'timestamp',
      ops: ['gt', 'gte', 'lt', 'lte'],
      column: 'updated_at',
      description: 'Last change (ISO 8601).',
    },
  },
};
