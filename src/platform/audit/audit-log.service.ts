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

  /** Writes one entry for the current actor, in the current transaction. */
  async record(entry: AuditRecord): Promise<void> {
    const { tenantId, actor, requestId } = TenantContext.current();
    await this.repo.insert({
      tenantId,
      id: newUuid(),
      tokenId: actor.tokenId ?? null,
      tokenName: actor.tokenName ?? null,
      userId: actor.userId ?? null,
      ...entry,
      requestId: requestId ?? null,
      createdAt: new Date(),
    });
  }

  list(query: ListQuery): Promise<Page<AuditEntryEntity>> {
    const qb = this.repo.createQueryBuilder('a').where('a.tenant_id = :tenantId', { tenantId: TenantContext.current().tenantId });
    return fetchPage(qb, query, AUDIT_LIST);
  }
}
