import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError } from '../../common/errors/app-error';
import { newUuid } from '../../common/ids/id';
import type { UserEntity } from '../users/user.entity';
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
      createdAt: now,
      expiresAt: expiryFor(input.type, now),
      revokedAt: null,
      lastUsedAt: null,
    });
    await this.repo.insert(entity);
    return { entity, value };
  }

  async get(id: string, userId: string | null): Promise<ApiTokenEntity> {
    const token = await this.repo.findOneBy({ tenantId: TenantContext.current().tenantId, id });
    if (!token || (userId && token.userId !== userId && token.createdBy !== userId)) throw AppError.notFound('token');
    return token;
  }

  /** Revokes at once (the next call with it is a 401 token_revoked). With `userId`, only that user's tokens. */
  async revoke(id: string, userId: string | null = null): Promise<ApiTokenEntity> {
    const token = await this.get(id, userId);
    if (!token.revokedAt) {
      token.revokedAt = new Date();
      await this.repo.update({ tenantId: token.tenantId, id: token.id }, { revokedAt: token.revokedAt });
    }
    return token;
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
