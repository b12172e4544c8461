import { Injectable } from '@nestjs/common';
import { tenantScope } from '../../database/tenant-scope';

/** One app a staff member has authorized: every live grant of that client, together. */
export interface AuthorizationRow {
  client_id: string;
  client_name: string;
  scopes: string[];
  authorized_at: Date;
  last_used_at: Date | null;
}

/** An authorization code as the token endpoint reads it. */
export interface CodeRow {
  id: string;
  client_id: string;
  user_id: string;
  scopes: string[];
  redirect_uri: string;
  code_challenge: string;
  expires_at: Date;
  used_at: Date | null;
  grant_id: string | null;
}

export interface GrantRow {
  client_id: string;
  user_id: string;
  scopes: string[];
  revoked_at: Date | null;
}

export interface RefreshRow {
  id: string;
  grant_id: string;
  expires_at: Date;
  rotated_at: Date | null;
  revoked_at: Date | null;
}

export interface NewCode {
  id: string;
  codeHash: Buffer;
  clientId: string;
  userId: string;
  scopes: string[];
  redirectUri: string;
  codeChallenge: string;
  createdAt: Date;
  expiresAt: Date;
}

/** An access token: an api_tokens row of type oauth, named after the client. */
export interface NewAccessToken {
  id: string;
  name: string;
  scopes: string[];
  tokenHash: Buffer;
  tokenPrefix: string;
  last4: string;
  userId: string;
  createdAt: Date;
  expiresAt: Date;
  grantId: string;
}

export interface NewRefreshToken {
  id: string;
  tokenHash: Buffer;
  grantId: string;
  createdAt: Date;
  expiresAt: Date;
}

const LIST_FOR_USER = `
  SELECT c.id AS client_id, c.name AS client_name,
         array(SELECT DISTINCT s FROM oauth_grants g2, unnest(g2.scopes) s
                WHERE g2.tenant_id = $1 AND g2.user_id = $2 AND g2.client_id = c.id AND g2.revoked_at IS NULL ORDER BY s) AS scopes,
         min(g.created_at) AS authorized_at,
         (SELECT max(t.last_used_at) FROM api_tokens t WHERE t.tenant_id = $1 AND t.grant_id = ANY(array_agg(g.id))) AS last_used_at
    FROM oauth_grants g
    JOIN oauth_clients c ON c.tenant_id = g.tenant_id AND c.id = g.client_id AND c.deleted_at IS NULL
   WHERE g.tenant_id = $1 AND g.user_id = $2 AND g.revoked_at IS NULL
   GROUP BY c.id, c.name
   ORDER BY min(g.created_at), c.id`;

/**
 * What the OAuth provider issues, in SQL: authorization codes, grants (one per consent: a family
 * of refresh and access tokens), access tokens (api_tokens of type oauth) and refresh tokens.
 * Every method runs in the current tenant transaction (TenantContext) and names the tenant (RLS
 * enforces it too). Locks are taken in one order, grant before refresh token (see revokeGrantsWhere).
 */
@Injectable()
export class OAuthGrantsRepository {
  // Authorization codes

  async insertCode(code: NewCode): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query(
      `INSERT INTO oauth_codes (tenant_id, id, code_hash, client_id, user_id, scopes, redirect_uri, code_challenge, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        tenantId,
        code.id,
        code.codeHash,
        code.clientId,
        code.userId,
        code.scopes,
        code.redirectUri,
        code.codeChallenge,
        code.createdAt,
        code.expiresAt,
      ],
    );
  }

  /** The code with this hash, locked FOR UPDATE: of two exchanges of one code, the second waits for the first. */
  async lockCodeByHash(codeHash: Buffer): Promise<CodeRow | null> {
    const { manager, tenantId } = tenantScope();
    const rows: CodeRow[] = await manager.query(
      `SELECT id, client_id, user_id, scopes, redirect_uri, code_challenge, expires_at, used_at, grant_id
           FROM oauth_codes WHERE tenant_id = $1 AND code_hash = $2 FOR UPDATE`,
      [tenantId, codeHash],
    );
    return rows[0] ?? null;
  }

  /** Uses up the code without issuing anything. */
  async markCodeUsed(id: string): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query(`UPDATE oauth_codes SET used_at = now() WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  }

