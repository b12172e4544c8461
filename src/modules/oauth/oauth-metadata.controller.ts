import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { Public } from '../../platform/auth/auth.decorator';
import { SCOPES } from '../../platform/auth/scopes';
import { OAuthServerMetadataResponse } from './dto/oauth-token.response';
import { issuerOf } from './oauth-issuer';

const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'];

@ApiTags('OAuth')
@Controller('.well-known')
export class OAuthMetadataController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get('oauth-authorization-server')
  @Public()
  @ApiOperation({
    summary: 'Authorization server metadata (RFC 8414)',
    description:
      'The issuer is PUBLIC_URL when set, else the origin the request came to; the authorization redirect carries it as `iss` (RFC 9207).',
  })
  @ApiOkResponse({ type: OAuthServerMetadataResponse })
  metadata(@Req() req: Request, @Res({ passthrough: true }) res: Response): OAuthServerMetadataResponse {
    const issuer = issuerOf(req, this.config);
    res.setHeader('Access-Control-Allow-Origin', '*');
    return {
      issuer,
      authorization_endpoint: `${issuer}/v1/oauth/authorize`,
      token_endpoint: `${issuer}/v1/oauth/token`,
      revocation_endpoint: `${issuer}/v1/oauth/revoke`,
      scopes_supported: [...SCOPES],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
      revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${issuer}/docs`,
    };
  }
}
