import { LoggerService, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { AppModule } from './app.module';
import { ProblemFilter } from './common/errors/problem.filter';
import { conditionalGet } from './common/http/conditional-get';
import {
  expressErrorHandler,
  jsonBody,
  jsonBodyKeepingRaw,
  requestIdentity,
  requireJsonBody,
} from './common/http/http-pipeline';
import { checkJsonBody } from './common/http/json-body-check';
import { enterRequestContext } from './common/context/request-context';
import { accessLog } from './common/logging/access-log';
import { JsonLogger } from './common/logging/json-logger';
import { processLogger } from './common/logging/log-format';
import { AppValidationPipe } from './common/validation/app-validation.pipe';
import { PAYMENT_WEBHOOKS_PATH } from './modules/payments/payment-webhooks.path';
import type { AppConfig } from './config/app-config';
import { recordUsage } from './platform/rate-limit/record-usage';
import { UsageMeter } from './platform/rate-limit/usage-meter';
import { corsPreflight } from './platform/cors/cors';
import { CorsPolicy } from './platform/cors/cors-policy.service';
import { oauthFormBody } from './modules/oauth/oauth-form-body';
import { consoleFormBody } from './modules/console/console-form-body';
import { configureViews } from './platform/views/views';
import { httpMetrics } from './platform/metrics/http-metrics';
import { MetricsService } from './platform/metrics/metrics.service';
import { buildOpenApiDocument } from './platform/openapi/openapi.document';
import { OPENAPI_DOCUMENT, OpenApiDocumentHolder } from './platform/openapi/openapi.controller';

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

export function logLevels(level: AppConfig['LOG_LEVEL']): LogLevel[] {
  return LEVELS.slice(0, LEVELS.indexOf(level) + 1);
}

/** Creates the HTTP application with the whole pipeline; shared by main.ts, the tests and openapi:export. */
export async function createHttpApp(
  config: AppConfig,
  options: { logger?: LogLevel[] | LoggerService | false } = {},
): Promise<NestExpressApplication> {
  const logger = options.logger ?? processLogger(config, logLevels(config.LOG_LEVEL));
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    logger,
  });
  configureHttpApp(app, logger instanceof JsonLogger ? logger : undefined);
  app.set(
    'trust proxy',
    config.TRUST_PROXY === 'true' ? true : config.TRUST_PROXY === 'false' ? false : Number(config.TRUST_PROXY),
  );
  return app;
}

/** `jsonLogger`: with LOG_FORMAT=json, one access-log line per request. */
export function configureHttpApp(app: NestExpressApplication, jsonLogger?: JsonLogger): void {
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  const metrics = app.get(MetricsService);
  if (metrics.enabled) app.use(httpMetrics(metrics.httpDuration));
  app.use(requestIdentity);
  if (jsonLogger) app.use(accessLog(jsonLogger));
  app.use(corsPreflight(app.get(CorsPolicy)));
  app.use(recordUsage(app.get(UsageMeter)));
  app.use(oauthFormBody); // OAuth form routes (token, revocation, pages): read here, skipped by the JSON parsers
  app.use(consoleFormBody); // the console's forms, likewise
  app.use(requireJsonBody);
  app.use(PAYMENT_WEBHOOKS_PATH, jsonBodyKeepingRaw);
  app.use(jsonBody);
  app.use(checkJsonBody);
  app.use(enterRequestContext); // after the body parsers (see request-context.ts)
  app.use(expressErrorHandler);
  app.use(conditionalGet);
  app.useGlobalPipes(new AppValidationPipe());
  app.useGlobalFilters(new ProblemFilter());
  configureViews(app); // the OAuth sign-in and consent pages and the console (hbs)
  app.enableShutdownHooks();

  const holder = app.get<OpenApiDocumentHolder>(OPENAPI_DOCUMENT);
  holder.document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, holder.document, {
    customSiteTitle: 'Church API',
    jsonDocumentUrl: 'docs/openapi.json',
    swaggerOptions: { persistAuthorization: true },
  });
}
