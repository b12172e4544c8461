import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../../common/errors/app-error';
import type { CorsPolicy } from './cors-policy.service';

export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'X-Tenant',
  'Content-Type',
  'Idempotency-Key',
  'If-None-Match',
  'Accept-Language',
  'Accept',
];
export const CORS_EXPOSED_HEADERS = [
  'ETag',
  'Location',
  'Retry-After',
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Bucket',
  'RateLimit',
  'RateLimit-Policy',
  'Idempotent-Replayed',
  'Content-Language',
];
const METHODS = 'GET, POST, PUT, PATCH, DELETE';

/** Answers CORS preflights (they carry no X-Tenant): allowed when the origin is on any church's list. */
export function corsPreflight(policy: CorsPolicy) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.headers.origin;
    if (req.method !== 'OPTIONS' || !origin || !req.headers['access-control-request-method']) return next();
    policy
      .isAllowedAnywhere(origin)
      .then((allowed) => {
        res.vary('Origin');
        if (!allowed) return next(new AppError('origin_not_allowed', { origin }));
        res.setHeader('Access-Control-Allow-Origin', origin);
        res.setHeader('Access-Control-Allow-Methods', METHODS);
        res.setHeader('Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS.join(', '));
        res.setHeader('Access-Control-Max-Age', '600');
        res.status(204).end();
      })
      .catch(next);
  };
}

/** On an actual browser request, after the church is known: allow the origin or refuse with 403. */
export async function applyCors(policy: CorsPolicy, tenantId: string, req: Request, res: Response): Promise<void> {
  const origin = req.headers.origin;
  if (!origin) return;
  res.vary('Origin');
  if (!(await policy.isAllowedFor(tenantId, origin))) throw new AppError('origin_not_allowed', { origin });
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS.join(', '));
}
