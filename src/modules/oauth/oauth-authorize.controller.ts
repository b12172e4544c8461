import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { ApiRequest } from '../../common/http/request';
import { Public } from '../../platform/auth/auth.decorator';
import { AuthorizeFlow } from './authorization-request.flow';
import { AuthorizeDocs, DecisionDocs, SignInDocs } from './oauth-authorize.openapi';

/**
 * `GET /v1/oauth/authorize` and the two forms of its pages (sign-in, consent). Public: the client
 * names the church, the staff member signs in with e-mail and password.
 */
@ApiTags('OAuth')
@Controller('v1/oauth/authorize')
export class OAuthAuthorizeController {
  constructor(private readonly flow: AuthorizeFlow) {}

  @Get()
  @Public()
  @AuthorizeDocs()
  async authorize(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    await this.flow.start(req, res);
  }

  @Post('sign-in')
  @HttpCode(200)
  @Public()
  @SignInDocs()
  async signIn(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    await this.flow.signIn(req, res);
  }

  @Post('decision')
  @HttpCode(303)
  @Public()
  @DecisionDocs()
  async decide(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    await this.flow.decide(req, res);
  }
}
