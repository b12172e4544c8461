import type { ListSpec } from '../../common/lists/list-spec';
import { CUSTOM_FIELD_TYPES, CustomFieldEntity } from './custom-field.entity';

export const CUSTOM_FIELD_LIST: ListSpec<CustomFieldEntity> = {
  resource: 'custom field',
  defaultSort: 'created_at',
  sorts: {
    created_at: { column: 'created_at', type: 'timestamp', value: (row) => row.createdAt.toISOString() },
    key: { column: 'key', type: 'text', value: (row) => row.key },
  },
  filters: {
    key: { type: 'string', ops: ['in'], column: 'key', description: 'Key; `key[in]=a,b` for several.' },
    type: { type: 'enum', values: CUSTOM_FIELD_TYPES, ops: ['in'], column: 'type', description: 'Field type.' },
    required: { type: 'boolean', ops: [], column: 'required', description: 'true or false.' },
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
