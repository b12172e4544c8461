import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { ConcurrencyGate } from '../../common/concurrency/concurrency-gate';
import { APP_CONFIG, AppConfig } from '../../config/app-config';

/** How long a report waits for its turn before a 503 with Retry-After. */
const REPORT_WAIT_MS = 60_000;

/**
 * Admits REPORTS_CONCURRENCY reports at once per process. It runs after authentication, the
 * rate limits and the scope check (global guards), and before the tenant transaction (an
 * interceptor) takes a database connection: a report that waits holds nothing. Its place is given
 * back when the response closes, finished or abandoned; a client gone while waiting leaves the line.
 */
@Injectable()
export class ReportsGate implements CanActivate {
  readonly gate: ConcurrencyGate;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.gate = new ConcurrencyGate(config.REPORTS_CONCURRENCY, REPORT_WAIT_MS);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const res = context.switchToHttp().getResponse<Response>();
    const gone = new AbortController();
    const abandon = () => gone.abort();
    res.once('close', abandon);
    let release: () => void;
    try {
      release = await this.gate.enter(gone.signal);
    } finally {
      res.removeListener('close', abandon);
    }
    if (res.closed) release();
    else res.once('close', release);
    return true;
  }
}
