import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import { UsersService } from '../users/users.service';
import type { CreateTokenDto } from './dto/create-token.dto';
import type { CreatedTokenResponse, TokenResponse } from './dto/token.response';
import type { Principal } from './principal';
import { hasScope } from './scopes';
import { TOKEN_LIST } from './tokens.list';
import { toTokenResponse } from './tokens.mapper';
import { TokensService } from './tokens.service';

/** /v1/auth/tokens: what a caller may see and do with tokens, on top of TokensService. */
@Injectable()
export class TokensApiService {
  constructor(
    private readonly tokens: TokensService,
    private readonly users: UsersService,
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
    const page = await this.tokens.list(parseListQuery(rawQuery, TOKEN_LIST), this.restriction(caller));
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
