import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { RowLock, withLock } from '../../database/row-lock';
import { tenantScope } from '../../database/tenant-scope';
import { BatchEntity } from './batch.entity';
import { BATCH_LIST } from './batches.list';

/** The module's only TypeORM surface; every query names the tenant (RLS enforces it too). */
@Injectable()
export class BatchesRepository {
  async insert(batch: BatchEntity): Promise<void> {
    await tenantScope(BatchEntity).repo.insert(batch);
  }

  /** With `lock`, the row stays locked until the transaction ends (see RowLock). */
  findById(id: string, lock?: RowLock): Promise<BatchEntity | null> {
    const { repo, tenantId } = tenantScope(BatchEntity);
    return repo.findOne({ where: { tenantId, id }, ...withLock(lock) });
  }

  /** The batches among `ids`, in one query. */
  async findManyByIds(ids: string[]): Promise<BatchEntity[]> {
    if (ids.length === 0) return [];
    const { repo, tenantId } = tenantScope(BatchEntity);
    return repo.find({ where: { tenantId, id: In(ids) } });
  }

  async update(id: string, changes: Partial<BatchEntity>): Promise<void> {
    const { repo, tenantId } = tenantScope(BatchEntity);
    await repo.update({ tenantId, id }, changes);
  }

  list(query: ListQuery): Promise<Page<BatchEntity>> {
    const { repo, tenantId } = tenantScope(BatchEntity);
    return fetchPage(repo.createQueryBuilder('b').where('b.tenant_id = :tenantId', { tenantId }), query, BATCH_LIST);
  }
}
