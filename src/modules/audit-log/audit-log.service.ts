import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { AuditEntryEntity } from '../../platform/audit/audit-entry.entity';
import { AUDIT_LIST } from './audit-log.list';

@Injectable()
export class AuditLogService {
  list(query: ListQuery): Promise<Page<AuditEntryEntity>> {
    const { manager, tenantId } = TenantContext.current();
    const qb = manager
      .getRepository(AuditEntryEntity)
      .createQueryBuilder('a')
      .where('a.tenant_id = :tenantId', { tenantId });
    return fetchPage(qb, query, AUDIT_LIST);
  }
}
