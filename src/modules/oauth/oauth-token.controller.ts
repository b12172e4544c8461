import { Controller, HttpCode, Optional, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { ApiRequest, FormBody } from '../../common/http/request';
import { Public } from '../../platform/auth/auth.decorator';
import { CORS_EXPOSED_HEADERS } from '../../platform/cors/cors';
import { CorsPolicy } from '../../platform/cors/cors-policy.service';
import type { OAuthTokenResponse } from './dto/oauth-token.response';
import { OAuthError } from './oauth-error';
import { OAuthErrorFilter } from './oauth-error.filter';
import type { TokenClient } from './oauth-clients.service';
import { RevokeDocs, TokenDocs } from './oauth-token.openapi';
import { OAuthTokensService } from './oauth-tokens.service';

const FORM = 'application/x-www-form-urlencoded';

/** The fields of the form body, or an invalid_request saying why it could not be read. */
function formOf(req: ApiRequest): FormBody['fields'] {
  switch (req.form?.error) {
    case undefined:
      return req.form?.fields ?? {};
    case 'media_type':
      throw new OAuthError('invalid_request', `the body must be ${FORM} (RFC 6749 §4.1.3)`);
    case 'too_large':
      throw new OAuthError('invalid_request', 'the body is larger than 64 KB');
    case 'malformed':
      throw new OAuthError('invalid_request', `the body is not readable ${FORM} text (UTF-8, no NUL characters)`);
  }
}

function noStore(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
}

@ApiTags('OAuth')
@Controller('v1/oauth')
@UseFilters(OAuthErrorFilter)
export class OAuthTokenController {
  constructor(
    private readonly tokens: OAuthTokensService,
    // Absent where the settings module is not loaded (the CLI); the API always has it.
    @Optional() private readonly cors?: CorsPolicy,
  ) {}

  /**
   * A browser app (a public client in a page) reads the answer when its origin is on the CORS
   * allowlist of the client's church (Settings, CORS); the church is known once the client is.
   * Other origins get no CORS header, so the browser keeps the answer from the page.
   */
  private corsFor(req: ApiRequest, res: Response) {
    return async (client: TokenClient): Promise<void> => {
      const origin = req.headers.origin;
      if (!origin || !this.cors) return;
      res.vary('Origin');
      if (!(await this.cors.isAllowedFor(client.tenant.id, origin))) return;
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS.join(', '));
    };
  }

  @Post('token')
  @HttpCode(200)
  @Public()
  @TokenDocs()
  token(@Req() req: ApiRequest, @Res({ passthrough: true }) res: Response): Promise<OAuthTokenResponse> {
    noStore(res);
    return this.tokens.token(req, formOf(req), this.corsFor(req, res));
  }

  @Post('revoke')
  @HttpCode(200)
  @Public()
  @RevokeDocs()
  async revoke(@Req() req: ApiRequest, @Res({ passthrough: true }) res: Response): Promise<void> {
    noStore(res);
    await this.tokens.revoke(req, formOf(req), this.corsFor(req, res));
  }
}
