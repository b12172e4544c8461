import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { AppError } from '../../common/errors/app-error';
import type { ApiRequest } from '../../common/http/request';
import { ID_PREFIX, requirePublicId, toPublicId } from '../../common/ids/id';
import { Public } from '../../platform/auth/auth.decorator';
import { OAuthGrantsService } from '../oauth/oauth-grants.service';
import { ConsoleActions, PageProblem, pageProblem } from './console-actions';
import type { ConsoleSession } from './console-sessions.service';
import { ConsoleGate, seeOther } from './console-gate';
import { hrefOf } from './console-nav';
import { ConsolePages } from './console-pages.renderer';
import { ConsoleTokenPages } from './console-token-pages';
import { shortDate } from './console-tokens.view';

/** My account: the staff member's personal tokens and the apps they authorized (CONTRACT §20). */
@ApiExcludeController()
@Controller('console/account')
export class ConsoleAccountController {
  constructor(
    private readonly gate: ConsoleGate,
    private readonly pages: ConsolePages,
    private readonly actions: ConsoleActions,
    private readonly grants: OAuthGrantsService,
    private readonly tokenPages: ConsoleTokenPages,
  ) {}

  @Get('tokens')
  @Public()
  async tokensPage(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const session = await this.gate.page(req, res, 'tokens');
    if (session) await this.tokenPages.show(req, res, session, 'tokens');
  }

  @Post('tokens')
  @HttpCode(200)
  @Public()
  async createToken(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const checked = await this.gate.form(req, res, 'tokens');
    if (checked) await this.tokenPages.create(req, res, checked.session, 'tokens', checked.fields);
  }

  @Post('tokens/:id/revoke')
  @HttpCode(303)
  @Public()
  async revokeToken(@Param('id') id: string, @Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const checked = await this.gate.form(req, res, 'tokens');
    if (checked) await this.tokenPages.revoke(req, res, checked.session, 'tokens', id);
  }

  @Get('apps')
  @Public()
  async appsPage(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const session = await this.gate.page(req, res, 'apps');
    if (session) await this.showApps(req, res, session);
  }

  @Post('apps/:clientId/revoke')
  @HttpCode(303)
  @Public()
  async revokeApp(@Param('clientId') clientId: string, @Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const checked = await this.gate.form(req, res, 'apps');
    if (!checked) return;
    const { session } = checked;
    try {
      // As DELETE /v1/oauth/authorizations/{client_id}: every token of the grant, or 404.
      await this.actions.run(req, session, async () => {
        const client = requirePublicId(ID_PREFIX.oauthClient, clientId, 'authorization');
        if (!(await this.grants.revokeForUser(session.userId, client))) throw AppError.notFound('authorization');
        await this.actions.record(req, { action: 'oauth_authorizations.revoke', status: 204 });
      });
    } catch (error) {
      return this.showApps(req, res, session, pageProblem(error, req.lang, req.id));
    }
    seeOther(res, `${hrefOf('apps')}?done=revoked`);
  }

  private async showApps(
    req: ApiRequest,
    res: Response,
    session: ConsoleSession,
    problem?: PageProblem,
  ): Promise<void> {
    const t = this.pages.texts(req.lang);
    const rows = await this.actions.run(req, session, () => this.grants.listForUser(session.userId));
    const apps = rows.map((r) => ({
      name: r.client_name,
      scopes: r.scopes.join(', '),
      authorized: shortDate(r.authorized_at.toISOString(), req.lang, t.tokens.never),
      revokeAction: `${hrefOf('apps')}/${toPublicId(ID_PREFIX.oauthClient, r.client_id)}/revoke`,
      revokeLabel: t.apps.revokeLabel.replace('{name}', r.client_name),
    }));
    await this.pages.page(
      res,
      session,
      { lang: req.lang, id: 'apps', title: t.apps.title, view: 'console/apps', status: problem?.status ?? 200 },
      { t: { ...t, ...t.apps }, apps, problem, notice: req.query.done === 'revoked' ? t.apps.revoked : undefined },
    );
  }
}
