import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { interpolate, Language } from '../../common/i18n/language';
import { SignInError, signInErrorMessage } from '../../platform/views/sign-in-error';
import type { Role, Scope } from '../../platform/auth/scopes';
import { sendPage } from '../../platform/views/page-headers';
import { initialsOf, richText } from '../../platform/views/page-text';
import type { RequestKeys } from './authorization-requests.service';
import { OAUTH_PAGE_TEXTS, PageErrorKind } from './oauth-pages.texts';

/** The church and the app a page speaks of. */
export interface PageParties {
  church: string;
  app: string;
}

interface PageBase {
  lang: Language;
  /** Origins the page's forms may end at (the client's redirect_uri), for CSP form-action. */
  formTargets?: string[];
}

export const SIGN_IN_ACTION = '/v1/oauth/authorize/sign-in';
export const DECISION_ACTION = '/v1/oauth/authorize/decision';

/** Status of each error page. */
export const ERROR_STATUS: Record<PageErrorKind, number> = {
  unknown_client: 400,
  invalid_redirect: 400,
  church_inactive: 403,
  request_invalid: 400,
  csrf: 403,
  form_invalid: 400,
  form_media_type: 415,
  form_too_large: 413,
  unavailable: 503,
};

/**
 * Renders the OAuth pages (templates/oauth/*.hbs in the one layout) with their security headers.
 * Every text comes from OAUTH_PAGE_TEXTS in the request's language; names the church or a client
 * chose are escaped (by Handlebars, or by richText where a sentence holds them).
 */
@Injectable()
export class OAuthPages {
  async signIn(
    res: Response,
    page: PageBase &
      PageParties & {
        keys: RequestKeys;
        status?: number;
        email?: string;
        error?: SignInError;
      },
  ): Promise<void> {
    const t = OAUTH_PAGE_TEXTS[page.lang];
    const parties = { app: page.app, church: page.church };
    const error = signInErrorMessage(res, t.signIn, page.error);
    await this.send(res, page, page.status ?? 200, 'oauth/sign-in', {
      title: `${t.signIn.title} · ${page.church}`,
      t: t.signIn,
      church: { name: page.church, initials: initialsOf(page.church), caption: t.staffOnly },
      heading: t.signIn.heading,
      subtitle: richText(t.signIn.subtitle, parties),
      note: richText(t.signIn.note, parties),
      action: SIGN_IN_ACTION,
      keys: page.keys,
      email: page.email,
      error,
    });
  }

  async consent(
    res: Response,
    page: PageBase &
      PageParties & { keys: RequestKeys; email: string; role: Role; scopes: string[]; redirectUri: string },
  ): Promise<void> {
    const t = OAUTH_PAGE_TEXTS[page.lang];
    const parties = { app: page.app, church: page.church };
    const scopes = page.scopes.map((scope) => {
      const text = t.scopes[scope as Scope];
      const kind = scope === 'admin:*' ? 'admin' : scope.startsWith('write:') ? 'write' : 'read';
      return {
        title: text?.title ?? scope,
        detail: text?.detail ?? '',
        kind,
        write: kind === 'write',
        admin: kind === 'admin',
      };
    });
    await this.send(res, page, 200, 'oauth/consent', {
      title: interpolate(t.consent.title, { app: page.app }),
      t: t.consent,
      app: { name: page.app, initials: initialsOf(page.app) },
      church: { name: page.church, initials: initialsOf(page.church) },
      heading: richText(t.consent.heading, parties),
      lead: t.consent.lead,
      signedInAs: richText(t.consent.signedInAs, { email: page.email }),
      intro: richText(t.consent.intro, parties),
      scopes,
      returnNote: richText(t.consent.returnNote, { host: new URL(page.redirectUri).host }),
      noneText: richText(t.consent.none, { ...parties, role: t.roles[page.role] }),
      backLabel: richText(t.consent.back, parties),
      action: DECISION_ACTION,
      keys: page.keys,
    });
  }

  /** An error page (never a redirect); `back` offers the way back to the app when its redirect_uri can be trusted. */
  async error(
    res: Response,
    page: PageBase & { kind: PageErrorKind; requestId: string; parties?: Partial<PageParties>; back?: string },
  ): Promise<void> {
    const t = OAUTH_PAGE_TEXTS[page.lang];
    const text = t.error[page.kind];
    const app = page.parties?.app ?? t.error.theApp;
    const church = page.parties?.church;
    await this.send(res, page, ERROR_STATUS[page.kind], 'oauth/error', {
      title: `${text.heading} · ${t.error.title}`,
      t: t.error,
      church: church ? { name: church, initials: initialsOf(church) } : undefined,
      heading: text.heading,
      message: richText(text.message, { app, church: church ?? '' }),
      back: page.back && page.parties?.app ? { href: page.back, label: richText(t.error.back, { app }) } : undefined,
      requestId: page.requestId,
    });
  }

  private async send(
    res: Response,
    page: PageBase,
    status: number,
    view: string,
    locals: Record<string, unknown>,
  ): Promise<void> {
    const t = OAUTH_PAGE_TEXTS[page.lang];
    await sendPage(
      res,
      { view, status, lang: page.lang, formTargets: page.formTargets },
      { ...locals, footer: t.footer },
    );
  }
}
