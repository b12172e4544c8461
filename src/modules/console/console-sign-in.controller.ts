import { createHash } from 'node:crypto';
import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import type { ApiRequest } from '../../common/http/request';
import { Public } from '../../platform/auth/auth.decorator';
import { browserBinding, readCookie } from '../../platform/views/csrf';
import { TenantsService } from '../../platform/tenancy/tenants.service';
import { AppError } from '../../common/errors/app-error';
import { SignInCredentials } from '../oauth/sign-in-credentials';
import { SignInThrottle } from '../oauth/sign-in-throttle';
import { field, seeOther } from './console-gate';
import { HOME } from './console-nav';
import { ConsolePages } from './console-pages.renderer';
import { ConsoleSessionsService } from './console-sessions.service';

/** The cookie that binds the sign-in form to the browser that loaded it (login CSRF). */
export const SIGN_IN_COOKIE = '__Host-console_sign_in';

const signInCsrf = (cookie: string) => createHash('sha256').update(`console-sign-in:${cookie}`).digest('base64url');

/** No church has this id: an unknown church key still costs a password verification (the decoy hash). */
const NO_CHURCH = '00000000-0000-0000-0000-000000000000';

/**
 * `/console`, its sign-in and sign-out (CONTRACT §20): the staff e-mail and password of one church,
 * checked by the OAuth sign-in's own credentials check (argon2, decoy hash) and throttle.
 */
@ApiExcludeController()
@Controller('console')
export class ConsoleSignInController {
  constructor(
    private readonly sessions: ConsoleSessionsService,
    private readonly pages: ConsolePages,
    private readonly tenants: TenantsService,
    private readonly credentials: SignInCredentials,
    private readonly throttle: SignInThrottle,
  ) {}

  @Get()
  @Public()
  async home(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    seeOther(res, (await this.sessions.resolve(req)) ? HOME : '/console/sign-in');
  }

  @Get('sign-in')
  @Public()
  async signInPage(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    if (await this.sessions.resolve(req)) return seeOther(res, HOME);
    const church = typeof req.query.church === 'string' ? req.query.church.slice(0, 100) : undefined;
    const notice = req.query.signed_out === '1' ? 'signedOut' : req.query.ended === '1' ? 'expired' : undefined;
    await this.pages.signIn(res, {
      lang: req.lang,
      csrf: signInCsrf(browserBinding(req, res, SIGN_IN_COOKIE)),
      church,
      notice,
    });
  }

  @Post('sign-in')
  @HttpCode(200)
  @Public()
  async signIn(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const form = req.form;
    if (!form || form.error) return this.pages.error(res, { lang: req.lang, kind: 'form', requestId: req.id });
    const bound = readCookie(req, SIGN_IN_COOKIE);
    if (!bound || field(form.fields, 'csrf') !== signInCsrf(bound))
      return this.pages.error(res, { lang: req.lang, kind: 'csrf', requestId: req.id });
    const slug = field(form.fields, 'church')?.trim().toLowerCase() ?? '';
    const email = field(form.fields, 'email')?.trim() ?? '';
    const password = field(form.fields, 'password') ?? '';
    const page = { lang: req.lang, csrf: signInCsrf(bound), church: slug.slice(0, 100), email: email.slice(0, 320) };
    if (!slug || !email || !password) return this.pages.signIn(res, { ...page, status: 400, error: 'missing' });

    const church = await this.tenants.requireBySlug(slug).catch((e: unknown) => {
      if (e instanceof AppError) return null;
      throw e;
    });
    if (!church || church.status !== 'active') {
      await this.credentials.verify(NO_CHURCH, email, password);
      return this.pages.signIn(res, { ...page, status: 400, error: 'wrong' });
    }
    const address = req.ip ?? 'unknown';
    const wait = await this.throttle.retryAfter(church.id, email, address);
    if (wait > 0) return this.pages.signIn(res, { ...page, status: 429, error: { throttledSeconds: wait } });
    const staff = await this.credentials.verify(church.id, email, password);
    if (!staff) {
      await this.throttle.recordFailure(church.id, email, address);
      return this.pages.signIn(res, { ...page, status: 400, error: 'wrong' });
    }
    await this.throttle.clearAccount(church.id, email);
    await this.sessions.start(res, { tenantId: church.id, userId: staff.id, requestId: req.id });
    seeOther(res, HOME);
  }

  @Post('sign-out')
  @HttpCode(303)
  @Public()
  async signOut(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const session = await this.sessions.resolve(req);
    if (!session) return seeOther(res, '/console/sign-in');
    if (req.form?.error || field(req.form?.fields ?? {}, 'csrf') !== session.csrf)
      return this.pages.error(res, { lang: req.lang, kind: 'csrf', requestId: req.id, session });
    await this.sessions.end(res, session);
    seeOther(res, '/console/sign-in?signed_out=1');
  }
}
