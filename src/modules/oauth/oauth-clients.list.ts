import type { ListSpec } from '../../common/lists/list-spec';
import type { OAuthClientEntity } from './oauth-client.entity';
import { timestampSort } from '../../common/lists/list-spec-parts';

export const OAUTH_CLIENT_LIST: ListSpec<OAuthClientEntity> = {
  resource: 'OAuth client',
  defaultSort: 'created_at',
  sorts: {
    created_at: timestampSort('created_at', (row) => row.createdAt),
    name: { column: 'name', type: 'text', value: (row) => row.name },
  },
  filters: {
    type: {
      type: 'enum',
      ops: [],
      values: ['public', 'confidential'],
      description: 'public or confidential',
      column: 'type',
    },
  },
};
