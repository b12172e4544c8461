import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { setCachingHeaders } from '../http/conditional-get';
import { NotModified } from '../http/not-modified';
import type { ApiRequest } from '../http/request';
import { negotiateLanguage } from '../i18n/language';
import { AppError } from './app-error';
import { translateDatabaseError } from './database-errors';
import { sendProblem } from './problem';

/** Turns every error into RFC 9457 problem JSON. Unknown errors become a generic 500 and a log line. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('Problem');

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<ApiRequest>();
    const res = host.switchToHttp().getResponse<Response>();
    if (exception instanceof NotModified) {
      res.setHeader('ETag', exception.etag);
      setCachingHeaders(res);
      res.status(304).end();
      return;
    }
    const error = this.toAppError(exception, req);
    // A 503 is the database (or another dependency) out of reach, not a bug: one line, no stack.
    if (error.status === 503)
      this.logger.warn({
        request_id: req.id,
        method: req.method,
        path: req.path,
        error: exception instanceof Error ? exception.message : String(exception),
      });
    else if (error.status >= 500)
      this.logger.error({ request_id: req.id, method: req.method, path: req.path, error: describe(exception) });
    sendProblem(res, error, req.lang ?? negotiateLanguage(req.headers['accept-language']), req.id ?? 'req_unknown');
  }

  private toAppError(exception: unknown, req: ApiRequest): AppError {
    if (exception instanceof AppError) return exception;
    const fromDb = translateDatabaseError(exception);
    if (fromDb) return fromDb;
    if (exception instanceof HttpException) return fromHttpException(exception, req);
    return new AppError('internal_error');
  }
}

function fromHttpException(exception: HttpException, req: ApiRequest): AppError {
  switch (exception.getStatus()) {
    case 404:
      return new AppError('route_not_found', { method: req.method, path: req.path });
    case 405:
      return new AppError('method_not_allowed');
    case 413:
      return new AppError('payload_too_large', { limit: '5 MB' });
    case 415:
      return new AppError('unsupported_media_type');
    case 401:
      return new AppError('unauthorized');
    case 400:
      // Express could not percent-decode a path segment (`/v1/members/%ZZ`): name the path, not '?'.
      if (exception.cause instanceof URIError)
        return AppError.invalidParameter('path', 'invalid_format', { format: 'percent-encoded UTF-8' });
      return new AppError('invalid_parameter', { parameter: '?' });
    default:
      return new AppError('internal_error');
  }
}

function describe(exception: unknown): string {
  return exception instanceof Error
    ? `${exception.name}: ${exception.message}\n${exception.stack ?? ''}`
    : String(exception);
}
