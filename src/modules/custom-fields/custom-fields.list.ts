import type { ListSpec } from '../../common/lists/list-spec';
import { CUSTOM_FIELD_TYPES, CustomFieldEntity } from './custom-field.entity';
import { timestampFilter, timestampSort } from '../../common/lists/list-spec-parts';

export const CUSTOM_FIELD_LIST: ListSpec<CustomFieldEntity> = {
  resource: 'custom field',
  defaultSort: 'created_at',
  sorts: {
    created_at: timestampSort('created_at', (row) => row.createdAt),
    key: { column: 'key', type: 'text', value: (row) => row.key },
  },
  filters: {
    key: { type: 'string', ops: ['in'], column: 'key', description: 'Key; `key[in]=a,b` for several.' },
    type: { type: 'enum', values: CUSTOM_FIELD_TYPES, ops: ['in'], column: 'type', description: 'Field type.' },
    required: { type: 'boolean', ops: [], column: 'required', description: 'true or false.' },
    created_at: timestampFilter('created_at', 'Creation time (ISO 8601).'),
    updated_at: timestampFilter('updated_at', 'Last change (ISO 8601).'),
  },
};
