import type { Response } from 'express';
import { interpolate, Language } from '../i18n/language';
import { AppError, ProblemExtensions } from './app-error';
import { ERROR_CATALOG, FORMAT_CATALOG, ISSUE_CATALOG } from './catalog';

export const PROBLEM_TYPE_BASE = 'https://docs.example.org/errors/';

export interface ProblemBody extends ProblemExtensions {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  request_id: string;
  errors?: { field: string; issue: string; message: string }[];
}

export function toProblem(error: AppError, lang: Language, requestId: string): ProblemBody {
  const text = ERROR_CATALOG[lang][error.code];
  const issues = ISSUE_CATALOG[lang];
  const body: ProblemBody = {
    type: PROBLEM_TYPE_BASE + error.code,
    title: text.title,
    status: error.status,
    detail: interpolate(text.detail, error.params),
    code: error.code,
    request_id: requestId,
    ...error.extensions,
  };
  if (error.errors.length > 0) {
    body.errors = error.errors.map((e) => ({
      field: e.field,
      issue: e.issue,
      message: interpolate(issues[e.issue] ?? issues.invalid, localizedFormat(e.params, lang)),
    }));
  }
  return body;
}

/** `params` with its `format` in the answer's language, where the catalog has it. */
function localizedFormat(
  params: Record<string, string | number> | undefined,
  lang: Language,
): Record<string, string | number> | undefined {
  const format = lang === 'en' || typeof params?.format !== 'string' ? undefined : FORMAT_CATALOG[lang][params.format];
  return format === undefined ? params : { ...params, format };
}

/** Writes an RFC 9457 answer. Used by the Nest exception filter and by the Express-level error handler. */
export function sendProblem(res: Response, error: AppError, lang: Language, requestId: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  if (error.status === 401 && !res.getHeader('WWW-Authenticate')) {
    const desc = error.code === 'unauthorized' ? '' : `, error="invalid_token", error_description="${error.code}"`;
    res.setHeader('WWW-Authenticate', `Bearer realm="church-api"${desc}`);
  }
  res.status(error.status);
  res.setHeader('Content-Type', 'application/problem+json; charset=utf-8');
  res.setHeader('Content-Language', lang);
  res.setHeader('Cache-Control', 'no-store');
  const body = JSON.stringify(toProblem(error, lang, requestId));
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
