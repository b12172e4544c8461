import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigError, loadConfig } from './config/app-config';
import { logFormat } from './common/logging/log-format';
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
  // With JSON logs every line of the process is JSON; the console line is for a developer's terminal.
  if (logFormat(config) === 'json') Logger.log(started, 'Main');
  else console.error(started);
}

bootstrap().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
