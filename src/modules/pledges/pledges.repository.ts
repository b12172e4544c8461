import { Injectable } from '@nestjs/common';
import { In, IsNull } from 'typeorm';
import { fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { RowLock, withLock } from '../../database/row-lock';
import { tenantScope } from '../../database/tenant-scope';
import { netGivenSql } from '../donations/donation.entity';
import { PledgeEntity } from './pledge.entity';
import { PLEDGE_LIST } from './pledges.list';

/**
 * The net given amount of each pledge of `ids`: its donor's donations to its fund, in its currency,
 * received from starts_on 00:00 UTC up to the end of ends_on (UTC), each counted with the donations
 * module's net expression. One statement for a whole page; each pledge reads the donor's donations
 * of the window through the (tenant_id, donor_id, received_at, id) index.
 */
const GIVEN_SQL = `
  SELECT p.id, g.given::text AS given
  FROM pledges p
  CROSS JOIN LATERAL (
    SELECT COALESCE(SUM(${netGivenSql('d')}), 0) AS given
    FROM donations d
    WHERE d.tenant_id = p.tenant_id
      AND d.donor_id = p.donor_id
      AND d.donor_id IS NOT NULL
      AND d.received_at >= (p.starts_on::timestamp AT TIME ZONE 'UTC')
      AND d.received_at < ((p.ends_on + 1)::timestamp AT TIME ZONE 'UTC')
      AND d.fund_id = p.fund_id
      AND d.currency = p.currency
  ) g
  WHERE p.tenant_id = $1 AND p.id = ANY($2::uuid[])`;

/** The module's only TypeORM surface. Every query names the tenant (RLS enforces it too) and skips soft-deleted rows. */
@Injectable()
export class PledgesRepository {
  async insert(pledge: PledgeEntity): Promise<void> {
    await tenantScope(PledgeEntity).repo.insert(pledge);
  }

  /** With `lock`, the row stays locked until the transaction ends (see RowLock). */
  async findLive(id: string, lock?: RowLock): Promise<PledgeEntity | null> {
    const { repo, tenantId } = tenantScope(PledgeEntity);
    return repo.findOne({ where: { tenantId, id, deletedAt: IsNull() }, ...withLock(lock) });
  }

  /** The live pledges among `ids`, in one query. */
  async findLiveMany(ids: string[]): Promise<PledgeEntity[]> {
    if (ids.length === 0) return [];
    const { repo, tenantId } = tenantScope(PledgeEntity);
    return repo.find({ where: { tenantId, id: In(ids), deletedAt: IsNull() } });
  }

  /** Updates a live pledge; false when it does not exist (or was deleted meanwhile). */
  async update(id: string, changes: Partial<PledgeEntity>): Promise<boolean> {
    const { repo, tenantId } = tenantScope(PledgeEntity);
    const result = await repo.update({ tenantId, id, deletedAt: IsNull() }, changes);
    return (result.affected ?? 0) > 0;
  }

  list(query: ListQuery): Promise<Page<PledgeEntity>> {
    const { repo, tenantId } = tenantScope(PledgeEntity);
    const qb = repo.createQueryBuilder('p').where('p.tenant_id = :tenantId AND p.deleted_at IS NULL', { tenantId });
    return fetchPage(qb, query, PLEDGE_LIST);
  }

  /** Pledge id -> net given (minor units), for these pledges, in one query. */
  async givenOf(ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const { manager, tenantId } = tenantScope();
    const rows: { id: string; given: string }[] = await manager.query(GIVEN_SQL, [tenantId, ids]);
    return new Map(rows.map((r) => [r.id, Number(r.given)]));
  }
}
