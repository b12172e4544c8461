import { isScope, ROLE_SCOPES, Role } from '../../platform/auth/scopes';

/** RFC 6749 §3.3: a space-separated list; `+` in a query string has already become a space. */
export function parseScopeParam(value: string | undefined | null): string[] {
  return [...new Set((value ?? '').split(' ').filter(Boolean))];
}

/**
 * What an authorization may grant: the requested scopes that are known, on the client's ceiling
 * and held by the user's role (requested ∩ client's ∩ role's), in the order requested. An empty
 * request asks for everything the client may have (RFC 6749 §3.3 lets the server pick a default).
 * `admin:*` is granted only when asked for by name and held by both.
 */
export function grantableScopes(requested: string[], clientScopes: string[], role: Role): string[] {
  const byRole = ROLE_SCOPES[role] as readonly string[];
  const wanted = requested.length > 0 ? requested : defaultScopes(clientScopes);
  return [...new Set(wanted)].filter((s) => isScope(s) && clientScopes.includes(s) && byRole.includes(s));
}

/** Scopes the role still holds (an access token is capped by the user's role when it is issued or refreshed). */
export function capByRole(scopes: readonly string[], role: Role): string[] {
  const byRole = ROLE_SCOPES[role] as readonly string[];
  return scopes.filter((s) => byRole.includes(s));
}

/** What an authorization request without `scope` asks for: the client's ceiling, never admin:*. */
export function defaultScopes(clientScopes: readonly string[]): string[] {
  return clientScopes.filter((s) => s !== 'admin:*');
}
