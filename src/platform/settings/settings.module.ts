import { Global, Module } from '@nestjs/common';
import { CorsPolicy } from './cors-policy.service';
import { SettingsController } from './settings.controller';

@Global()
@Module({ controllers: [SettingsController], providers: [CorsPolicy], exports: [CorsPolicy] })
export class SettingsModule {}
