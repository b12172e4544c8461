import { isStorableText } from '../../common/validation/text';
import { isScope } from '../../platform/auth/scopes';
import type { AuthorizeClient } from './oauth-clients.service';
import { defaultScopes, parseScopeParam } from './oauth-scopes';

/** The longest `state` kept (it is echoed in the redirect; clients use a nonce or a short key). */
export const MAX_STATE_LENGTH = 2048;

/** An error the client hears about at its redirect_uri (RFC 6749 §4.1.2.1). */
export interface RedirectError {
  error: 'invalid_request' | 'unsupported_response_type' | 'invalid_scope' | 'access_denied' | 'server_error';
  /** ASCII, names the failed check (RFC 6749: %x20-21 / %x23-5B / %x5D-7E). */
  description: string;
}

/** A request whose client and redirect_uri are good: what the pending request keeps. */
export interface ValidAuthorization {
  redirectUri: string;
  state: string | null;
  /** requested ∩ client's (the client's ceiling but admin:* when no scope is asked for); the role cuts it at sign-in. */
  scopes: string[];
  codeChallenge: string;
}

export type AuthorizeCheck =
  /** No redirect: the client or the redirect_uri cannot be trusted (an error page). */
  | { kind: 'page'; error: 'unknown_client' | 'invalid_redirect' | 'church_inactive'; found: AuthorizeClient | null }
  | { kind: 'redirect'; found: AuthorizeClient; redirectUri: string; state: string | null; failure: RedirectError }
  | { kind: 'ok'; found: AuthorizeClient; request: ValidAuthorization };

type Query = Record<string, unknown>;

/** A parameter sent once as a string; `repeated` when sent more than once (RFC 6749 §3.1: an error). */
function param(query: Query, name: string): { value?: string; repeated?: true } {
  const raw = query[name];
  if (raw === undefined) return {};
  if (typeof raw === 'string') return { value: raw };
  return { repeated: true };
}

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The checks of `GET /v1/oauth/authorize`, in the order the pages need them: the client and the
 * redirect_uri first (a failure there is a page, never a redirect), then the church, then what the
 * client hears about at its redirect_uri. `find` looks the client up (outside any tenant).
 */
export async function checkAuthorizeQuery(
  query: Query,
  find: (clientId: string) => Promise<AuthorizeClient | null>,
): Promise<AuthorizeCheck> {
  const clientId = param(query, 'client_id');
  const found = clientId.value ? await find(clientId.value) : null;
  if (!found) return { kind: 'page', error: 'unknown_client', found: null };
  const redirect = param(query, 'redirect_uri');
  // Exact string match with a registered URI (CONTRACT §14; RFC 9700 §4.1.3), never a prefix or a pattern.
  if (!redirect.value || !found.client.redirectUris.includes(redirect.value))
    return { kind: 'page', error: 'invalid_redirect', found };
  if (found.tenant.status !== 'active') return { kind: 'page', error: 'church_inactive', found };

  const redirectUri = redirect.value;
  const state = param(query, 'state');
  const echoed = state.value ?? null;
  const fail = (error: RedirectError['error'], description: string): AuthorizeCheck => ({
    kind: 'redirect',
    found,
    redirectUri,
    state: echoed,
    failure: { error, description },
  });

  if (state.repeated) return fail('invalid_request', 'state was sent more than once');
  if (echoed !== null && (echoed.length > MAX_STATE_LENGTH || !isStorableText(echoed)))
    return fail('invalid_request', `state must be text of at most ${MAX_STATE_LENGTH} characters`);

  const responseType = param(query, 'response_type');
  if (responseType.repeated) return fail('invalid_request', 'response_type was sent more than once');
  if (responseType.value === undefined) return fail('invalid_request', 'response_type is required and must be code');
  if (responseType.value !== 'code')
    return fail('unsupported_response_type', 'response_type must be code (the authorization code flow with PKCE)');

  const method = param(query, 'code_challenge_method');
  if (method.repeated) return fail('invalid_request', 'code_challenge_method was sent more than once');
  if (method.value === undefined)
    return fail('invalid_request', 'code_challenge_method is required and must be S256 (PKCE)');
  if (method.value === 'plain')
    return fail('invalid_request', 'code_challenge_method plain is not supported; use S256');
  if (method.value !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');

  const challenge = param(query, 'code_challenge');
  if (challenge.repeated) return fail('invalid_request', 'code_challenge was sent more than once');
  if (challenge.value === undefined || challenge.value === '')
    return fail('invalid_request', 'code_challenge is required (PKCE with S256)');
  if (!CHALLENGE.test(challenge.value))
    return fail('invalid_request', 'code_challenge must be the base64url SHA-256 of the code_verifier (43 characters)');

  const scope = param(query, 'scope');
  if (scope.repeated) return fail('invalid_request', 'scope was sent more than once');
  const requested = parseScopeParam(scope.value);
  const unknown = requested.find((s) => !isScope(s));
  if (unknown !== undefined) return fail('invalid_scope', `unknown scope ${ascii(unknown)}`);
  const outside = requested.find((s) => !found.client.scopes.includes(s));
  if (outside !== undefined) return fail('invalid_scope', `scope ${outside} is not registered for this client`);
  const scopes = requested.length > 0 ? requested : defaultScopes(found.client.scopes);
  if (scopes.length === 0)
    return fail(
      'invalid_scope',
      'no scope was requested and the client has none to give by default (admin:* is given only when asked for)',
    );

  return { kind: 'ok', found, request: { redirectUri, state: echoed, scopes, codeChallenge: challenge.value } };
}

/** A value quoted in an error_description: the characters RFC 6749 allows there, at most 40. */
function ascii(value: string): string {
  const clean = value.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '?');
  return clean.length > 40 ? `${clean.slice(0, 40)}...` : clean;
}

/**
 * The client's redirect_uri with the response parameters added to its query (RFC 6749 §4.1.2;
 * `iss` of RFC 9207). `state` is echoed exactly when the request had one.
 */
export function redirectWith(redirectUri: string, params: Record<string, string | null | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params))
    if (value !== null && value !== undefined) url.searchParams.append(name, value);
  return url.toString();
}
