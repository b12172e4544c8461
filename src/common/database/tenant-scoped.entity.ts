import { PrimaryColumn } from 'typeorm';

/** Every tenant-owned table: `(tenant_id, id)` primary key, tenant first (Citus-ready, RLS-guarded). */
export abstract class TenantScopedEntity {
  @PrimaryColumn('uuid') tenantId: string;
  @PrimaryColumn('uuid') id: string;
}
