import express, { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors/app-error';
import { translateDatabaseError } from '../errors/database-errors';
import { sendProblem } from '../errors/problem';
import { ID_PREFIX, newPublicId } from '../ids/id';
import { negotiateLanguage } from '../i18n/language';
import { noteEscapes } from './json-body-check';
import type { ApiRequest } from './request';

export const BODY_LIMIT = '5mb';
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/** First in the chain: request id and language, echoed as X-Request-Id / Content-Language. */
export function requestIdentity(req: Request, res: Response, next: NextFunction): void {
  const r = req as ApiRequest;
  r.id = newPublicId(ID_PREFIX.request);
  r.lang = negotiateLanguage(req.headers['accept-language']);
  res.setHeader('X-Request-Id', r.id);
  next();
}

/** A body that is present must be JSON (415 otherwise); GET and DELETE bodies are never parsed, form routes' bodies are already read. */
export function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  if (!METHODS_WITH_BODY.has(req.method) || (req as ApiRequest).form) return next();
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (hasBody && !req.is(['application/json', 'application/*+json']))
    return next(new AppError('unsupported_media_type'));
  next();
}

export const jsonBody = express.json({
  limit: BODY_LIMIT,
  type: ['application/json', 'application/*+json'],
  strict: true,
  verify: noteEscapes,
});

/**
 * The same JSON parser that also keeps the body's exact bytes on `req.rawBody`, for the routes it
 * is mounted on (a signature covers the bytes, not re-serialized JSON). jsonBody then skips the
 * request, whose body has been read.
 */
export const jsonBodyKeepingRaw = express.json({
  limit: BODY_LIMIT,
  type: ['application/json', 'application/*+json'],
  strict: true,
  verify: (req: Request, res: Response, raw: Buffer, encoding: string) => {
    noteEscapes(req, res, raw, encoding);
    (req as ApiRequest).rawBody = raw;
  },
});

interface BodyParserError {
  type?: string;
  status?: number;
}

/** Express-level errors (body parsing, media type) as problem JSON; they happen before Nest routing. */
export function expressErrorHandler(err: unknown, req: Request, res: Response, next: NextFunction): void {
  if (res.headersSent) return next(err);
  const r = req as ApiRequest;
  let error: AppError;
  if (err instanceof AppError) error = err;
  else {
    const type = (err as BodyParserError).type;
    if (type === 'entity.too.large') error = new AppError('payload_too_large', { limit: '5 MB' });
    else if (type === 'entity.parse.failed') error = new AppError('invalid_json');
    else if (type === 'encoding.unsupported' || type === 'charset.unsupported')
      error = new AppError('unsupported_media_type');
    else if ((err as BodyParserError).status === 400) error = new AppError('invalid_json');
    else error = translateDatabaseError(err) ?? new AppError('internal_error');
  }
  sendProblem(res, error, r.lang ?? negotiateLanguage(req.headers['accept-language']), r.id ?? 'req_unknown');
}
