import { Module } from '@nestjs/common';
import { ApiTokensModule } from '../api-tokens/api-tokens.module';
import { OAuthModule } from '../oauth/oauth.module';
import { SettingsModule } from '../settings/settings.module';
import { AuditLogModule } from '../audit-log/audit-log.module';
import { CampusesModule } from '../campuses/campuses.module';
import { DevicesModule } from '../devices/devices.module';
import { WebhookEndpointsModule } from '../webhook-endpoints/webhook-endpoints.module';
import { ConsoleAccountController } from './console-account.controller';
import { ConsoleActions } from './console-actions';
import { ConsoleChurchController } from './console-church.controller';
import { ConsoleClock } from './console-clock';
import { ConsoleDevicesController } from './console-devices.controller';
import { ConsoleGate } from './console-gate';
import { ConsolePages } from './console-pages.renderer';
import { ConsoleQuota } from './console-quota';
import { ConsoleSessionsRepository } from './console-sessions.repository';
import { ConsoleSessionsService } from './console-sessions.service';
import { ConsoleSignInController } from './console-sign-in.controller';
import { ConsoleTokenPages } from './console-token-pages';
import { ConsoleNotFoundController } from './console-not-found.controller';
import { ConsoleOverviewController } from './console-overview.controller';
import { ConsoleWebhooksController } from './console-webhooks.controller';

/**
 * The settings console at `/console` (CONTRACT §20): server-rendered pages for the church's staff,
 * signed in with e-mail and password, whose every action goes through the service of its API route.
 */
@Module({
  imports: [
    ApiTokensModule,
    OAuthModule,
    SettingsModule,
    WebhookEndpointsModule,
    DevicesModule,
    CampusesModule,
    AuditLogModule,
  ],
  controllers: [
    ConsoleSignInController,
    ConsoleAccountController,
    ConsoleChurchController,
    ConsoleWebhooksController,
    ConsoleDevicesController,
    ConsoleOverviewController,
    // Last: the 404 page of any other /console path.
    ConsoleNotFoundController,
  ],
  providers: [
    ConsoleClock,
    ConsoleSessionsRepository,
    ConsoleSessionsService,
    ConsoleGate,
    ConsolePages,
    ConsoleActions,
    ConsoleTokenPages,
    ConsoleQuota,
  ],
})
export class ConsoleModule {}
