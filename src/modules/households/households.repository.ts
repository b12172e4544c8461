import { Injectable } from '@nestjs/common';
import { In, IsNull } from 'typeorm';
import { fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { RowLock, withLock } from '../../database/row-lock';
import { tenantScope } from '../../database/tenant-scope';
import { HouseholdEntity } from './household.entity';
import { HOUSEHOLD_LIST } from './households.list';

/** The module's only TypeORM surface. Every query names the tenant (RLS enforces it too) and skips soft-deleted rows. */
@Injectable()
export class HouseholdsRepository {
  async insert(household: HouseholdEntity): Promise<void> {
    await tenantScope(HouseholdEntity).repo.insert(household);
  }

  /** With `lock`, the row stays locked until the transaction ends (see RowLock). */
  findLive(id: string, lock?: RowLock): Promise<HouseholdEntity | null> {
    const { repo, tenantId } = tenantScope(HouseholdEntity);
    return repo.findOne({ where: { tenantId, id, deletedAt: IsNull() }, ...withLock(lock) });
  }

  /** The live households among `ids`, in one query. */
  async findLiveMany(ids: string[]): Promise<HouseholdEntity[]> {
    if (ids.length === 0) return [];
    const { repo, tenantId } = tenantScope(HouseholdEntity);
    return repo.find({ where: { tenantId, id: In(ids), deletedAt: IsNull() } });
  }

  async update(id: string, changes: Partial<HouseholdEntity>): Promise<void> {
    const { repo, tenantId } = tenantScope(HouseholdEntity);
    await repo.update({ tenantId, id, deletedAt: IsNull() }, changes);
  }

  list(query: ListQuery): Promise<Page<HouseholdEntity>> {
    const { repo, tenantId } = tenantScope(HouseholdEntity);
    return fetchPage(
      repo.createQueryBuilder('h').where('h.tenant_id = :tenantId AND h.deleted_at IS NULL', { tenantId }),
      query,
      HOUSEHOLD_LIST,
    );
  }
}
