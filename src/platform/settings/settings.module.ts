import { Global, Module } from '@nestjs/common';
import { CorsPolicy } from './cors-policy.service';
import { SettingsController } from './settings.controller';
import { SettingsRepository } from './settings.repository';

@Global()
@Module({ controllers: [SettingsController], providers: [CorsPolicy, SettingsRepository], exports: [CorsPolicy] })
export class SettingsModule {}
