import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import { UsersService } from '../../platform/users/users.service';
import type { CreateTokenDto } from './dto/create-token.dto';
import type { CreatedTokenResponse, TokenResponse } from './dto/token.response';
import type { Principal } from '../../platform/auth/principal';
import { hasScope } from '../../platform/auth/scopes';
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

  async create(dto: CreateTokenDto, caller: Principal): Promise<CreatedTokenResponse> {
    if (caller.tokenType === 'kiosk' || caller.tokenType === 'oauth' || !caller.actingUserId) {
      throw new AppError('scope_not_allowed', { scope: 'token creation (staff tokens only)' });
    }
    const creator = await this.users.requireById(caller.actingUserId);
    const { entity, value } = await this.tokens.issue({
      type: dto.type ?? 'pat',
      name: dto.name,
      scopes: dto.scopes,
      creator,
      callerScopes: caller.scopes,
    });
    return { ...toTokenResponse(entity), token: value };
  }

  async list(rawQuery: Record<string, unknown>, caller: Principal): Promise<ListEnvelope<TokenResponse>> {
    const page = await this.repository.list(parseListQuery(rawQuery, TOKEN_LIST), this.restriction(caller));
    return toEnvelope(page, toTokenResponse);
  }

  async get(id: string, caller: Principal): Promise<TokenResponse> {
    return toTokenResponse(await this.tokens.get(id, this.restriction(caller)));
  }

  async revoke(id: string, caller: Principal): Promise<void> {
    await this.tokens.revoke(id, this.restriction(caller));
  }

  /** Admins see every token of the church; others only the tokens they own or created. */
  private restriction(caller: Principal): string | null {
    if (hasScope(caller.scopes, 'admin:*')) return null;
    if (!caller.actingUserId) throw AppError.notFound('token');
    return caller.actingUserId;
  }
}
