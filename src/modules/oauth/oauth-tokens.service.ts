import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { ApiRequest, FormBody } from '../../common/http/request';
import { newUuid } from '../../common/ids/id';
import { Database } from '../../database/database.service';
import { isScope } from '../../platform/auth/scopes';
import { generateToken, hashToken, isWellFormedToken } from '../../platform/auth/token-format';
import type { OAuthTokenResponse } from './dto/oauth-token.response';
import { readClientCredentials, formParam } from './oauth-client-auth';
import { OAuthClientsService, TokenClient } from './oauth-clients.service';
import { hashCode } from './oauth-codes.service';
import { OAuthError } from './oauth-error';
import { OAuthGrantsRepository } from './oauth-grants.repository';
import { OAuthGrantsService } from './oauth-grants.service';
import { ACCESS_TOKEN_LIFETIME_MS, REFRESH_REUSE_GRACE_MS, REFRESH_TOKEN_LIFETIME_MS } from './oauth-lifetimes';
import { capByRole, parseScopeParam } from './oauth-scopes';
import { codeVerifier, printable, required, s256 } from './oauth-token.params';
import { OAuthRepository } from './oauth.repository';

type Fields = FormBody['fields'];
export type ClientHook = (client: TokenClient) => Promise<void>;

/** A failure that must still commit what was done before it (a replay's revocation). */
class Refusal {
  constructor(readonly error: OAuthError) {}
}

/**
 * The token endpoint (RFC 6749 §4.1.3, §6) and the revocation endpoint (RFC 7009). The client is
 * authenticated first, on the platform role (it names the church); everything else runs in that
 * church's transaction. Rows are locked in one order, grant before refresh token, as revocation
 * does (see OAuthGrantsRepository.revokeGrantsWhere).
 */
@Injectable()
export class OAuthTokensService {
  constructor(
    private readonly db: Database,
    private readonly clients: OAuthClientsService,
    private readonly grants: OAuthGrantsService,
    private readonly grantsRepo: OAuthGrantsRepository,
    private readonly oauthRepo: OAuthRepository,
  ) {}

  /** `onClient` hears of the client once it is authenticated (before any other check), e.g. to answer CORS for its church. */
  async token(req: Request, fields: Fields, onClient?: ClientHook): Promise<OAuthTokenResponse> {
    const client = await this.authenticate(req, fields);
    await onClient?.(client);
    const grantType = formParam(fields, 'grant_type');
    if (grantType === undefined)
      throw new OAuthError('invalid_request', 'grant_type is missing (authorization_code or refresh_token)');
    if (grantType === 'authorization_code') return this.exchangeCode(req, client, fields);
    if (grantType === 'refresh_token') return this.refresh(req, client, fields);
    throw new OAuthError(
      'unsupported_grant_type',
      `grant_type ${printable(grantType)} is not supported (authorization_code or refresh_token)`,
    );
  }

  /**
   * RFC 7009: revokes an access token (that token only) or a refresh token (its whole grant). An
   * unknown, malformed or already revoked token is a success; a token of another client is refused.
   */
  async revoke(req: Request, fields: Fields, onClient?: ClientHook): Promise<void> {
    const client = await this.authenticate(req, fields);
    await onClient?.(client);
    const token = formParam(fields, 'token');
    if (token === undefined) throw new OAuthError('invalid_request', 'token is missing');
    if (!isWellFormedToken(token) || !(token.startsWith('cho_') || token.startsWith('chr_'))) return;
    const refused = await this.inTenant(req, client, async () => {
      if (token.startsWith('cho_')) {
        const access = await this.grantsRepo.findAccessTokenByHash(hashToken(token));
        if (!access) return null;
        if (access.client_id !== client.client.id)
          return new OAuthError('invalid_request', 'the token was issued to another client; it was not revoked');
        await this.grantsRepo.revokeAccessToken(access.id);
        return null;
      }
      const refresh = await this.grantsRepo.findRefreshTokenOwner(hashToken(token));
      if (!refresh) return null;
      if (refresh.client_id !== client.client.id)
        return new OAuthError('invalid_request', 'the token was issued to another client; it was not revoked');
      await this.grants.revoke(refresh.grant_id);
      return null;
    });
    if (refused) throw refused;
  }

  // ---------------------------------------------------------------------------------------------

