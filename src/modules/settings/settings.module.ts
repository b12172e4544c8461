import { Module } from '@nestjs/common';
import { CorsSettingsService } from './cors-settings.service';
import { SettingsController } from './settings.controller';

/** The church's API settings (`/v1/settings/cors`); the policy that enforces them is platform/cors. */
@Module({ controllers: [SettingsController], providers: [CorsSettingsService], exports: [CorsSettingsService] })
export class SettingsModule {}
