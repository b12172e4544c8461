import { Controller, Delete, Get, HttpCode, Param, Req } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AppError } from '../../common/errors/app-error';
import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { Auth } from '../../platform/auth/auth.decorator';
import { credentialOwner } from '../../platform/auth/credential-access';
import type { AuthRequest } from '../../platform/auth/principal';
import { OAuthAuthorizationListResponse } from './dto/oauth-token.response';
import { OAuthGrantsService } from './oauth-grants.service';

/**
 * The apps the calling staff member has authorized, and revoking one: through a personal access
 * token of theirs, or a token with admin:* (its staff member's); never an OAuth access token.
 */
@ApiTags('OAuth')
@Controller('v1/oauth/authorizations')
export class OAuthAuthorizationsController {
  constructor(private readonly grants: OAuthGrantsService) {}

  @Get()
  @Auth({ scopes: [], credentials: true })
  @ApiOperation({
    summary: 'List the apps you authorized',
    description:
      "One entry per app (client) you have authorized and not revoked, oldest first, in one page. Call it with a personal access token of yours (or a token with admin:*: its staff member's apps); an OAuth access token is refused (403 `token_type_not_allowed`).",
  })
  @ApiOkResponse({ type: OAuthAuthorizationListResponse })
  async list(@Req() req: AuthRequest): Promise<OAuthAuthorizationListResponse> {
    const userId = credentialOwner(req.principal!) ?? req.principal!.actingUserId;
    const rows = userId ? await this.grants.listForUser(userId) : [];
    const data = rows.map((r) => {
      const id = toPublicId(ID_PREFIX.oauthClient, r.client_id);
      return {
        id,
        client_id: id,
        client_name: r.client_name,
        scopes: r.scopes,
        authorized_at: r.authorized_at.toISOString(),
        last_used_at: r.last_used_at?.toISOString() ?? null,
      };
    });
    return { data, next_cursor: null, total: data.length };
  }

  @Delete(':client_id')
  @HttpCode(204)
  @Auth({ scopes: [], credentials: true })
  @ApiOperation({
    summary: 'Revoke an app you authorized',
    description:
      'Revokes every access and refresh token the app holds for you, at once (the next call with one gets 401 `token_revoked`). 404 when you have no live authorization of that app.',
  })
  @ApiParam({ name: 'client_id', example: 'app_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' })
  @ApiNoContentResponse()
  async revoke(
    @Param('client_id', new ParseIdPipe(ID_PREFIX.oauthClient, 'authorization')) clientId: string,
    @Req() req: AuthRequest,
  ): Promise<void> {
    const userId = credentialOwner(req.principal!) ?? req.principal!.actingUserId;
    if (!userId || !(await this.grants.revokeForUser(userId, clientId))) throw AppError.notFound('authorization');
  }
}
