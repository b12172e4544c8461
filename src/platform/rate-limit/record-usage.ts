import type { NextFunction, Request, Response } from 'express';
import type { AuthRequest } from '../auth/principal';
import type { UsageMeter } from './usage-meter';

/** After each authenticated response: one request and its body bytes (none for a 304) to the church's usage. */
export function recordUsage(meter: UsageMeter) {
  return (req: Request, res: Response, next: NextFunction): void => {
    res.on('finish', () => {
      const principal = (req as AuthRequest).principal;
      if (!principal) return;
      const bytes = res.statusCode === 304 ? 0 : Number(res.getHeader('Content-Length') ?? 0);
      meter.record(principal.tenantId, bytes);
    });
    next();
  };
}
