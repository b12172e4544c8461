import { Global, Module } from '@nestjs/common';
import { CorsPolicy } from './cors-policy.service';
import { CorsSettingsRepository } from './cors-settings.repository';

/** Which browser origins may call the API, per church (the allowlist and its cache). */
@Global()
@Module({ providers: [CorsPolicy, CorsSettingsRepository], exports: [CorsPolicy, CorsSettingsRepository] })
export class CorsModule {}
