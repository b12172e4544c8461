import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import type { ApiTokenEntity } from '../../platform/auth/api-token.entity';
import type { TokenResponse } from './dto/token.response';

export function toTokenResponse(token: ApiTokenEntity): TokenResponse {
  return {
    id: toPublicId(ID_PREFIX.token, token.id),
    name: token.name,
    type: token.type,
    scopes: token.scopes,
    display: `${token.tokenPrefix}…${token.last4}`,
    user_id: token.userId ? toPublicId(ID_PREFIX.user, token.userId) : null,
    created_at: token.createdAt.toISOString(),
    expires_at: token.expiresAt?.toISOString() ?? null,
    last_used_at: token.lastUsedAt?.toISOString() ?? null,
    revoked_at: token.revokedAt?.toISOString() ?? null,
  };
}
