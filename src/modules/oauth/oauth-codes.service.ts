import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { TenantContext } from '../../common/context/tenant-context';
import { newUuid } from '../../common/ids/id';
import { CODE_LIFETIME_MS } from './oauth-lifetimes';

export interface IssueCodeInput {
  /** The client's uuid (AuthorizeClient.client.id). */
  clientId: string;
  /** The consenting staff member's uuid. */
  userId: string;
  /** The scopes granted (grantableScopes). */
  scopes: string[];
  /** The redirect_uri of the authorization request, exactly as sent (the token request must repeat it). */
  redirectUri: string;
  /** The S256 code_challenge (base64url of the SHA-256 of the verifier). */
  codeChallenge: string;
}

export function hashCode(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Authorization codes: 256 random bits, base64url; stored as SHA-256, valid 10 minutes, once. */
@Injectable()
export class OAuthCodesService {
  /** Issues a code INSIDE the church's tenant context (Database.runInTenant); returns its value (never stored). */
  async issue(input: IssueCodeInput): Promise<string> {
    const scope = TenantContext.current();
    const value = randomBytes(32).toString('base64url');
    const now = new Date();
    await scope.manager.query(
      `INSERT INTO oauth_codes (tenant_id, id, code_hash, client_id, user_id, scopes, redirect_uri, code_challenge, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        scope.tenantId,
        newUuid(),
        hashCode(value),
        input.clientId,
        input.userId,
        input.scopes,
        input.redirectUri,
        input.codeChallenge,
        now,
        new Date(now.getTime() + CODE_LIFETIME_MS),
      ],
    );
    return value;
  }
}
