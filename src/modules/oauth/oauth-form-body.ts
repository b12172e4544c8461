import express, { NextFunction, Request, Response } from 'express';
import type { ApiRequest, FormBody } from '../../common/http/request';
import { isStorableText } from '../../common/validation/text';

/** JSON API routes under /v1/oauth/ (clients, the staff member's authorizations): the JSON pipeline as everywhere. */
const JSON_ROUTES = ['/v1/oauth/clients', '/v1/oauth/authorizations'];

/**
 * POSTs under /v1/oauth/ other than the JSON API routes take `application/x-www-form-urlencoded`
 * (RFC 6749 token and RFC 7009 revocation requests, and the sign-in and consent forms).
 */
export function isOAuthFormRoute(method: string, path: string): boolean {
  if (method !== 'POST') return false;
  const p = path.toLowerCase();
  return p.startsWith('/v1/oauth/') && !JSON_ROUTES.some((r) => p === r || p.startsWith(`${r}/`));
}

const FORM_LIMIT = '64kb';
// Any body is read here (`type: () => true`), so that the JSON parser never sees one on these routes;
// a body of another media type is then reported in `form.error`.
const parse = express.urlencoded({ extended: false, limit: FORM_LIMIT, parameterLimit: 100, type: () => true });

function errorOf(err: unknown): NonNullable<FormBody['error']> {
  const { type, status } = err as { type?: string; status?: number };
  if (type === 'entity.too.large') return 'too_large';
  if (status === 415) return 'media_type';
  return 'malformed';
}

/**
 * Reads the body of an OAuth form route before the JSON pipeline (which then skips the request):
 * `req.form.fields` (and `req.body`) hold the fields, or `req.form.error` says why there are none.
 * It never answers itself: the token endpoint answers RFC 6749 `invalid_request`, a page its error
 * page. Fields are strings, or arrays of strings when a name repeats; text the database cannot hold
 * (NUL, unpaired surrogates) is refused here, like the JSON body check does.
 */
export const oauthFormBody = formBody(isOAuthFormRoute);

/** The same form reading for the routes `isFormRoute` names (the console's forms use it too). */
export function formBody(isFormRoute: (method: string, path: string) => boolean) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!isFormRoute(req.method, req.path)) return next();
    readForm(req, res, next);
  };
}

function readForm(req: Request, res: Response, next: NextFunction): void {
  const r = req as ApiRequest;
  const form: FormBody = { fields: {} };
  r.form = form;
  parse(req, res, (err?: unknown) => {
    if (err) {
      form.error = errorOf(err);
      req.body = {};
      return next();
    }
    const body = (req.body ?? {}) as Record<string, string | string[]>;
    const hasBody = Object.keys(body).length > 0;
    if (hasBody && !req.is('application/x-www-form-urlencoded')) form.error = 'media_type';
    else if (
      Object.entries(body).some(
        ([key, value]) => !isStorableText(key) || [value].flat().some((v) => !isStorableText(v)),
      )
    )
      form.error = 'malformed';
    else form.fields = body;
    req.body = form.fields;
    next();
  });
}
