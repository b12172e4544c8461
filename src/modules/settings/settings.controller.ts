import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { TenantContext } from '../../common/context/tenant-context';
import { Auth } from '../../platform/auth/auth.decorator';
import { CorsPolicy } from '../../platform/cors/cors-policy.service';
import { CorsSettingsDto } from './dto/cors-settings.dto';
import { CorsSettingsRepository } from '../../platform/cors/cors-settings.repository';

@ApiTags('Settings')
@Controller('v1/settings')
export class SettingsController {
  constructor(
    private readonly cors: CorsPolicy,
    private readonly settings: CorsSettingsRepository,
  ) {}

  @Get('cors')
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({ summary: 'Browser origins allowed to call the API (CORS)' })
  @ApiOkResponse({ type: CorsSettingsDto })
  async getCors(): Promise<CorsSettingsDto> {
    return { allowed_origins: await this.settings.corsOrigins() };
  }

  @Put('cors')
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'Replace the CORS allowlist',
    description: 'Unknown origins are refused (403 `origin_not_allowed`); an empty list refuses every browser.',
  })
  @ApiOkResponse({ type: CorsSettingsDto })
  async putCors(@Body() dto: CorsSettingsDto): Promise<CorsSettingsDto> {
    const origins = [...new Set(dto.allowed_origins)];
    await this.settings.setCorsOrigins(origins);
    this.cors.forgetAfterCommit(TenantContext.current().tenantId);
    return { allowed_origins: origins };
  }
}
