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

/** The single description of the database connection, shared by the app, the CLI and the TypeORM CLI. */
export function dataSourceOptions(url: string, poolSize: number): DataSourceOptions {
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
    // does not answer a connect within 10 s is a 503 (connection loss), not a request left hanging.
    extra: {
      max: poolSize,
      application_name: 'church-api',
      options: '-c TimeZone=UTC',
      connectionTimeoutMillis: 10_000,
    },
    logging: ['error', 'warn'],
    logger: new QueryLogger(),
  };
}
