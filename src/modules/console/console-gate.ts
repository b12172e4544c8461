import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { ApiRequest, FormBody } from '../../common/http/request';
import { setPageHeaders } from '../../platform/views/page-headers';
import { readCookie } from '../../platform/views/csrf';
import { ConsolePageId, mayUse } from './console-nav';
import { ConsolePages } from './console-pages.renderer';
import { ConsoleSession, ConsoleSessionsService, SESSION_COOKIE } from './console-sessions.service';

export type Fields = FormBody['fields'];

/** A form field sent once as text. */
export function field(fields: Fields, name: string): string | undefined {
  const value = fields[name];
  return typeof value === 'string' ? value : undefined;
}

/** A form field as a list (a repeated name, e.g. checkboxes). */
export function fieldList(fields: Fields, name: string): string[] {
  const value = fields[name];
  return value === undefined ? [] : [value].flat();
}

/** A 303 to a page of the console (after a form, or to the sign-in page), with the pages' headers. */
export function seeOther(res: Response, location: string): void {
  setPageHeaders(res);
  res.status(303).setHeader('Location', location);
  res.end();
}

/**
 * What every console route checks first. A page: a live session (else to the sign-in page) and a
 * role that may use it (else the 403 page). A form also: readable (else 400/413/415 page) and its
 * CSRF token the session's (else the 403 page; nothing is done).
 */
@Injectable()
export class ConsoleGate {
  constructor(
    private readonly sessions: ConsoleSessionsService,
    private readonly pages: ConsolePages,
  ) {}

  async page(req: ApiRequest, res: Response, id?: ConsolePageId): Promise<ConsoleSession | null> {
    const session = await this.sessions.resolve(req);
    if (!session) {
      this.toSignIn(req, res);
      return null;
    }
    if (id && !mayUse(session.role, id)) {
      await this.pages.error(res, { lang: req.lang, kind: 'forbidden', requestId: req.id, session });
      return null;
    }
    return session;
  }

  async form(
    req: ApiRequest,
    res: Response,
    id?: ConsolePageId,
  ): Promise<{ session: ConsoleSession; fields: Fields } | null> {
    const session = await this.sessions.resolve(req);
    if (!session) {
      this.toSignIn(req, res);
      return null;
    }
    const form = req.form;
    if (!form || form.error) {
      await this.pages.error(res, { lang: req.lang, kind: 'form', requestId: req.id, session });
      return null;
    }
    if (field(form.fields, 'csrf') !== session.csrf) {
      await this.pages.error(res, { lang: req.lang, kind: 'csrf', requestId: req.id, session });
      return null;
    }
    if (id && !mayUse(session.role, id)) {
      await this.pages.error(res, { lang: req.lang, kind: 'forbidden', requestId: req.id, session });
      return null;
    }
    return { session, fields: form.fields };
  }

  /** No live session: to the sign-in page, saying the session ended when the browser had one. */
  private toSignIn(req: ApiRequest, res: Response): void {
    const had = readCookie(req, SESSION_COOKIE) !== undefined;
    if (had) this.sessions.clearCookie(res);
    seeOther(res, had ? '/console/sign-in?ended=1' : '/console/sign-in');
  }
}
