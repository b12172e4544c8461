import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiList } from '../../common/lists/list-envelope';
import { Auth } from '../../platform/auth/auth.decorator';
import type { AuthRequest } from '../../platform/auth/principal';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { CreateOAuthClientDto } from './dto/create-oauth-client.dto';
import { CreatedOAuthClientResponse, OAuthClientResponse } from './dto/oauth-client.response';
import { UpdateOAuthClientDto } from './dto/update-oauth-client.dto';
import { OAUTH_CLIENT_LIST } from './oauth-clients.list';
import { OAuthClientsService } from './oauth-clients.service';

@ApiTags('OAuth')
@Controller('v1/oauth/clients')
export class OAuthClientsController {
  constructor(private readonly clients: OAuthClientsService) {}

  @Post()
  @Idempotent({ secret: 'client_secret' })
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'Register an OAuth client',
    description:
      'Returns `client_id` (app_…) and, for a confidential client, `client_secret`, shown this once (stored as a SHA-256 hash).',
  })
  @ApiCreatedResponse({ type: CreatedOAuthClientResponse })
  async create(
    @Body() dto: CreateOAuthClientDto,
    @Req() req: AuthRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CreatedOAuthClientResponse> {
    const created = await this.clients.create(
      { name: dto.name, redirectUris: dto.redirect_uris, type: dto.type, scopes: dto.scopes },
      req.principal!.actingUserId,
    );
    res.location(`/v1/oauth/clients/${created.id}`);
    res.setHeader('Cache-Control', 'no-store');
    return created;
  }

  @Get()
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({ summary: 'List OAuth clients' })
  @ApiList(OAuthClientResponse, OAUTH_CLIENT_LIST)
  list(@Query() query: Record<string, unknown>) {
    return this.clients.list(query);
  }

  @Get(':id')
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({ summary: 'Get an OAuth client' })
  @ApiOkResponse({ type: OAuthClientResponse })
  get(@Param('id') id: string): Promise<OAuthClientResponse> {
    return this.clients.get(id);
  }

  @Patch(':id')
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'Update an OAuth client',
    description:
      'Name, redirect URIs (matched exactly from now on) and scope ceiling (tokens refreshed from now on are capped by it). The type cannot change.',
  })
  @ApiOkResponse({ type: OAuthClientResponse })
  update(@Param('id') id: string, @Body() dto: UpdateOAuthClientDto): Promise<OAuthClientResponse> {
    return this.clients.update(id, { name: dto.name, redirectUris: dto.redirect_uris, scopes: dto.scopes });
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'Delete an OAuth client',
    description: 'Every authorization, code and token of the client is revoked at once.',
  })
  @ApiNoContentResponse()
  async remove(@Param('id') id: string): Promise<void> {
    await this.clients.remove(id);
  }
}
