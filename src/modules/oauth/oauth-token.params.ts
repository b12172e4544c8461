import { createHash } from 'node:crypto';
import type { FormBody } from '../../common/http/request';
import { formParam } from './oauth-client-auth';
import { OAuthError } from './oauth-error';

type Fields = FormBody['fields'];

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const MAX_PARAM_LENGTH = 4096;

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** A parameter the grant needs: present once, and of a bounded length. */
export function required(fields: Fields, name: string, hint = ''): string {
  const value = formParam(fields, name);
  if (value === undefined) throw new OAuthError('invalid_request', `${name} is missing${hint}`);
  if (value.length > MAX_PARAM_LENGTH)
    throw new OAuthError('invalid_request', `${name} is longer than ${MAX_PARAM_LENGTH} characters`);
  return value;
}

/** The PKCE `code_verifier` of an authorization_code grant (RFC 7636 §4.1; this server requires it). */
export function codeVerifier(fields: Fields): string {
  const verifier = formParam(fields, 'code_verifier');
  if (verifier === undefined)
    throw new OAuthError('invalid_request', 'code_verifier is missing: this server requires PKCE with S256 (RFC 7636)');
  if (!CODE_VERIFIER.test(verifier))
    throw new OAuthError(
      'invalid_request',
      'code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" and "~" (RFC 7636 §4.1)',
    );
  return verifier;
}

/** A client's value quoted in a description: bounded, on one line. */
export function printable(value: string): string {
  const short = value.length > 64 ? `${value.slice(0, 64)}…` : value;
  return JSON.stringify(short);
}
