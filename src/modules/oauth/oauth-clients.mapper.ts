import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import type { OAuthClientResponse } from './dto/oauth-client.response';
import type { OAuthClientEntity } from './oauth-client.entity';

export function toOAuthClientResponse(client: OAuthClientEntity): OAuthClientResponse {
  const id = toPublicId(ID_PREFIX.oauthClient, client.id);
  return {
    id,
    client_id: id,
    name: client.name,
    type: client.type,
    redirect_uris: client.redirectUris,
    scopes: client.scopes,
    client_secret_display: client.secretLast4 ? `…${client.secretLast4}` : null,
    created_at: client.createdAt.toISOString(),
    updated_at: client.updatedAt.toISOString(),
  };
}
