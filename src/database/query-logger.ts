import { Logger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';

/**
 * TypeORM's messages through Nest's logger, so LOG_LEVEL governs them. A failed query is logged
 * at debug level with its SQL but never its parameters (member data, token hashes, sealed
 * secrets): whoever handles the error reports it (a 500 is logged with its request id; a
 * background task logs its own failure), and a client's conflict is not a server error.
 */
export class QueryLogger implements TypeOrmLogger {
  private readonly logger = new Logger('Database');

  logQuery(): void {}

  logQueryError(error: string | Error, query: string, parameters?: unknown[] | object): void {
    const count = Array.isArray(parameters) ? parameters.length : parameters ? Object.keys(parameters).length : 0;
    this.logger.debug(
      `query failed: ${error instanceof Error ? error.message : error} — ${oneLine(query)}${count ? ` (${count} parameters, not logged)` : ''}`,
    );
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn(`slow query (${time} ms): ${oneLine(query)}`);
  }

  logSchemaBuild(message: string): void {
    this.logger.debug(message);
  }

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
    else this.logger.debug(String(message));
  }
}

const MAX_SQL = 500;

function oneLine(sql: string): string {
  const text = sql.replace(/\s+/g, ' ').trim();
  return text.length > MAX_SQL ? `${text.slice(0, MAX_SQL)}…` : text;
}
