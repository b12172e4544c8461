import type { ListSpec } from '../../common/lists/list-spec';
import type { ApiTokenEntity } from '../../platform/auth/api-token.entity';
import { timestampSort } from '../../common/lists/list-spec-parts';

export const TOKEN_LIST: ListSpec<ApiTokenEntity> = {
  resource: 'token',
  defaultSort: 'created_at',
  sorts: { created_at: timestampSort('created_at', (row) => row.createdAt) },
  filters: {
    type: {
      type: 'enum',
      values: ['pat', 'service', 'kiosk', 'oauth'],
      ops: ['in'],
      column: 'type',
      description: 'Token type.',
    },
    revoked: {
      type: 'boolean',
      ops: [],
      sql: (a, _o, v) => (v ? `${a}.revoked_at IS NOT NULL` : `${a}.revoked_at IS NULL`),
      description: 'true: only revoked tokens; false: only live ones.',
    },
  },
};
