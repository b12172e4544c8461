import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { newUuid } from '../../common/ids/id';

export interface AuditRecord {
  action: string;
  resourceType: string | null;
  resourceId: string | null;
  status: number;
  ip: string | null;
}

/** Writes the audit log; the API that reads it is modules/audit-log. */
@Injectable()
export class AuditRecorder {
  /** Writes one entry for the current actor, in the current transaction (plain SQL: it runs on every write request). */
  async record(entry: AuditRecord): Promise<void> {
    const { manager, tenantId, actor, requestId } = TenantContext.current();
    await manager.query(
      `INSERT INTO audit_log (tenant_id, id, token_id, token_name, user_id, action, resource_type, resource_id, status, request_id, ip, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        tenantId,
        newUuid(),
        actor.tokenId ?? null,
        actor.tokenName ?? null,
        actor.userId ?? null,
        entry.action,
        entry.resourceType,
        entry.resourceId,
        entry.status,
        requestId ?? null,
        entry.ip,
        new Date(),
      ],
    );
  }
}
