/** RFC 6749 §5.2 and RFC 7009 §2.2.1 error codes. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'unsupported_token_type';

/**
 * An error of the token or revocation endpoint, answered as RFC 6749 §5.2 JSON
 * (`{error, error_description}`, not problem+json): what OAuth client libraries read. The
 * description names the check that failed. A client that authenticated with `Authorization: Basic`
 * gets its `invalid_client` as a 401 with `WWW-Authenticate: Basic` (§5.2 requires it); every other
 * error is a 400 (for client_secret_post or a public client, §5.2 leaves 400 or 401 open, and a
 * challenge would make client libraries report the challenge rather than the error).
 */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    /** Answer 401 with `WWW-Authenticate: Basic`. */
    readonly challenge = false,
  ) {
    super(`${error}: ${description}`);
  }

  get status(): number {
    return this.challenge ? 401 : 400;
  }
}
