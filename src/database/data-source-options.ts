import type { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { SnakeNamingStrategy } from './naming-strategy';
import { QueryLogger } from './query-logger';

/** The single description of the database connection, shared by the app, the CLI and the TypeORM CLI. */
export function dataSourceOptions(url: string, poolSize: number): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    migrationsRun: false,
    namingStrategy: new SnakeNamingStrategy(),
    // Sessions in UTC: date arithmetic in SQL never depends on the server's time zone.
    extra: { max: poolSize, application_name: 'church-api', options: '-c TimeZone=UTC' },
    logging: ['error', 'warn'],
    logger: new QueryLogger(),
  };
}
