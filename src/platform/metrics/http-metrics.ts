import type { NextFunction, Request, Response } from 'express';
import type { Histogram } from 'prom-client';

const STATUS_CLASS = ['1xx', '2xx', '3xx', '4xx', '5xx'];

/**
 * Times every request into `http_server_request_duration_seconds`: one listener on `finish`,
 * labelled by method, the matched route's TEMPLATE (`/v1/members/:id`, never the raw path, so the
 * series stay bounded; `unmatched` when no route took it) and the status class.
 */
export function httpMetrics(histogram: Histogram<'method' | 'route' | 'status_class'>) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const start = process.hrtime.bigint();
    res.once('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      histogram.observe(
        { method: req.method, route, status_class: STATUS_CLASS[Math.floor(res.statusCode / 100) - 1] ?? 'other' },
        Number(process.hrtime.bigint() - start) / 1e9,
      );
    });
    next();
  };
}
