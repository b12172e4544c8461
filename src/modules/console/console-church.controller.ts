import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import type { ApiRequest } from '../../common/http/request';
import { AppValidationPipe } from '../../common/validation/app-validation.pipe';
import { Public } from '../../platform/auth/auth.decorator';
import { CorsSettingsService } from '../settings/cors-settings.service';
import { CorsSettingsDto } from '../settings/dto/cors-settings.dto';
import { ConsoleActions, PageProblem, pageProblem } from './console-actions';
import { ConsoleGate, field, seeOther } from './console-gate';
import { hrefOf } from './console-nav';
import { ConsolePages } from './console-pages.renderer';
import type { ConsoleSession } from './console-sessions.service';
import { ConsoleTokenPages } from './console-token-pages';

/** Church → Service tokens and API → CORS (CONTRACT §20): admin:* pages, so org_admin only. */
@ApiExcludeController()
@Controller('console')
export class ConsoleChurchController {
  private readonly validation = new AppValidationPipe();

  constructor(
    private readonly gate: ConsoleGate,
    private readonly pages: ConsolePages,
    private readonly actions: ConsoleActions,
    private readonly tokenPages: ConsoleTokenPages,
    private readonly cors: CorsSettingsService,
  ) {}

  @Get('church/service-tokens')
  @Public()
  async serviceTokensPage(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const session = await this.gate.page(req, res, 'serviceTokens');
    if (session) await this.tokenPages.show(req, res, session, 'serviceTokens');
  }

  @Post('church/service-tokens')
  @HttpCode(200)
  @Public()
  async createServiceToken(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const checked = await this.gate.form(req, res, 'serviceTokens');
    if (checked) await this.tokenPages.create(req, res, checked.session, 'serviceTokens', checked.fields);
  }

  @Post('church/service-tokens/:id/revoke')
  @HttpCode(303)
  @Public()
  async revokeServiceToken(@Param('id') id: string, @Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const checked = await this.gate.form(req, res, 'serviceTokens');
    if (checked) await this.tokenPages.revoke(req, res, checked.session, 'serviceTokens', id);
  }

  @Get('api/cors')
  @Public()
  async corsPage(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const session = await this.gate.page(req, res, 'cors');
    if (!session) return;
    const current = await this.actions.run(req, session, () => this.cors.get());
    await this.showCors(req, res, session, current.allowed_origins.join('\n'));
  }

  @Post('api/cors')
  @HttpCode(303)
  @Public()
  async saveCors(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const checked = await this.gate.form(req, res, 'cors');
    if (!checked) return;
    const text = field(checked.fields, 'allowed_origins') ?? '';
    const origins = text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean);
    try {
      // As PUT /v1/settings/cors: the same DTO, service and audit entry.
      const dto = (await this.validation.transform(
        { allowed_origins: origins },
        { type: 'body', metatype: CorsSettingsDto },
      )) as CorsSettingsDto;
      await this.actions.run(req, checked.session, async () => {
        await this.cors.replace(dto);
        await this.actions.record(req, { action: 'settings.put_cors', status: 200 });
      });
    } catch (error) {
      return this.showCors(req, res, checked.session, text, pageProblem(error, req.lang, req.id));
    }
    seeOther(res, `${hrefOf('cors')}?done=saved`);
  }

  private async showCors(
    req: ApiRequest,
    res: Response,
    session: ConsoleSession,
    origins: string,
    problem?: PageProblem,
  ): Promise<void> {
    const t = this.pages.texts(req.lang);
    await this.pages.page(
      res,
      session,
      { lang: req.lang, id: 'cors', title: t.cors.title, view: 'console/cors', status: problem?.status },
      {
        t: { ...t, ...t.cors },
        action: hrefOf('cors'),
        origins,
        empty: !problem && origins === '',
        problem,
        errors: problem?.fields ?? {},
        notice: !problem && req.query.done === 'saved' ? t.cors.saved : undefined,
      },
    );
  }
}
