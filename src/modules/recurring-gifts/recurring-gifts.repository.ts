import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { RowLock, withLock } from '../../database/row-lock';
import { tenantScope } from '../../database/tenant-scope';
import { RecurringGiftEntity } from './recurring-gift.entity';
import { RECURRING_GIFT_LIST } from './recurring-gifts.list';

/** The module's only TypeORM surface. Every query names the tenant (RLS enforces it too). Gifts are never deleted. */
@Injectable()
export class RecurringGiftsRepository {
  async insert(gift: RecurringGiftEntity): Promise<void> {
    await tenantScope(RecurringGiftEntity).repo.insert(gift);
  }

  /** With `lock`, the row stays locked until the transaction ends (see RowLock). */
  async find(id: string, lock?: RowLock): Promise<RecurringGiftEntity | null> {
    const { repo, tenantId } = tenantScope(RecurringGiftEntity);
    return repo.findOne({ where: { tenantId, id }, ...withLock(lock) });
  }

  /** The gifts among `ids`, in one query. */
  async findMany(ids: string[]): Promise<RecurringGiftEntity[]> {
    if (ids.length === 0) return [];
    const { repo, tenantId } = tenantScope(RecurringGiftEntity);
    return repo.find({ where: { tenantId, id: In(ids) } });
  }

  async update(id: string, changes: Partial<RecurringGiftEntity>): Promise<boolean> {
    const { repo, tenantId } = tenantScope(RecurringGiftEntity);
    const result = await repo.update({ tenantId, id }, changes);
    return (result.affected ?? 0) > 0;
  }

  list(query: ListQuery): Promise<Page<RecurringGiftEntity>> {
    const { repo, tenantId } = tenantScope(RecurringGiftEntity);
    const qb = repo.createQueryBuilder('g').where('g.tenant_id = :tenantId', { tenantId });
    return fetchPage(qb, query, RECURRING_GIFT_LIST);
  }
}
