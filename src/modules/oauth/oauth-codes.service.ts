import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { newUuid } from '../../common/ids/id';
import { OAuthGrantsRepository } from './oauth-grants.repository';
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
  constructor(private readonly repository: OAuthGrantsRepository) {}

  /** Issues a code INSIDE the church's tenant context (Database.runInTenant); returns its value (never stored). */
  async issue(input: IssueCodeInput): Promise<string> {
    const value = randomBytes(32).toString('base64url');
    const now = new Date();
    await this.repository.insertCode({
      id: newUuid(),
      codeHash: hashCode(value),
      clientId: input.clientId,
      userId: input.userId,
      scopes: input.scopes,
      redirectUri: input.redirectUri,
      codeChallenge: input.codeChallenge,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CODE_LIFETIME_MS),
    });
    return value;
  }
}
