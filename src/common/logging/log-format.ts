import type { LoggerService, LogLevel } from '@nestjs/common';
import { JsonLogger } from './json-logger';

/** LOG_FORMAT, defaulting to json in production and pretty elsewhere. */
export function logFormat(config: { LOG_FORMAT?: 'json' | 'pretty'; NODE_ENV: string }): 'json' | 'pretty' {
  return config.LOG_FORMAT ?? (config.NODE_ENV === 'production' ? 'json' : 'pretty');
}

/** The logger Nest is given: JSON lines, or Nest's console logger at these levels. */
export function processLogger(
  config: { LOG_FORMAT?: 'json' | 'pretty'; NODE_ENV: string },
  levels: LogLevel[],
): LoggerService | LogLevel[] {
  return logFormat(config) === 'json' ? new JsonLogger(levels) : levels;
}

/**
 * The line a process writes once it is up (what scripts wait for): on stderr as it always was, or
 * as a JSON line on stdout with LOG_FORMAT=json, whatever LOG_LEVEL says.
 */
export function announce(config: { LOG_FORMAT?: 'json' | 'pretty'; NODE_ENV: string }, msg: string): void {
  if (logFormat(config) === 'pretty') console.error(msg);
  else
    process.stdout.write(
      `${JSON.stringify({ level: 'info', time: new Date().toISOString(), pid: process.pid, context: 'Main', msg })}\n`,
    );
}
