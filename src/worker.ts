import './tracing-worker'; // first: see tracing-worker.ts
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from './config/app-config';
import { announce, processLogger } from './common/logging/log-format';
import { Database } from './database/database.service';
import { logLevels } from './http-app';
import { startBackground } from './background';
import { WorkerModule } from './worker.module';

/**
 * The queue worker process (`npm run start:worker`): no HTTP, the same modules as the API.
 * Processors start once the database is connected; on SIGTERM/SIGINT the shutdown hooks close
 * them first (a running job finishes), then the database.
 */
async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), {
    logger: processLogger(config, logLevels(config.LOG_LEVEL)),
  });
  app.enableShutdownHooks();
  await app.get(Database).connect();
  startBackground(app, 'worker');
  const started = 'church-api worker started';
  announce(config, started);
}

bootstrap().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
