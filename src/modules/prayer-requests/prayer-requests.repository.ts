import { Injectable } from '@nestjs/common';
import { In, IsNull } from 'typeorm';
import { fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { RowLock, withLock } from '../../database/row-lock';
import { tenantScope } from '../../database/tenant-scope';
import { PrayerRequestEntity } from './prayer-request.entity';
import { PRAYER_REQUEST_LIST } from './prayer-requests.list';

/** Who reads: private requests exist only for their author and for org_admins. */
export interface Viewer {
  userId: string | null;
  seesEveryRequest: boolean;
}

/** The module's only TypeORM surface. Every query names the tenant (RLS enforces it too), skips soft-deleted rows and applies the viewer's visibility. */
@Injectable()
export class PrayerRequestsRepository {
  async insert(row: PrayerRequestEntity): Promise<void> {
    await tenantScope(PrayerRequestEntity).repo.insert(row);
  }

  /** A live request the viewer may see; with `lock`, the row stays locked until the transaction ends (see RowLock). */
  async findVisible(id: string, viewer: Viewer, lock?: RowLock): Promise<PrayerRequestEntity | null> {
    const { repo, tenantId } = tenantScope(PrayerRequestEntity);
    const row = await repo.findOne({ where: { tenantId, id, deletedAt: IsNull() }, ...withLock(lock) });
    return row && isVisible(row, viewer) ? row : null;
  }

  /** The live requests among `ids`, in one query, visible or not (see isVisible). */
  async findLiveMany(ids: string[]): Promise<PrayerRequestEntity[]> {
    if (ids.length === 0) return [];
    const { repo, tenantId } = tenantScope(PrayerRequestEntity);
    return repo.find({ where: { tenantId, id: In(ids), deletedAt: IsNull() } });
  }

  async update(id: string, changes: Partial<PrayerRequestEntity>): Promise<void> {
    const { repo, tenantId } = tenantScope(PrayerRequestEntity);
    await repo.update({ tenantId, id, deletedAt: IsNull() }, changes);
  }

  /** The visibility rule is part of the WHERE clause, so pages, cursors and the total all follow it. */
  list(query: ListQuery, viewer: Viewer): Promise<Page<PrayerRequestEntity>> {
    const { repo, tenantId } = tenantScope(PrayerRequestEntity);
    const qb = repo.createQueryBuilder('p').where('p.tenant_id = :tenantId AND p.deleted_at IS NULL', { tenantId });
    if (!viewer.seesEveryRequest) {
      if (viewer.userId)
        qb.andWhere(`(p.visibility <> 'private' OR p.created_by = :viewerId)`, { viewerId: viewer.userId });
      else qb.andWhere(`p.visibility <> 'private'`);
    }
    return fetchPage(qb, query, PRAYER_REQUEST_LIST);
  }
}

export function isVisible(row: PrayerRequestEntity, viewer: Viewer): boolean {
  return (
    row.visibility !== 'private' ||
    viewer.seesEveryRequest ||
    (viewer.userId !== null && row.createdBy === viewer.userId)
  );
}
