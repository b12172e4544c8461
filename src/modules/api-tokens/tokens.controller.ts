import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { ApiList } from '../../common/lists/list-envelope';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { Auth } from '../../platform/auth/auth.decorator';
import { CreateTokenDto } from './dto/create-token.dto';
import { CreatedTokenResponse, TokenResponse } from './dto/token.response';
import type { AuthRequest } from '../../platform/auth/principal';
import { TOKEN_LIST } from './api-tokens.list';
import { ApiTokensService } from './api-tokens.service';

const TokenId = new ParseIdPipe('tok', 'token');

@ApiTags('Tokens')
@Controller('v1/auth/tokens')
export class TokensController {
  constructor(private readonly tokens: ApiTokensService) {}

  @Post()
  @Idempotent({ secret: 'token' })
  @Auth({ scopes: [], quota: 'tokens', credentials: true })
  @ApiOperation({
    summary: 'Create an API token',
    description:
      'The value is returned once. The scopes must be held by your role and by the token you call with (403 `scope_not_allowed`). ' +
      'Through a personal access token without admin:*, only a PAT of your own; `type: service` needs admin:* and the org_admin role. ' +
      'OAuth access tokens and kiosk keys cannot manage credentials (403 `token_type_not_allowed`). ' +
      'The new token remembers the token that created it: revoking that one revokes this one too. 10 per hour.',
  })
  @ApiCreatedResponse({ type: CreatedTokenResponse })
  async create(
    @Body() dto: CreateTokenDto,
    @Req() req: AuthRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CreatedTokenResponse> {
    const created = await this.tokens.create(dto, req.principal!);
    res.location(`/v1/auth/tokens/${created.id}`);
    res.setHeader('Cache-Control', 'no-store');
    return created;
  }

  @Get()
  @Auth({ scopes: [], credentials: true })
  @ApiOperation({
    summary: 'List API tokens',
    description:
      'Metadata only, never values. Through a personal access token, your own PATs; every token of the church with admin:*.',
  })
  @ApiList(TokenResponse, TOKEN_LIST)
  list(@Query() query: Record<string, unknown>, @Req() req: AuthRequest) {
    return this.tokens.list(query, req.principal!);
  }

  @Get(':id')
  @Auth({ scopes: [], credentials: true })
  @ApiOperation({ summary: 'Get an API token (metadata)' })
  @ApiOkResponse({ type: TokenResponse })
  get(@Param('id', TokenId) id: string, @Req() req: AuthRequest): Promise<TokenResponse> {
    return this.tokens.get(id, req.principal!);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ scopes: [], credentials: true })
  @ApiOperation({
    summary: 'Revoke an API token',
    description:
      'Immediate: the next call with it gets 401 `token_revoked`, and so do the tokens it created, and theirs in turn. Your own PATs; any token with admin:*.',
  })
  @ApiNoContentResponse()
  async revoke(@Param('id', TokenId) id: string, @Req() req: AuthRequest): Promise<void> {
    await this.tokens.revoke(id, req.principal!);
  }
}