  /** RFC 6749 §2.3, §3.2.1: public clients name themselves, confidential clients prove it. */
  private async authenticate(req: Request, fields: Fields): Promise<TokenClient> {
    const credentials = readClientCredentials(req, fields);
    // Basic credentials that fail are a 401 with a challenge (RFC 6749 §5.2); the other methods get a 400.
    const refuse = (description: string) =>
      new OAuthError('invalid_client', description, credentials.method === 'client_secret_basic');
    const client = credentials.clientId.length <= 64 ? await this.clients.findForToken(credentials.clientId) : null;
    if (!client) throw refuse('client_id is unknown (or the client was deleted)');
    if (client.client.type === 'public') {
      if (credentials.secret !== null)
        throw refuse('this client is public: it must not send a client_secret (it proves itself with PKCE)');
    } else {
      if (credentials.secret === null)
        throw refuse('this client is confidential: authenticate with client_secret_basic or client_secret_post');
      if (!OAuthClientsService.secretMatches(client, credentials.secret))
        throw refuse('client authentication failed: the client_secret does not match');
    }
    if (client.tenant.status !== 'active') throw refuse('the church of this client is suspended');
    return client;
  }

  /** RFC 6749 §4.1.3 with RFC 7636 (S256 only). A code works once; a replay revokes what it issued. */
  private async exchangeCode(req: Request, client: TokenClient, fields: Fields): Promise<OAuthTokenResponse> {
    const code = required(fields, 'code');
    const redirectUri = required(fields, 'redirect_uri', ' (it must repeat the one of the authorization request)');
    const verifier = codeVerifier(fields);
    return this.inTenantOrRefuse(req, client, async () => {
      // Locked: of two exchanges of one code, the second waits for the first, then finds it used.
      const row = await this.grantsRepo.lockCodeByHash(hashCode(code));
      if (!row) return refuse('invalid_grant', 'the code is unknown (never issued, or issued by another church)');
      if (row.client_id !== client.client.id) return refuse('invalid_grant', 'the code was issued to another client');
      if (row.used_at) {
        if (row.grant_id) await this.grants.revoke(row.grant_id);
        return refuse('invalid_grant', 'the code has already been used; the tokens issued with it are now revoked');
      }
      if (row.expires_at.getTime() <= Date.now())
        return refuse('invalid_grant', 'the code has expired (a code is valid for 10 minutes)');
      if (row.redirect_uri !== redirectUri)
        return refuse('invalid_grant', 'redirect_uri does not match the redirect_uri of the authorization request');
      if (s256(verifier) !== row.code_challenge)
        return refuse('invalid_grant', 'code_verifier does not match the code_challenge (S256)');
      const scopes = await this.effectiveScopes(client, row.user_id, row.scopes);
      if (scopes.length === 0) {
        await this.grantsRepo.markCodeUsed(row.id);
        return refuse('invalid_grant', 'the user’s role no longer holds any of the scopes granted');
      }
      const grantId = await this.grants.create({ clientId: client.client.id, userId: row.user_id, scopes });
      await this.grantsRepo.markCodeExchanged(row.id, grantId);
      return (await this.issuePair(client, grantId, row.user_id, scopes)).response;
    });
  }

