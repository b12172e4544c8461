import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { tenantScope } from '../../database/tenant-scope';
import { CampusEntity } from './campus.entity';
import { CAMPUS_LIST } from './campuses.list';

/** The module's only TypeORM surface; every query is scoped by tenant (besides RLS). */
@Injectable()
export class CampusesRepository {
  async insert(campus: CampusEntity): Promise<void> {
    await tenantScope(CampusEntity).repo.insert(campus);
  }

  async findById(id: string): Promise<CampusEntity | null> {
    const { repo, tenantId } = tenantScope(CampusEntity);
    return repo.findOneBy({ tenantId, id });
  }

  async findByKey(key: string): Promise<CampusEntity | null> {
    const { repo, tenantId } = tenantScope(CampusEntity);
    return repo.findOneBy({ tenantId, key });
  }

  async findAllForChurch(): Promise<CampusEntity[]> {
    const { repo, tenantId } = tenantScope(CampusEntity);
    return repo.findBy({ tenantId });
  }

  async findManyByIds(ids: string[]): Promise<CampusEntity[]> {
    if (ids.length === 0) return [];
    const { repo, tenantId } = tenantScope(CampusEntity);
    return repo.findBy({ tenantId, id: In(ids) });
  }

  /** Plain SQL: a gift or a member naming its campus by key reads it on every write. */
  async findManyByKeys(keys: string[]): Promise<CampusEntity[]> {
    if (keys.length === 0) return [];
    const { manager, tenantId } = tenantScope();
    const rows: CampusEntity[] = await manager.query(
      'SELECT tenant_id AS "tenantId", id, key, name, timezone, created_at AS "createdAt", updated_at AS "updatedAt" FROM campuses WHERE tenant_id = $1 AND key = ANY($2::text[])',
      [tenantId, keys],
    );
    return rows.map((row) => Object.assign(new CampusEntity(), row));
  }

  async update(campus: CampusEntity, changes: Partial<CampusEntity>): Promise<void> {
    const { repo, tenantId } = tenantScope(CampusEntity);
    await repo.update({ tenantId, id: campus.id }, changes);
  }

  list(query: ListQuery): Promise<Page<CampusEntity>> {
    const { repo, tenantId } = tenantScope(CampusEntity);
    return fetchPage(repo.createQueryBuilder('c').where('c.tenant_id = :tenantId', { tenantId }), query, CAMPUS_LIST);
  }
}
