import { AppError } from '../../common/errors/app-error';
import type { Principal } from './principal';
import { hasScope } from './scopes';

/**
 * Who a credential route acts for (CONTRACT §21): with admin:*, the whole church (null); through a
 * personal access token, only that token's user (its id). Any other token is refused: a service
 * token without admin:* manages no credentials. (OAuth access tokens and kiosk keys never get
 * here: `@Auth({ credentials: true })` refuses them first.)
 */
export function credentialOwner(caller: Principal): string | null {
  if (hasScope(caller.scopes, 'admin:*')) return null;
  if (caller.tokenType === 'pat' && caller.userId) return caller.userId;
  throw new AppError('scope_insufficient', { scope: 'admin:* (or a personal access token, for its own user)' }, [], {
    'WWW-Authenticate': 'Bearer realm="church-api", error="insufficient_scope", scope="admin:*"',
  });
}
