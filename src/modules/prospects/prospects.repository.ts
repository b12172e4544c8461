import { Injectable } from '@nestjs/common';
import { In, IsNull } from 'typeorm';
import { fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { RowLock, withLock } from '../../database/row-lock';
import { tenantScope } from '../../database/tenant-scope';
import { ProspectEntity } from './prospect.entity';
import { PROSPECT_LIST } from './prospects.list';

/** The module's only TypeORM surface. Every query names the tenant (RLS enforces it too) and skips soft-deleted rows. */
@Injectable()
export class ProspectsRepository {
  async insert(prospect: ProspectEntity): Promise<void> {
    await tenantScope(ProspectEntity).repo.insert(prospect);
  }

  /** With `lock`, the row stays locked until the transaction ends (see RowLock). */
  async findLive(id: string, lock?: RowLock): Promise<ProspectEntity | null> {
    const { repo, tenantId } = tenantScope(ProspectEntity);
    return repo.findOne({ where: { tenantId, id, deletedAt: IsNull() }, ...withLock(lock) });
  }

  /** The live prospects among `ids`, in one query. */
  async findLiveMany(ids: string[]): Promise<ProspectEntity[]> {
    if (ids.length === 0) return [];
    const { repo, tenantId } = tenantScope(ProspectEntity);
    return repo.find({ where: { tenantId, id: In(ids), deletedAt: IsNull() } });
  }

  /** Updates a live prospect; false when it does not exist (or was deleted meanwhile). */
  async update(id: string, changes: Partial<ProspectEntity>): Promise<boolean> {
    const { repo, tenantId } = tenantScope(ProspectEntity);
    const result = await repo.update({ tenantId, id, deletedAt: IsNull() }, changes);
    return (result.affected ?? 0) > 0;
  }

  list(query: ListQuery): Promise<Page<ProspectEntity>> {
    const { repo, tenantId } = tenantScope(ProspectEntity);
    const qb = repo.createQueryBuilder('p').where('p.tenant_id = :tenantId AND p.deleted_at IS NULL', { tenantId });
    return fetchPage(qb, query, PROSPECT_LIST);
  }
}
