import type { ListSpec } from '../../common/lists/list-spec';
import type { OAuthClientEntity } from './oauth-client.entity';

export const OAUTH_CLIENT_LIST: ListSpec<OAuthClientEntity> = {
  resource: 'OAuth client',
  defaultSort: 'created_at',
  sorts: {
    created_at: { column: 'created_at', type: 'timestamp', value: (row) => row.createdAt.toISOString() },
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
