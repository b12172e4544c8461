import { Injectable } from '@nestjs/common';
import { fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { Database } from '../../database/database.service';
import { RowLock, withLock } from '../../database/row-lock';
import type { Role } from '../../platform/auth/scopes';
import { OAuthClientEntity, OAuthClientType } from './oauth-client.entity';
import { OAUTH_CLIENT_LIST } from './oauth-clients.list';
import { tenantScope } from '../../database/tenant-scope';

/** A client found by its id alone, with its church. */
export interface ClientWithTenantRow {
  id: string;
  name: string;
  type: OAuthClientType;
  redirect_uris: string[];
  scopes: string[];
  secret_hash: Buffer | null;
  tenant_id: string;
  slug: string;
  tenant_name: string;
  status: 'active' | 'suspended';
}

/** A pending authorization request, found by its page's handle. */
export interface AuthorizationRequestRow {
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

export interface NewAuthorizationRequest {
  id: string;
  handleHash: Buffer;
  csrfHash: Buffer;
  browserHash: Buffer;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string | null;
  codeChallenge: string;
  createdAt: Date;
  expiresAt: Date;
}

/** The client, found by its id alone (no church known yet), with its church; deleted clients are not found. */
const FIND_BY_ID = `
  SELECT c.id, c.name, c.type, c.redirect_uris, c.scopes, c.secret_hash, n.id AS tenant_id, n.slug, n.name AS tenant_name, n.status
    FROM oauth_clients c
    JOIN tenants n ON n.id = c.tenant_id
   WHERE c.id = $1 AND c.deleted_at IS NULL`;

/**
 * The OAuth provider's clients and the data of its authorize pages, in SQL: clients, pending
 * authorization requests, staff members signing in, failed sign-ins. Two kinds of method:
 * those that say "platform role" run OUTSIDE any tenant transaction (Database.platform: the client,
 * the page's handle or the church named by the client is all that is known); the others run in
 * the current tenant transaction (TenantContext) and name the tenant (RLS enforces it too).
 */
@Injectable()
export class OAuthRepository {
  constructor(private readonly db: Database) {}

  // ---------------------------------------------------------------------------------------------
  // Clients
  // ---------------------------------------------------------------------------------------------

  /** Platform role: the live client with this uuid and its church, or null. */
  async findClientWithTenant(id: string): Promise<ClientWithTenantRow | null> {
    const rows: ClientWithTenantRow[] = await this.db.platform.query(FIND_BY_ID, [id]);
    return rows[0] ?? null;
  }

  /** Inserts a client of the current church; returns it as stored. */
  async insertClient(fields: Omit<OAuthClientEntity, 'tenantId'>): Promise<OAuthClientEntity> {
    const { repo, tenantId } = tenantScope(OAuthClientEntity);
    const client = repo.create({ tenantId, ...fields });
    await repo.insert(client);
    return client;
  }

  /** A page of the church's live clients. */
  listClients(query: ListQuery): Promise<Page<OAuthClientEntity>> {
    const { repo, tenantId } = tenantScope(OAuthClientEntity);
    const qb = repo.createQueryBuilder('c').where('c.tenant_id = :tenantId AND c.deleted_at IS NULL', { tenantId });
    return fetchPage(qb, query, OAUTH_CLIENT_LIST);
  }

  /** The client with this uuid, deleted or not; with `lock`, locked until the transaction ends (see RowLock). */
  findClient(id: string, lock?: RowLock): Promise<OAuthClientEntity | null> {
    const { repo, tenantId } = tenantScope(OAuthClientEntity);
    return repo.findOne({ where: { tenantId, id }, ...withLock(lock) });
  }

  async updateClient(id: string, changes: Partial<OAuthClientEntity>): Promise<void> {
    const { repo, tenantId } = tenantScope(OAuthClientEntity);
    await repo.update({ tenantId, id }, changes);
  }

  // ---------------------------------------------------------------------------------------------
  // Authorization requests (table oauth_authorization_requests)
  // ---------------------------------------------------------------------------------------------

  async insertAuthorizationRequest(request: NewAuthorizationRequest): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query(
      `INSERT INTO oauth_authorization_requests
         (tenant_id, id, handle_hash, csrf_hash, browser_hash, client_id, redirect_uri, scopes, state, code_challenge, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        tenantId,
        request.id,
        request.handleHash,
        request.csrfHash,
        request.browserHash,
        request.clientId,
        request.redirectUri,
        request.scopes,
        request.state,
        request.codeChallenge,
        request.createdAt,
        request.expiresAt,
      ],
    );
  }

  /** Removes the requests this browser started before at this church (one pending request per browser). */
  async deleteBrowserAuthorizationRequests(browserHash: Buffer): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query('DELETE FROM oauth_authorization_requests WHERE tenant_id = $1 AND browser_hash = $2', [
      tenantId,
      browserHash,
    ]);
  }

  /** Removes a few of the church's requests that expired more than a day ago. */
  async deleteStaleAuthorizationRequests(): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query(
      `DELETE FROM oauth_authorization_requests WHERE tenant_id = $1 AND id IN (
         SELECT id FROM oauth_authorization_requests WHERE tenant_id = $1 AND expires_at < now() - interval '1 day' LIMIT 20)`,
      [tenantId],
    );
  }

  /** Platform role: the request with this handle hash (any church), or null. */
  async findAuthorizationRequestByHandle(handleHash: Buffer): Promise<AuthorizationRequestRow | null> {
    const rows: AuthorizationRequestRow[] = await this.db.platform.query(
      `SELECT tenant_id, id, csrf_hash, browser_hash, client_id, redirect_uri, scopes, state, code_challenge, user_id, granted_scopes,
              expires_at <= now() AS expired, finished_at IS NOT NULL AS finished
         FROM oauth_authorization_requests WHERE handle_hash = $1`,
      [handleHash],
    );
    return rows[0] ?? null;
  }

  /** Records who signed in on an unfinished request and the scopes the consent page shows. */
  async recordAuthorizationSignIn(id: string, userId: string, grantedScopes: string[]): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query(
      `UPDATE oauth_authorization_requests SET user_id = $3, granted_scopes = $4, signed_in_at = now()
        WHERE tenant_id = $1 AND id = $2 AND finished_at IS NULL`,
      [tenantId, id, userId, grantedScopes],
    );
  }

  /** Finishes the request if it is unfinished, unexpired and signed in; false when it was not. */
  async finishAuthorizationRequest(id: string): Promise<boolean> {
    const { manager, tenantId } = tenantScope();
    // An UPDATE answers [rows, rowCount] through TypeORM's query().
    const [rows]: [unknown[], number] = await manager.query(
      `UPDATE oauth_authorization_requests SET finished_at = now()
        WHERE tenant_id = $1 AND id = $2 AND finished_at IS NULL AND expires_at > now() AND user_id IS NOT NULL
        RETURNING id`,
      [tenantId, id],
    );
    return rows.length > 0;
  }

  // ---------------------------------------------------------------------------------------------
  // Staff members (table users)
  // ---------------------------------------------------------------------------------------------

  /** Platform role: the church's user with this e-mail (ignoring case), with the hash of their password. */
  async findUserByEmail(
    tenantId: string,
    email: string,
  ): Promise<{ id: string; email: string; role: Role; password_hash: string | null } | null> {
    const rows: { id: string; email: string; role: Role; password_hash: string | null }[] =
      await this.db.platform.query(
        `SELECT id, email, role, password_hash FROM users WHERE tenant_id = $1 AND lower(email) = lower($2)`,
        [tenantId, email],
      );
    return rows[0] ?? null;
  }

  /** The current role of the church's user, or null when the user no longer exists. */
  async userRole(userId: string): Promise<Role | null> {
    const { manager, tenantId } = tenantScope();
    const users: { role: Role }[] = await manager.query(`SELECT role FROM users WHERE tenant_id = $1 AND id = $2`, [
      tenantId,
      userId,
    ]);
    return users[0]?.role ?? null;
  }

  // ---------------------------------------------------------------------------------------------
  // Failed sign-ins (table oauth_sign_in_failures), all on the platform role
  // ---------------------------------------------------------------------------------------------

  /**
   * Platform role: seconds until the account's `perAccount`-th most recent failure, or the
   * address's `perAddress`-th, leaves the window (the greater of the two; 0 or less when neither
   * key is at its limit).
   */
  async signInFailuresWait(
    key: { tenantId: string; account: string; address: string },
    limits: { perAccount: number; perAddress: number; windowSeconds: number },
  ): Promise<number> {
    const rows: { wait: string | null }[] = await this.db.platform.query(
      `SELECT greatest(
                (SELECT extract(epoch FROM failed_at + make_interval(secs => $4) - now()) FROM oauth_sign_in_failures
                  WHERE tenant_id = $1 AND account = $2 AND failed_at > now() - make_interval(secs => $4)
                  ORDER BY failed_at DESC OFFSET $5 LIMIT 1),
                (SELECT extract(epoch FROM failed_at + make_interval(secs => $4) - now()) FROM oauth_sign_in_failures
                  WHERE address = $3 AND failed_at > now() - make_interval(secs => $4)
                  ORDER BY failed_at DESC OFFSET $6 LIMIT 1)) AS wait`,
      [key.tenantId, key.account, key.address, limits.windowSeconds, limits.perAccount - 1, limits.perAddress - 1],
    );
    return Number(rows[0]?.wait ?? 0);
  }

  /** Platform role. */
  async insertSignInFailure(tenantId: string, account: string, address: string): Promise<void> {
    await this.db.platform.query(
      `INSERT INTO oauth_sign_in_failures (tenant_id, account, address) VALUES ($1, $2, $3)`,
      [tenantId, account, address],
    );
  }

  /** Platform role: removes a few failures older than a day (of any church). */
  async deleteOldSignInFailures(): Promise<void> {
    await this.db.platform.query(
      `DELETE FROM oauth_sign_in_failures WHERE id IN (SELECT id FROM oauth_sign_in_failures WHERE failed_at < now() - interval '1 day' ORDER BY failed_at LIMIT 50)`,
    );
  }

  /** Platform role. */
  async deleteSignInFailuresOfAccount(tenantId: string, account: string): Promise<void> {
    await this.db.platform.query(`DELETE FROM oauth_sign_in_failures WHERE tenant_id = $1 AND account = $2`, [
      tenantId,
      account,
    ]);
  }
}