  /** Uses up the code and records the grant it started (a replay revokes that grant). */
  async markCodeExchanged(id: string, grantId: string): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query(`UPDATE oauth_codes SET used_at = now(), grant_id = $3 WHERE tenant_id = $1 AND id = $2`, [
      tenantId,
      id,
      grantId,
    ]);
  }

  // Grants

  async insertGrant(grant: { id: string; clientId: string; userId: string; scopes: string[] }): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query(
      `INSERT INTO oauth_grants (tenant_id, id, client_id, user_id, scopes, created_at) VALUES ($1, $2, $3, $4, $5, now())`,
      [tenantId, grant.id, grant.clientId, grant.userId, grant.scopes],
    );
  }

  /** The grant, locked FOR UPDATE (parallel refreshes of one family run one after the other). */
  async lockGrant(id: string): Promise<GrantRow> {
    const { manager, tenantId } = tenantScope();
    const [grant] = await manager.query<GrantRow[]>(
      `SELECT client_id, user_id, scopes, revoked_at FROM oauth_grants WHERE tenant_id = $1 AND id = $2 FOR UPDATE`,
      [tenantId, id],
    );
    return grant;
  }

  /** Revokes the grant and every token issued from it; the number of grants revoked (0 or 1). */
  revokeGrant(id: string): Promise<number> {
    return this.revokeGrantsWhere('id = $2', [id]);
  }

  /** Revokes every live grant of a client and their tokens. */
  revokeGrantsOfClient(clientId: string): Promise<number> {
    return this.revokeGrantsWhere('client_id = $2', [clientId]);
  }

  /** Revokes what `userId` authorized `clientId` to do; the number of live grants revoked. */
  revokeGrantsOfUserForClient(userId: string, clientId: string): Promise<number> {
    return this.revokeGrantsWhere('user_id = $2 AND client_id = $3', [userId, clientId]);
  }

  /**
   * Revokes the live grants matching `where` ($1 is the church), then every access and refresh
   * token issued from them. Grants first, tokens after (the order the refresh grant locks them
   * in): a refresh that holds the grant makes this wait, and the token statements, which start
   * after it committed, see the pair it issued.
   */
  private async revokeGrantsWhere(where: string, params: unknown[]): Promise<number> {
    const { manager, tenantId } = tenantScope();
    // Wrapped in a SELECT: TypeORM answers a bare UPDATE … RETURNING with [rows, count].
    const grants: { id: string }[] = await manager.query(
      `WITH revoked AS (UPDATE oauth_grants SET revoked_at = now() WHERE tenant_id = $1 AND ${where} AND revoked_at IS NULL RETURNING id) SELECT id FROM revoked`,
      [tenantId, ...params],
    );
    if (grants.length === 0) return 0;
    const ids = grants.map((g) => g.id);
    await manager.query(
      `UPDATE api_tokens SET revoked_at = now() WHERE tenant_id = $1 AND grant_id = ANY($2::uuid[]) AND revoked_at IS NULL`,
      [tenantId, ids],
    );
    await manager.query(
      `UPDATE oauth_refresh_tokens SET revoked_at = now() WHERE tenant_id = $1 AND grant_id = ANY($2::uuid[]) AND revoked_at IS NULL`,
      [tenantId, ids],
    );
    return grants.length;
  }

  /** The apps `userId` has authorized and not revoked, oldest first. */
  listAuthorizationsOfUser(userId: string): Promise<AuthorizationRow[]> {
    const { manager, tenantId } = tenantScope();
    return manager.query(LIST_FOR_USER, [tenantId, userId]);
  }

  // Access and refresh tokens

  async insertAccessToken(token: NewAccessToken): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query(
      `INSERT INTO api_tokens (tenant_id, id, type, name, scopes, token_hash, token_prefix, last4, user_id, created_by, created_at, expires_at, grant_id)
       VALUES ($1, $2, 'oauth', $3, $4, $5, $6, $7, $8, $8, $9, $10, $11)`,
      [
        tenantId,
        token.id,
        token.name,
        token.scopes,
        token.tokenHash,
        token.tokenPrefix,
        token.last4,
        token.userId,
        token.createdAt,
        token.expiresAt,
        token.grantId,
      ],
    );
  }

  /** The OAuth access token with this hash and the client of its grant (revoked or not), or null. */
  async findAccessTokenByHash(tokenHash: Buffer): Promise<{ id: string; client_id: string } | null> {
    const { manager, tenantId } = tenantScope();
    const rows: { id: string; client_id: string }[] = await manager.query(
      `SELECT t.id, g.client_id FROM api_tokens t JOIN oauth_grants g ON g.tenant_id = t.tenant_id AND g.id = t.grant_id
            WHERE t.tenant_id = $1 AND t.token_hash = $2 AND t.type = 'oauth'`,
      [tenantId, tokenHash],
    );
    return rows[0] ?? null;
  }

  /** Revokes one access token (its grant and the other tokens stay). */
  async revokeAccessToken(id: string): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query(
      `UPDATE api_tokens SET revoked_at = now() WHERE tenant_id = $1 AND id = $2 AND revoked_at IS NULL`,
      [tenantId, id],
    );
  }

  async insertRefreshToken(token: NewRefreshToken): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query(
      `INSERT INTO oauth_refresh_tokens (tenant_id, id, token_hash, grant_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [tenantId, token.id, token.tokenHash, token.grantId, token.createdAt, token.expiresAt],
    );
  }

  /** The grant of the refresh token with this hash and that grant's client, or null. */
  async findRefreshTokenOwner(tokenHash: Buffer): Promise<{ grant_id: string; client_id: string } | null> {
    const { manager, tenantId } = tenantScope();
    const rows: { grant_id: string; client_id: string }[] = await manager.query(
      `SELECT r.grant_id, g.client_id FROM oauth_refresh_tokens r JOIN oauth_grants g ON g.tenant_id = r.tenant_id AND g.id = r.grant_id
          WHERE r.tenant_id = $1 AND r.token_hash = $2`,
      [tenantId, tokenHash],
    );
    return rows[0] ?? null;
  }

  /** The grant of the refresh token with this hash (no lock: the grant is locked first, then the token), or null. */
  async findRefreshTokenGrantId(tokenHash: Buffer): Promise<string | null> {
    const { manager, tenantId } = tenantScope();
    const found: { grant_id: string }[] = await manager.query(
      `SELECT grant_id FROM oauth_refresh_tokens WHERE tenant_id = $1 AND token_hash = $2`,
      [tenantId, tokenHash],
    );
    return found[0]?.grant_id ?? null;
  }

  /** The refresh token with this hash, locked FOR UPDATE (after its grant: revocation's order). */
  async lockRefreshTokenByHash(tokenHash: Buffer): Promise<RefreshRow> {
    const { manager, tenantId } = tenantScope();
    const [token] = await manager.query<RefreshRow[]>(
      `SELECT id, grant_id, expires_at, rotated_at, revoked_at FROM oauth_refresh_tokens WHERE tenant_id = $1 AND token_hash = $2 FOR UPDATE`,
      [tenantId, tokenHash],
    );
    return token;
  }

  /** Records the token's first use: when, and the refresh token that replaced it. */
  async markRefreshTokenRotated(id: string, replacedBy: string): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query(
      `UPDATE oauth_refresh_tokens SET rotated_at = now(), replaced_by = $3 WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id, replacedBy],
    );
  }
}
