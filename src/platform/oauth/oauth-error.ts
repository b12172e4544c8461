/** RFC 6749 §5.2 and RFC 7009 §2.2.1 error codes. */
export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope' | 'unsupported_token_type';

/**
 * An error of the token or revocation endpoint, answered as RFC 6749 §5.2 JSON
 * (`{error, error_description}`, not problem+json): what OAuth client libraries read. The
 * description names the check that failed. `invalid_client` is a 401 with `WWW-Authenticate`.
 */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(`${error}: ${description}`);
  }

  get status(): number {
    return this.error === 'invalid_client' ? 401 : 400;
  }
}
