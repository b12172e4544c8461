import { Injectable } from '@nestjs/common';
import { tenantScope } from '../../database/tenant-scope';

/** The church's settings row (tenant_settings), in the current tenant transaction. */
@Injectable()
export class CorsSettingsRepository {
  async corsOrigins(): Promise<string[]> {
    const { manager, tenantId } = tenantScope();
    const rows: { cors_allowed_origins: string[] }[] = await manager.query(
      'SELECT cors_allowed_origins FROM tenant_settings WHERE tenant_id = $1',
      [tenantId],
    );
    return rows[0]?.cors_allowed_origins ?? [];
  }

  async setCorsOrigins(origins: string[]): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query(
      `INSERT INTO tenant_settings (tenant_id, cors_allowed_origins, updated_at) VALUES ($1, $2, now())
       ON CONFLICT (tenant_id) DO UPDATE SET cors_allowed_origins = excluded.cors_allowed_origins, updated_at = now()`,
      [tenantId, origins],
    );
  }
}
