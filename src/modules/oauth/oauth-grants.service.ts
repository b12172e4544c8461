import { Injectable } from '@nestjs/common';
import { newUuid } from '../../common/ids/id';
import { AuthorizationRow, OAuthGrantsRepository } from './oauth-grants.repository';

export type { AuthorizationRow } from './oauth-grants.repository';

/** Grants (one per consent: a family of refresh and access tokens) and their revocation. */
@Injectable()
export class OAuthGrantsService {
  constructor(private readonly repository: OAuthGrantsRepository) {}

  async create(input: { clientId: string; userId: string; scopes: string[] }): Promise<string> {
    const id = newUuid();
    await this.repository.insertGrant({ id, ...input });
    return id;
  }

  /** Revokes the grant and every token issued from it. */
  async revoke(grantId: string): Promise<void> {
    await this.repository.revokeGrant(grantId);
  }

  /** Revokes every grant of a client (the client is being deleted). */
  async revokeAllOfClient(clientId: string): Promise<void> {
    await this.repository.revokeGrantsOfClient(clientId);
  }

  /** Revokes what `userId` authorized `clientId` to do; false when there was nothing live. */
  async revokeForUser(userId: string, clientId: string): Promise<boolean> {
    return (await this.repository.revokeGrantsOfUserForClient(userId, clientId)) > 0;
  }

  /** The apps `userId` has authorized and not revoked, oldest first. */
  listForUser(userId: string): Promise<AuthorizationRow[]> {
    return this.repository.listAuthorizationsOfUser(userId);
  }
}
