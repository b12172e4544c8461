import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { newUuid } from '../../common/ids/id';
import { Database } from '../../database/database.service';
import { hashSecret, isSecretShaped, newSecret } from '../../platform/views/csrf';
import type { ValidAuthorization } from './authorization-request.params';

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

interface Row {
  tenant_id: string;
  id: string;
  csrf_hash: Buffer;
  browser_hash: Buffer;
  client_id: string;
  redirect_uri: string;
  scopes: string[];
  state: string | null;
  code_challenge: string;
  user_id: string | null;
  granted_scopes: string[] | null;
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
  constructor(private readonly db: Database) {}

  /** Stores a validated request INSIDE the church's transaction; returns the values for the page. */
  async create(input: { clientId: string; browser: string; request: ValidAuthorization }): Promise<RequestKeys> {
    const { manager, tenantId } = TenantContext.current();
    const keys = { request: newSecret(), csrf: newSecret() };
    const now = Date.now();
    await manager.query(
      `INSERT INTO oauth_authorization_requests
         (tenant_id, id, handle_hash, csrf_hash, browser_hash, client_id, redirect_uri, scopes, state, code_challenge, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        tenantId,
        newUuid(),
        hashSecret(keys.request),
        hashSecret(keys.csrf),
        hashSecret(input.browser),
        input.clientId,
        input.request.redirectUri,
        input.request.scopes,
        input.request.state,
        input.request.codeChallenge,
        new Date(now),
        new Date(now + AUTHORIZATION_REQUEST_LIFETIME_MS),
      ],
    );
    // Requests nobody finished are removed a few at a time, a day after they expired.
    await manager.query(
      `DELETE FROM oauth_authorization_requests WHERE tenant_id = $1 AND id IN (
         SELECT id FROM oauth_authorization_requests WHERE tenant_id = $1 AND expires_at < now() - interval '1 day' LIMIT 20)`,
      [tenantId],
    );
    return keys;
  }

  /** The request a page's handle names (before the church is known, like a bearer token lookup). */
  async find(handle: unknown): Promise<PendingAuthorization | null> {
    if (!isSecretShaped(handle)) return null;
    const rows: Row[] = await this.db.platform.query(
      `SELECT tenant_id, id, csrf_hash, browser_hash, client_id, redirect_uri, scopes, state, code_challenge, user_id, granted_scopes,
              expires_at <= now() AS expired, finished_at IS NOT NULL AS finished
         FROM oauth_authorization_requests WHERE handle_hash = $1`,
      [hashSecret(handle)],
    );
    const row = rows[0];
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
    const { manager, tenantId } = TenantContext.current();
    await manager.query(
      `UPDATE oauth_authorization_requests SET user_id = $3, granted_scopes = $4, signed_in_at = now()
        WHERE tenant_id = $1 AND id = $2 AND finished_at IS NULL`,
      [tenantId, id, userId, grantedScopes],
    );
  }

  /**
   * Ends the request, once: true for the one caller that finished it (INSIDE the church's
   * transaction, whose work, the code, commits with it). A second Allow, or one after the
   * expiry, gets false.
   */
  async finish(id: string): Promise<boolean> {
    const { manager, tenantId } = TenantContext.current();
    // An UPDATE answers [rows, rowCount] through TypeORM's query().
    const [rows]: [unknown[], number] = await manager.query(
      `UPDATE oauth_authorization_requests SET finished_at = now()
        WHERE tenant_id = $1 AND id = $2 AND finished_at IS NULL AND expires_at > now() AND user_id IS NOT NULL
        RETURNING id`,
      [tenantId, id],
    );
    return rows.length > 0;
  }
}
