import { Injectable } from '@nestjs/common';
import { newUuid } from '../../common/ids/id';
import { hashSecret, isSecretShaped, newSecret } from '../../platform/views/csrf';
import type { ValidAuthorization } from './authorization-request.params';
import { OAuthRepository } from './oauth.repository';

/** How long the staff member has to sign in and decide (the code that follows lives 10 minutes more). */
export const AUTHORIZATION_REQUEST_LIFETIME_MS = 10 * 60_000;

/** A pending authorization request, as the pages need it. */
export interface PendingAuthorization {
  tenantId: string;
  id: string;
  csrfHash: Buffer;
  browserHash: Buffer;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string | null;
  codeChallenge: string;
  userId: string | null;
  grantedScopes: string[] | null;
  expired: boolean;
  finished: boolean;
}

/** The handle and CSRF token of a new request: given to the page once, stored as SHA-256. */
export interface RequestKeys {
  request: string;
  csrf: string;
}

/**
 * Authorization requests kept on the server between `GET /v1/oauth/authorize` and the consent
 * (table oauth_authorization_requests). The page holds a random handle; the row holds its hash.
 */
@Injectable()
export class AuthorizationRequestsService {
  constructor(private readonly repository: OAuthRepository) {}

  /**
   * Stores a validated request INSIDE the church's transaction; returns the values for the page.
   * It replaces the browser's earlier request at the church: one pending request per browser, so a
   * page reloaded in a loop keeps one row (and a loop without the cookie meets the per-address limit).
   */
  async create(input: { clientId: string; browser: string; request: ValidAuthorization }): Promise<RequestKeys> {
    const keys = { request: newSecret(), csrf: newSecret() };
    const now = Date.now();
    const browserHash = hashSecret(input.browser);
    await this.repository.deleteBrowserAuthorizationRequests(browserHash);
    await this.repository.insertAuthorizationRequest({
      id: newUuid(),
      handleHash: hashSecret(keys.request),
      csrfHash: hashSecret(keys.csrf),
      browserHash,
      clientId: input.clientId,
      redirectUri: input.request.redirectUri,
      scopes: input.request.scopes,
      state: input.request.state,
      codeChallenge: input.request.codeChallenge,
      createdAt: new Date(now),
      expiresAt: new Date(now + AUTHORIZATION_REQUEST_LIFETIME_MS),
    });
    // Requests nobody finished are removed a few at a time, a day after they expired.
    await this.repository.deleteStaleAuthorizationRequests();
    return keys;
  }

  /** The request a page's handle names (before the church is known, like a bearer token lookup). */
  async find(handle: unknown): Promise<PendingAuthorization | null> {
    if (!isSecretShaped(handle)) return null;
    const row = await this.repository.findAuthorizationRequestByHandle(hashSecret(handle));
    if (!row) return null;
    return {
      tenantId: row.tenant_id,
      id: row.id,
      csrfHash: row.csrf_hash,
      browserHash: row.browser_hash,
      clientId: row.client_id,
      redirectUri: row.redirect_uri,
      scopes: row.scopes,
      state: row.state,
      codeChallenge: row.code_challenge,
      userId: row.user_id,
      grantedScopes: row.granted_scopes,
      expired: row.expired,
      finished: row.finished,
    };
  }

  /** Records who signed in and the scopes the consent page shows (INSIDE the church's transaction). */
  async signedIn(id: string, userId: string, grantedScopes: string[]): Promise<void> {
    await this.repository.recordAuthorizationSignIn(id, userId, grantedScopes);
  }

  /**
   * Ends the request, once: true for the one caller that finished it (INSIDE the church's
   * transaction, whose work, the code, commits with it). A second Allow, or one after the
   * expiry, gets false.
   */
  finish(id: string): Promise<boolean> {
    return this.repository.finishAuthorizationRequest(id);
  }
}
