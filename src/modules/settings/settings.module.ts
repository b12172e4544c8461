import { Module } from '@nestjs/common';
import { SettingsController } from './settings.controller';

/** The church's API settings (`/v1/settings/cors`); the policy that enforces them is platform/cors. */
@Module({ controllers: [SettingsController] })
export class SettingsModule {}
