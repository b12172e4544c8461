import type { NextFunction, Request, Response } from 'express';
import type { ApiRequest } from '../http/request';
import type { JsonLogger } from './json-logger';

/**
 * One JSON line per answered request (LOG_FORMAT=json): method, route template, status and
 * duration, with the request id and church. The path, query and headers are not logged (a query
 * or header may carry a secret).
 */
export function accessLog(logger: JsonLogger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    // Lines at the `log` level: below it (LOG_LEVEL=warn) there is nothing to time.
    if (!logger.logsRequests) return next();
    const start = process.hrtime.bigint();
    res.once('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      logger.request(req as ApiRequest, 'HTTP', `${req.method} ${route} ${res.statusCode}`, {
        method: req.method,
        status: res.statusCode,
        duration_ms: Math.round(ms * 10) / 10,
      });
    });
    next();
  };
}
