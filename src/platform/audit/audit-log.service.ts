import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { newUuid } from '../../common/ids/id';
import { fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { AuditEntryEntity } from './audit-entry.entity';
import { AUDIT_LIST } from './audit-log.list';

export interface AuditRecord {
  action: string;
  resourceType: string | null;
  resourceId: string | null;
  status: number;
  ip: string | null;
}

@Injectable()
export class AuditLog {
  private get repo() {
    return TenantContext.current().manager.getRepository(AuditEntryEntity);
  }

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

  list(query: ListQuery): Promise<Page<AuditEntryEntity>> {
    const qb = this.repo
      .createQueryBuilder('a')
      .where('a.tenant_id = :tenantId', { tenantId: TenantContext.current().tenantId });
    return fetchPage(qb, query, AUDIT_LIST);
  }
}
