import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError } from '../../common/errors/app-error';
import { newUuid } from '../../common/ids/id';
import type { UserEntity } from '../users/user.entity';
import { RowLock, withLock } from '../../database/row-lock';
import { ApiTokenEntity, ApiTokenType } from './api-token.entity';
import { isScope, KIOSK_SCOPES, scopesAllowedFor } from './scopes';
import { expiryFor } from './token-lifetimes';
import { generateToken, hashToken } from './token-format';

export interface IssueTokenInput {
  type: Exclude<ApiTokenType, 'oauth'>;
  name: string;
  scopes: string[];
  /** The staff user who creates the token; its role bounds the scopes. */
  creator: UserEntity;
  /** When the creator acts through a token, the new token may not exceed that token's scopes. */
  callerScopes?: readonly string[];
  /** The token the creator acts through: revoking it revokes this one too. */
  creatorTokenId?: string;
  deviceId?: string;
}

export interface IssuedToken {
  entity: ApiTokenEntity;
  /** The secret value: returned once, never stored. */
  value: string;
}

/** Issues and revokes API tokens of the current church. */
@Injectable()
export class TokensService {
  private get repo() {
    return TenantContext.current().manager.getRepository(ApiTokenEntity);
  }

  async issue(input: IssueTokenInput): Promise<IssuedToken> {
    const scopes = input.type === 'kiosk' && input.scopes.length === 0 ? [...KIOSK_SCOPES] : [...new Set(input.scopes)];
    this.checkScopes(input, scopes);
    if (input.creatorTokenId) await this.holdCreator(input.creatorTokenId);
    const value = generateToken(input.type);
    const now = new Date();
    const entity = this.repo.create({
      tenantId: TenantContext.current().tenantId,
      id: newUuid(),
      type: input.type,
      name: input.name.trim(),
      scopes,
      tokenHash: hashToken(value),
      tokenPrefix: value.slice(0, 4),
      last4: value.slice(-4),
      userId: input.type === 'pat' ? input.creator.id : null,
      createdBy: input.creator.id,
      deviceId: input.deviceId ?? null,
      createdByTokenId: input.creatorTokenId ?? null,
      createdAt: now,
      expiresAt: expiryFor(input.type, now),
      revokedAt: null,
      lastUsedAt: null,
    });
    await this.repo.insert(entity);
    return { entity, value };
  }

  /** A token of the church; with `userId`, only one that user owns (their PATs). */
  async get(id: string, userId: string | null, lock?: RowLock): Promise<ApiTokenEntity> {
    const token = await this.repo.findOne({
      where: { tenantId: TenantContext.current().tenantId, id },
      ...withLock(lock),
    });
    if (!token || (userId && token.userId !== userId)) throw AppError.notFound('token');
    return token;
  }

  /** The church's tokens among `ids`, in one query. */
  async findMany(ids: string[]): Promise<ApiTokenEntity[]> {
    if (ids.length === 0) return [];
    return this.repo.find({ where: { tenantId: TenantContext.current().tenantId, id: In(ids) } });
  }

  /**
   * Revokes at once (the next call with it is a 401 token_revoked), and with it every token it
   * created, and theirs in turn. With `userId`, only that user's tokens.
   */
  async revoke(id: string, userId: string | null = null): Promise<ApiTokenEntity> {
    const token = await this.get(id, userId, 'pessimistic_write');
    const revokedAt = new Date();
    // The row lock waited for every token being created through this one (issue() holds it FOR
    // SHARE); each pass sees what committed before it, so repeat until a pass finds nothing left.
    while ((await this.revokeCreated(token.id, revokedAt)) > 0);
    token.revokedAt ??= revokedAt;
    return token;
  }

  /** Revokes the token and everything below it in the created-by chain that is still live; how many. */
  private async revokeCreated(id: string, revokedAt: Date): Promise<number> {
    const { manager, tenantId } = TenantContext.current();
    // Counted in a SELECT: TypeORM answers a bare UPDATE … RETURNING with [rows, count].
    const [{ revoked }]: { revoked: number }[] = await manager.query(
      `WITH RECURSIVE created(id) AS (
         SELECT $2::uuid
         UNION
         SELECT t.id FROM api_tokens t JOIN created c ON t.tenant_id = $1 AND t.created_by_token_id = c.id
       ), revoked AS (
         UPDATE api_tokens SET revoked_at = $3
          WHERE tenant_id = $1 AND id IN (SELECT id FROM created) AND revoked_at IS NULL
         RETURNING id
       )
       SELECT count(*)::int AS revoked FROM revoked`,
      [tenantId, id, revokedAt],
    );
    return revoked;
  }

  /**
   * Keeps the creating token from being revoked until this transaction ends (a revocation waits,
   * then takes the new token along); one revoked meanwhile creates nothing. FOR KEY SHARE: the
   * last_used_at writes do not wait for it.
   */
  private async holdCreator(tokenId: string): Promise<void> {
    const { manager, tenantId } = TenantContext.current();
    const [row]: { revoked_at: Date | null }[] = await manager.query(
      'SELECT revoked_at FROM api_tokens WHERE tenant_id = $1 AND id = $2 FOR KEY SHARE',
      [tenantId, tokenId],
    );
    if (!row || row.revoked_at) throw new AppError('token_revoked');
  }

  private checkScopes(input: IssueTokenInput, scopes: string[]): void {
    const issues = [];
    if (!input.name?.trim()) issues.push({ field: 'name', issue: 'required' });
    else if (input.name.length > 100) issues.push({ field: 'name', issue: 'too_long', params: { max: 100 } });
    if (scopes.length === 0) issues.push({ field: 'scopes', issue: 'required' });
    scopes.forEach((s, i) => {
      if (!isScope(s)) issues.push({ field: `scopes[${i}]`, issue: 'invalid', params: {} });
    });
    if (issues.length) throw AppError.validation(issues);
    if (input.type === 'service' && input.creator.role !== 'org_admin')
      throw new AppError('scope_not_allowed', { scope: 'service token (org_admin only)' });
    if (input.type === 'kiosk') {
      const extra = scopes.find((s) => !KIOSK_SCOPES.includes(s as never));
      if (extra) throw new AppError('scope_not_allowed', { scope: extra });
    }
    const byRole = scopesAllowedFor(input.creator.role, scopes);
    if (!byRole.ok) throw new AppError('scope_not_allowed', { scope: byRole.scope });
    if (input.callerScopes && !input.callerScopes.includes('admin:*')) {
      const beyond = scopes.find((s) => !input.callerScopes!.includes(s));
      if (beyond) throw new AppError('scope_not_allowed', { scope: beyond });
    }
  }
}
