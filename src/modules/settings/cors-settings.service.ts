import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { CorsPolicy } from '../../platform/cors/cors-policy.service';
import { CorsSettingsRepository } from '../../platform/cors/cors-settings.repository';
import type { CorsSettingsDto } from './dto/cors-settings.dto';

/** The church's CORS allowlist as `/v1/settings/cors` and the console's API → CORS page read and replace it. */
@Injectable()
export class CorsSettingsService {
  constructor(
    private readonly cors: CorsPolicy,
    private readonly settings: CorsSettingsRepository,
  ) {}

  async get(): Promise<CorsSettingsDto> {
    return { allowed_origins: await this.settings.corsOrigins() };
  }

  /** Replaces the list (duplicates dropped); every process forgets the church's cached policy once committed. */
  async replace(dto: CorsSettingsDto): Promise<CorsSettingsDto> {
    const origins = [...new Set(dto.allowed_origins)];
    await this.settings.setCorsOrigins(origins);
    this.cors.forgetAfterCommit(TenantContext.current().tenantId);
    return { allowed_origins: origins };
  }
}
