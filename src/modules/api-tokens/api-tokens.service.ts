import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import { UsersService } from '../../platform/users/users.service';
import type { CreateTokenDto } from './dto/create-token.dto';
import type { CreatedTokenResponse, TokenResponse } from './dto/token.response';
import type { Principal } from '../../platform/auth/principal';
import { credentialOwner } from '../../platform/auth/credential-access';
import { TOKEN_LIST } from './api-tokens.list';
import { toTokenResponse } from './api-tokens.mapper';
import { TokensService } from '../../platform/auth/tokens.service';
import { ApiTokensRepository } from './api-tokens.repository';

/** /v1/auth/tokens: what a caller may see and do with tokens, on top of TokensService. */
@Injectable()
export class ApiTokensService {
  constructor(
    private readonly tokens: TokensService,
    private readonly users: UsersService,
    private readonly repository: ApiTokensRepository,
  ) {}

  /**
   * Through a PAT without admin:*, only PATs of its own user; a service token, or anything with
   * admin:*, needs admin:*. The new token records the token that created it.
   */
  async create(dto: CreateTokenDto, caller: Principal): Promise<CreatedTokenResponse> {
    const type = dto.type ?? 'pat';
    // A staff member's role refuses a service token anyway (scope_not_allowed, from issue()); an
    // org_admin still needs admin:* on the token they call with.
    if (credentialOwner(caller) !== null && type !== 'pat' && caller.role === 'org_admin')
      throw new AppError('scope_insufficient', { scope: 'admin:* (to create a service token)' });
    if (!caller.actingUserId) throw new AppError('scope_not_allowed', { scope: 'token creation (staff tokens only)' });
    const creator = await this.users.requireById(caller.actingUserId);
    const { entity, value } = await this.tokens.issue({
      type,
      name: dto.name,
      scopes: dto.scopes,
      creator,
      callerScopes: caller.scopes,
      // The console's caller acts through no token (tokenId ''): its tokens record no creator token.
      creatorTokenId: caller.tokenId || undefined,
    });
    return { ...toTokenResponse(entity), token: value };
  }

  async list(rawQuery: Record<string, unknown>, caller: Principal): Promise<ListEnvelope<TokenResponse>> {
    const page = await this.repository.list(parseListQuery(rawQuery, TOKEN_LIST), credentialOwner(caller));
    return toEnvelope(page, toTokenResponse);
  }

  async get(id: string, caller: Principal): Promise<TokenResponse> {
    return toTokenResponse(await this.tokens.get(id, credentialOwner(caller)));
  }

  async revoke(id: string, caller: Principal): Promise<void> {
    await this.tokens.revoke(id, credentialOwner(caller));
  }
}
