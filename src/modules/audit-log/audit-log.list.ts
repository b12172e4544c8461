import { ID_PREFIX, parsePublicId } from '../../common/ids/id';
import type { ListSpec } from '../../common/lists/list-spec';
import type { AuditEntryEntity } from '../../platform/audit/audit-entry.entity';
import { timestampFilter, timestampSort } from '../../common/lists/list-spec-parts';

export const AUDIT_LIST: ListSpec<AuditEntryEntity> = {
  resource: 'audit entry',
  defaultSort: '-created_at',
  sorts: { created_at: timestampSort('created_at', (row) => row.createdAt) },
  filters: {
    action: { type: 'string', ops: ['in'], column: 'action', description: 'e.g. members.create' },
    resource_type: { type: 'string', ops: ['in'], column: 'resource_type', description: 'e.g. members' },
    resource_id: { type: 'string', ops: [], column: 'resource_id', description: 'Public id of the record.' },
    token_id: {
      type: 'string',
      ops: [],
      sql: (a, _o, v, p) =>
        `${a}.token_id = ${p(parsePublicId(ID_PREFIX.token, v) ?? '00000000-0000-0000-0000-000000000000')}`,
      description: 'tok_ id of the token used.',
    },
    created_at: timestampFilter('created_at', 'Time of the action.'),
  },
};
