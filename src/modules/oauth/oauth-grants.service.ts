import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { newUuid } from '../../common/ids/id';

/** One app a staff member has authorized: every live grant of that client, together. */
export interface AuthorizationRow {
  client_id: string;
  client_name: string;
  scopes: string[];
  authorized_at: Date;
  last_used_at: Date | null;
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

/** Grants (one per consent: a family of refresh and access tokens) and their revocation. */
@Injectable()
export class OAuthGrantsService {
  private get scope() {
    return TenantContext.current();
  }

  async create(input: { clientId: string; userId: string; scopes: string[] }): Promise<string> {
    const id = newUuid();
    await this.scope.manager.query(
      `INSERT INTO oauth_grants (tenant_id, id, client_id, user_id, scopes, created_at) VALUES ($1, $2, $3, $4, $5, now())`,
      [this.scope.tenantId, id, input.clientId, input.userId, input.scopes],
    );
    return id;
  }

  /** Revokes the grant and every token issued from it. */
  async revoke(grantId: string): Promise<void> {
    await this.revokeWhere('id = $2', [grantId]);
  }

  /** Revokes every grant of a client (the client is being deleted). */
  async revokeAllOfClient(clientId: string): Promise<void> {
    await this.revokeWhere('client_id = $2', [clientId]);
  }

  /** Revokes what `userId` authorized `clientId` to do; false when there was nothing live. */
  async revokeForUser(userId: string, clientId: string): Promise<boolean> {
    return (await this.revokeWhere('user_id = $2 AND client_id = $3', [userId, clientId])) > 0;
  }

  /**
   * Revokes the live grants matching `where` ($1 is the church), then every access and refresh
   * token issued from them. Grants first, tokens after (the order the refresh grant locks them
   * in): a refresh that holds the grant makes this wait, and the token statements, which start
   * after it committed, see the pair it issued.
   */
  private async revokeWhere(where: string, params: unknown[]): Promise<number> {
    const { manager, tenantId } = this.scope;
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
  listForUser(userId: string): Promise<AuthorizationRow[]> {
    return this.scope.manager.query(LIST_FOR_USER, [this.scope.tenantId, userId]);
  }
}
