import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from './migrations';
import { SnakeNamingStrategy } from './naming-strategy';
import { QueryLogger } from './query-logger';

/**
 * Every `*.entity` file of the app, found by TypeORM at start-up: the database layer names no
 * module above it. `.js` from dist/ (node, the TypeORM CLI), `.ts` from src/ (jest).
 */
export const ENTITY_FILES = [join(__dirname, '..', '**', '*.entity.{js,ts}')];

/** Limits on the app's sessions (milliseconds; 0 is none): see DB_STATEMENT_TIMEOUT_MS in the README. */
export interface SessionTimeouts {
  statementMs: number;
  idleInTransactionMs: number;
}

/**
 * The single description of the database connection, shared by the app, the CLI and the TypeORM
 * CLI. Without `timeouts` (migrations, scripts) statements may run as long as they need.
 */
export function dataSourceOptions(url: string, poolSize: number, timeouts?: SessionTimeouts): DataSourceOptions {
  const settings = ['-c TimeZone=UTC'];
  if (timeouts)
    settings.push(
      `-c statement_timeout=${timeouts.statementMs}`,
      `-c idle_in_transaction_session_timeout=${timeouts.idleInTransactionMs}`,
    );
  return {
    type: 'postgres',
    url,
    entities: ENTITY_FILES,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    migrationsRun: false,
    namingStrategy: new SnakeNamingStrategy(),
    // Sessions in UTC: date arithmetic in SQL never depends on the server's time zone. A server that
    // does not answer a connect within 10 s is a 503 (connection loss), not a request left hanging;
    // with `timeouts`, neither a runaway statement nor a transaction left idle keeps a connection.
    extra: {
      max: poolSize,
      application_name: 'church-api',
      options: settings.join(' '),
      connectionTimeoutMillis: 10_000,
    },
    logging: ['error', 'warn'],
    logger: new QueryLogger(),
  };
}
