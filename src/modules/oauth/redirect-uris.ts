import type { FieldIssue } from '../../common/errors/app-error';

export const MAX_REDIRECT_URIS = 10;
export const MAX_REDIRECT_URI_LENGTH = 2000;

/** The `format` of an `invalid_format` issue on a redirect URI (translated in FORMAT_CATALOG). */
export const REDIRECT_URI_FORMAT = 'absolute https URL (http only on 127.0.0.1, [::1] or localhost), no fragment';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * A redirect URI a client may register (RFC 6749 §3.1.2, RFC 8252 §7.3, OAuth 2.1 §2.3.1): absolute,
 * https, or http on a loopback host (native apps), with no fragment and no user information. It is
 * matched exactly, character for character, at the authorization and token endpoints.
 */
export function isValidRedirectUri(value: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters and spaces are what this refuses.
  if (value.length > MAX_REDIRECT_URI_LENGTH || value.includes('#') || /[\s\u0000-\u001f\u007f]/.test(value))
    return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password || !url.hostname) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/** Field issues of a list of redirect URIs (each invalid one, duplicates, the count). */
export function redirectUriIssues(uris: readonly string[], field = 'redirect_uris'): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (uris.length === 0) issues.push({ field, issue: 'required' });
  if (uris.length > MAX_REDIRECT_URIS) issues.push({ field, issue: 'too_many', params: { max: MAX_REDIRECT_URIS } });
  uris.forEach((uri, i) => {
    if (!isValidRedirectUri(uri))
      issues.push({ field: `${field}[${i}]`, issue: 'invalid_format', params: { format: REDIRECT_URI_FORMAT } });
    else if (uris.indexOf(uri) !== i) issues.push({ field: `${field}[${i}]`, issue: 'duplicate' });
  });
  return issues;
}
