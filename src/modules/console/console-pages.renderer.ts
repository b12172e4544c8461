import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { interpolate, Language } from '../../common/i18n/language';
import { SignInError, signInErrorMessage } from '../../platform/views/sign-in-error';
import { sendPage } from '../../platform/views/page-headers';
import { initialsOf } from '../../platform/views/page-text';
import { OAUTH_PAGE_TEXTS } from '../oauth/oauth-pages.texts';
import type { ConsoleSession } from './console-sessions.service';
import { ConsolePageId, HOME, navFor } from './console-nav';
import { CONSOLE_TEXTS, ConsoleTexts } from './console.texts';
import { COPY_SCRIPT, COPY_SCRIPT_HASH } from './copy-button.script';

export type ConsoleErrorKind = 'forbidden' | 'csrf' | 'form' | 'notFound';

const ERROR_STATUS: Record<ConsoleErrorKind, number> = { forbidden: 403, csrf: 403, form: 400, notFound: 404 };

/**
 * Renders the console's pages (templates/console/*.hbs) with the OAuth pages' style sheet and
 * security headers: signed-in pages in the console layout (church, account, navigation), the
 * sign-in page and the error pages of a browser without a session in the pages' one layout.
 */
@Injectable()
export class ConsolePages {
  texts(lang: Language): ConsoleTexts {
    return CONSOLE_TEXTS[lang];
  }

  async signIn(
    res: Response,
    page: {
      lang: Language;
      csrf: string;
      status?: number;
      church?: string;
      email?: string;
      notice?: 'signedOut' | 'expired';
      error?: SignInError;
    },
  ): Promise<void> {
    const t = CONSOLE_TEXTS[page.lang];
    const error = signInErrorMessage(res, t.signIn, page.error);
    await this.send(res, page.lang, page.status ?? 200, 'console/sign-in', {
      title: `${t.signIn.title} · ${t.signIn.heading}`,
      t: { ...t.signIn, product: t.product },
      footer: t.footer,
      csrf: page.csrf,
      church: page.church,
      email: page.email,
      notice: page.notice ? t.signIn[page.notice] : undefined,
      error,
    });
  }

  /** A page of a signed-in staff member, in the console layout with the navigation of their role. */
  async page(
    res: Response,
    session: ConsoleSession,
    page: { lang: Language; id?: ConsolePageId; title: string; view: string; status?: number; script?: boolean },
    locals: Record<string, unknown>,
  ): Promise<void> {
    const t = CONSOLE_TEXTS[page.lang];
    await this.send(
      res,
      page.lang,
      page.status ?? 200,
      page.view,
      {
        ...locals,
        layout: 'console/layout',
        title: `${page.title} · ${session.church.name}`,
        church: { name: session.church.name, initials: initialsOf(session.church.name) },
        signedInAs: interpolate(t.nav.signedInAs, {
          email: session.email,
          role: OAUTH_PAGE_TEXTS[page.lang].roles[session.role],
        }),
        nav: navFor(session.role, page.id, t.nav),
        csrf: session.csrf,
        script: page.script ? COPY_SCRIPT : undefined,
      },
      page.script ? [COPY_SCRIPT_HASH] : [],
    );
  }

  /** An error page: in the console layout when signed in, else alone. */
  async error(
    res: Response,
    page: { lang: Language; kind: ConsoleErrorKind; requestId: string; session?: ConsoleSession | null },
  ): Promise<void> {
    const t = CONSOLE_TEXTS[page.lang];
    const text = t.error[page.kind];
    const locals = {
      t: { ...t, ...t.error },
      heading: text.heading,
      message: text.message,
      back: { href: HOME, label: t.error.back },
      requestId: page.requestId,
      footer: t.footer,
    };
    if (page.session)
      return this.page(
        res,
        page.session,
        { lang: page.lang, title: text.heading, view: 'console/error', status: ERROR_STATUS[page.kind] },
        locals,
      );
    await this.send(res, page.lang, ERROR_STATUS[page.kind], 'console/error', {
      ...locals,
      title: `${text.heading} · ${t.error.title}`,
    });
  }

  private async send(
    res: Response,
    lang: Language,
    status: number,
    view: string,
    locals: Record<string, unknown>,
    scriptHashes: string[] = [],
  ): Promise<void> {
    await sendPage(res, { view, status, lang, scriptHashes }, locals);
  }
}
