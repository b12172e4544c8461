import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { TenantContext } from '../../common/context/tenant-context';
import { Auth } from '../auth/auth.decorator';
import { CorsPolicy } from './cors-policy.service';
import { CorsSettingsDto } from './dto/cors-settings.dto';

@ApiTags('Settings')
@Controller('v1/settings')
export class SettingsController {
  constructor(private readonly cors: CorsPolicy) {}

  @Get('cors')
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({ summary: 'Browser origins allowed to call the API (CORS)' })
  @ApiOkResponse({ type: CorsSettingsDto })
  async getCors(): Promise<CorsSettingsDto> {
    const { manager, tenantId } = TenantContext.current();
    const rows: { cors_allowed_origins: string[] }[] = await manager.query('SELECT cors_allowed_origins FROM tenant_settings WHERE tenant_id = $1', [tenantId]);
    return { allowed_origins: rows[0]?.cors_allowed_origins ?? [] };
  }

  @Put('cors')
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({ summary: 'Replace the CORS allowlist', description: 'Unknown origins are refused (403 `origin_not_allowed`); an empty list refuses every browser.' })
  @ApiOkResponse({ type: CorsSettingsDto })
  async putCors(@Body() dto: CorsSettingsDto): Promise<CorsSettingsDto> {
    const { manager, tenantId } = TenantContext.current();
    const origins = [...new Set(dto.allowed_origins)];
    await manager.query(
      `INSERT INTO tenant_settings (tenant_id, cors_allowed_origins, updated_at) VALUES ($1, $2, now())
       ON CONFLICT (tenant_id) DO UPDATE SET cors_allowed_origins = excluded.cors_allowed_origins, updated_at = now()`,
      [tenantId, origins],
    );
    this.cors.forget(tenantId);
    return { allowed_origins: origins };
  }
}
