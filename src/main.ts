import './tracing-api'; // first: see tracing-api.ts
import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/app-config';
import { announce } from './common/logging/log-format';
import { Database } from './database/database.service';
import { startBackground } from './background';
import { createHttpApp } from './http-app';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const app = await createHttpApp(config);
  await app.get(Database).connect();
  startBackground(app, 'api');
  await app.listen(config.PORT);
  app.getHttpServer().keepAliveTimeout = 65_000;
  const started = `church-api listening on http://localhost:${config.PORT} (docs at /docs)`;
  announce(config, started);
}

bootstrap().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