  /**
   * RFC 6749 §6 with rotation (OAuth 2.1 §4.3.1): each use returns a new refresh token. A rotated
   * token presented again within REFRESH_REUSE_GRACE_MS (two tabs refreshing at once) gets a fresh
   * pair of the same family; after it, the reuse revokes the family.
   */
  private async refresh(req: Request, client: TokenClient, fields: Fields): Promise<OAuthTokenResponse> {
    const value = required(fields, 'refresh_token');
    const scopeParam = formParam(fields, 'scope');
    if (!isWellFormedToken(value) || !value.startsWith('chr_'))
      return fail(
        'invalid_grant',
        'refresh_token is not a refresh token of this server (chr_…, with a valid checksum)',
      );
    return this.inTenantOrRefuse(req, client, async () => {
      const hash = hashToken(value);
      const grantId = await this.grantsRepo.findRefreshTokenGrantId(hash);
      if (!grantId) return refuse('invalid_grant', 'the refresh token is unknown');
      // The family first, then the token (revocation's order): parallel refreshes of one family run one after the other.
      const grant = await this.grantsRepo.lockGrant(grantId);
      const token = await this.grantsRepo.lockRefreshTokenByHash(hash);
      if (grant.client_id !== client.client.id)
        return refuse('invalid_grant', 'the refresh token was issued to another client');
      if (token.revoked_at || grant.revoked_at) return refuse('invalid_grant', 'the refresh token has been revoked');
      if (token.expires_at.getTime() <= Date.now())
        return refuse('invalid_grant', 'the refresh token has expired (a refresh token is valid for 30 days)');
      if (token.rotated_at && Date.now() - token.rotated_at.getTime() > REFRESH_REUSE_GRACE_MS) {
        await this.grants.revoke(token.grant_id);
        return refuse(
          'invalid_grant',
          'the refresh token was already used (it rotates at each use); as a precaution every token of this authorization is now revoked',
        );
      }
      let wanted = grant.scopes;
      if (scopeParam !== undefined) {
        wanted = parseScopeParam(scopeParam);
        const beyond = wanted.find((s) => !grant.scopes.includes(s));
        if (beyond !== undefined)
          return refuse('invalid_scope', `scope ${printable(beyond)} was not granted to this authorization`);
      }
      const scopes = await this.effectiveScopes(client, grant.user_id, wanted);
      if (scopes.length === 0)
        return refuse('invalid_grant', 'the user’s role no longer holds any of the scopes granted');
      const pair = await this.issuePair(client, token.grant_id, grant.user_id, scopes);
      if (!token.rotated_at) await this.grantsRepo.markRefreshTokenRotated(token.id, pair.refreshId);
      return pair.response;
    });
  }

  /** The scopes still grantable now: on the client's ceiling and held by the user's current role. */
  private async effectiveScopes(client: TokenClient, userId: string, scopes: readonly string[]): Promise<string[]> {
    const role = await this.oauthRepo.userRole(userId);
    if (!role) return [];
    return capByRole(scopes, role).filter((s) => isScope(s) && client.client.scopes.includes(s));
  }

  /** An access token (an api_tokens row of type oauth, named after the client) and a refresh token, both of the grant. */
  private async issuePair(
    client: TokenClient,
    grantId: string,
    userId: string,
    scopes: string[],
  ): Promise<{ response: OAuthTokenResponse; refreshId: string }> {
    const now = Date.now();
    const access = generateToken('oauth');
    const refresh = generateToken('refresh');
    const refreshId = newUuid();
    await this.grantsRepo.insertAccessToken({
      id: newUuid(),
      name: client.client.name,
      scopes,
      tokenHash: hashToken(access),
      tokenPrefix: access.slice(0, 4),
      last4: access.slice(-4),
      userId,
      createdAt: new Date(now),
      expiresAt: new Date(now + ACCESS_TOKEN_LIFETIME_MS),
      grantId,
    });
    await this.grantsRepo.insertRefreshToken({
      id: refreshId,
      tokenHash: hashToken(refresh),
      grantId,
      createdAt: new Date(now),
      expiresAt: new Date(now + REFRESH_TOKEN_LIFETIME_MS),
    });
    return {
      refreshId,
      response: {
        access_token: access,
        token_type: 'Bearer',
        expires_in: ACCESS_TOKEN_LIFETIME_MS / 1000,
        refresh_token: refresh,
        scope: scopes.join(' '),
      },
    };
  }

  private inTenant<T>(req: Request, client: TokenClient, fn: () => Promise<T>): Promise<T> {
    const r = req as ApiRequest;
    return this.db.runInTenant(
      {
        tenantId: client.tenant.id,
        actor: { kind: 'token', tokenName: client.client.name, userId: null },
        lang: r.lang,
        requestId: r.id,
      },
      fn,
    );
  }

  /** Runs `fn` in the church's transaction; a Refusal it returns commits (a replay's revocation stays) and is then thrown. */
  private async inTenantOrRefuse<T>(req: Request, client: TokenClient, fn: () => Promise<T | Refusal>): Promise<T> {
    const result = await this.inTenant(req, client, fn);
    if (result instanceof Refusal) throw result.error;
    return result;
  }
}

function refuse(error: OAuthError['error'], description: string): Refusal {
  return new Refusal(new OAuthError(error, description));
}

function fail(error: OAuthError['error'], description: string): never {
  throw new OAuthError(error, description);
}
