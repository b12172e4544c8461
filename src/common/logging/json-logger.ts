import type { LoggerService, LogLevel } from '@nestjs/common';
import pino, { type Logger as Pino } from 'pino';
import { RequestContext } from '../context/request-context';
import { TenantContext } from '../context/tenant-context';
import type { ApiRequest } from '../http/request';

const PINO_LEVEL: Record<LogLevel, pino.Level> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/** What a log line says about the request or job it was written for. */
interface Where {
  request_id?: string;
  tenant?: string;
  route?: string;
}

function where(request?: ApiRequest): Where | undefined {
  const req = request ?? RequestContext.current();
  if (req) {
    const principal = req.principal;
    const route = (req.route as { path?: string } | undefined)?.path;
    return {
      request_id: req.id,
      ...(principal ? { tenant: principal.tenantSlug ?? principal.tenantId } : {}),
      ...(route ? { route } : {}),
    };
  }
  const scope = TenantContext.peek();
  if (scope) return { ...(scope.requestId ? { request_id: scope.requestId } : {}), tenant: scope.tenantId };
  return undefined;
}

/**
 * Nest's logger as one JSON object a line on stdout (LOG_FORMAT=json, the default in production):
 * `level`, `time`, `context`, `msg`, and `request_id`, `tenant` and `route` when written inside a
 * request (or `tenant` inside a job), read from the AsyncLocalStorage contexts, never from
 * request-scoped providers. Messages are what the app logs; tokens and secrets are never among them.
 */
export class JsonLogger implements LoggerService {
  private readonly pino: Pino;
  private readonly enabled: Set<LogLevel>;

  constructor(levels: LogLevel[], destination: pino.DestinationStream = pino.destination({ dest: 1, sync: true })) {
    this.enabled = new Set(levels);
    this.pino = pino(
      {
        level: 'trace', // Nest's levels decide (setLogLevels)
        base: { pid: process.pid },
        messageKey: 'msg',
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
      },
      destination,
    );
  }

  setLogLevels(levels: LogLevel[]): void {
    this.enabled.clear();
    for (const level of levels) this.enabled.add(level);
  }

  log(message: unknown, ...rest: unknown[]): void {
    this.write('log', message, rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('verbose', message, rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  /** Whether request lines (the `log` level) are written at all. */
  get logsRequests(): boolean {
    return this.enabled.has('log');
  }

  /** One line about `req` with extra fields (the access log: method, status, duration). */
  request(req: ApiRequest, context: string, msg: string, fields: Record<string, unknown>): void {
    if (this.enabled.has('log')) this.pino.info({ context, ...where(req), ...fields }, msg);
  }

  private write(level: LogLevel, message: unknown, rest: unknown[]): void {
    if (!this.enabled.has(level)) return;
    // Nest's convention: the last string argument is the context; an error's second is its stack.
    const params = [...rest];
    const context =
      params.length && typeof params[params.length - 1] === 'string' ? (params.pop() as string) : undefined;
    const fields: Record<string, unknown> = { ...(context ? { context } : {}), ...where() };
    if (level === 'error' || level === 'fatal') {
      const stack = params.find((p) => typeof p === 'string');
      if (stack) fields.stack = stack;
    }
    if (message instanceof Error) {
      fields.error = { type: message.name, message: message.message, stack: message.stack };
      this.pino[PINO_LEVEL[level]](fields, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.pino[PINO_LEVEL[level]]({ ...fields, data: message });
    } else {
      this.pino[PINO_LEVEL[level]](fields, String(message));
    }
  }
}
