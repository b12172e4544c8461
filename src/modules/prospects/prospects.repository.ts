import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { TenantContext } from '../../common/context/tenant-context';
import { fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { RowLock, withLock } from '../../database/row-lock';
import { ProspectEntity } from './prospect.entity';
import { PROSPECT_LIST } from './prospects.list';

/** The module's only TypeORM surface. Every query names the tenant (RLS enforces it too) and skips soft-deleted rows. */
@Injectable()
export class ProspectsRepository {
  private scope() {
    const { manager, tenantId } = TenantContext.current();
    return { repo: manager.getRepository(ProspectEntity), tenantId };
  }

  async insert(prospect: ProspectEntity): Promise<void> {
    await this.scope().repo.insert(prospect);
  }

  /** With `lock`, the row stays locked until the transaction ends (see RowLock). */
  async findLive(id: string, lock?: RowLock): Promise<ProspectEntity | null> {
    const { repo, tenantId } = this.scope();
    return repo.findOne({ where: { tenantId, id, deletedAt: IsNull() }, ...withLock(lock) });
  }

  /** Updates a live prospect; false when it does not exist (or was deleted meanwhile). */
  async update(id: string, changes: Partial<ProspectEntity>): Promise<boolean> {
    const { repo, tenantId } = this.scope();
    const result = await repo.update({ tenantId, id, deletedAt: IsNull() }, changes);
    return (result.affected ?? 0) > 0;
  }

  list(query: ListQuery): Promise<Page<ProspectEntity>> {
    const { repo, tenantId } = this.scope();
    const qb = repo.createQueryBuilder('p').where('p.tenant_id = :tenantId AND p.deleted_at IS NULL', { tenantId });
    return fetchPage(qb, query, PROSPECT_LIST);
  }
}
