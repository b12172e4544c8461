import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { RowLock, withLock } from '../../database/row-lock';
import { BatchEntity } from './batch.entity';
import { BATCH_LIST } from './batches.list';

/** The module's only TypeORM surface; every query names the tenant (RLS enforces it too). */
@Injectable()
export class BatchesRepository {
  private scope() {
    const { manager, tenantId } = TenantContext.current();
    return { repo: manager.getRepository(BatchEntity), tenantId };
  }

  async insert(batch: BatchEntity): Promise<void> {
    await this.scope().repo.insert(batch);
  }

  /** With `lock`, the row stays locked until the transaction ends (see RowLock). */
  findById(id: string, lock?: RowLock): Promise<BatchEntity | null> {
    const { repo, tenantId } = this.scope();
    return repo.findOne({ where: { tenantId, id }, ...withLock(lock) });
  }

  async update(id: string, changes: Partial<BatchEntity>): Promise<void> {
    const { repo, tenantId } = this.scope();
    await repo.update({ tenantId, id }, changes);
  }

  list(query: ListQuery): Promise<Page<BatchEntity>> {
    const { repo, tenantId } = this.scope();
    return fetchPage(repo.createQueryBuilder('b').where('b.tenant_id = :tenantId', { tenantId }), query, BATCH_LIST);
  }
}
