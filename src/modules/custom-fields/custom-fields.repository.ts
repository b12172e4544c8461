import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { RowLock, withLock } from '../../database/row-lock';
import { tenantScope } from '../../database/tenant-scope';
import { CustomFieldEntity } from './custom-field.entity';
import { CUSTOM_FIELD_LIST } from './custom-fields.list';

/** The module's only TypeORM surface. Every query names the tenant (RLS enforces it too). */
@Injectable()
export class CustomFieldsRepository {
  /** False when the church already has a field with that key (the unique index decides, also between two concurrent creates). */
  async insert(field: CustomFieldEntity): Promise<boolean> {
    const { manager, tenantId } = tenantScope();
    const rows: unknown[] = await manager.query(
      `INSERT INTO custom_field_definitions (tenant_id, id, key, label, type, options, required, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) ON CONFLICT (tenant_id, key) DO NOTHING RETURNING id`,
      [tenantId, field.id, field.key, field.label, field.type, field.options, field.required, field.createdAt],
    );
    return rows.length === 1;
  }

  /** With `lock`, the row stays locked until the transaction ends (see RowLock). */
  findById(id: string, lock?: RowLock): Promise<CustomFieldEntity | null> {
    const { repo, tenantId } = tenantScope(CustomFieldEntity);
    return repo.findOne({ where: { tenantId, id }, ...withLock(lock) });
  }

  /** The definitions among `ids`, in one query. */
  async findManyByIds(ids: string[]): Promise<CustomFieldEntity[]> {
    if (ids.length === 0) return [];
    const { repo, tenantId } = tenantScope(CustomFieldEntity);
    return repo.find({ where: { tenantId, id: In(ids) } });
  }

  /**
   * Every definition of the church (a few dozen at most), in key order. With `lock`
   * (`for_key_share`), a definition being deleted meanwhile is waited for, then not found.
   */
  findAll(lock?: RowLock): Promise<CustomFieldEntity[]> {
    const { repo, tenantId } = tenantScope(CustomFieldEntity);
    return repo.find({ where: { tenantId }, order: { key: 'ASC' }, ...withLock(lock) });
  }

  async update(id: string, changes: Partial<CustomFieldEntity>): Promise<void> {
    const { repo, tenantId } = tenantScope(CustomFieldEntity);
    await repo.update({ tenantId, id }, changes);
  }

  async delete(id: string): Promise<void> {
    const { repo, tenantId } = tenantScope(CustomFieldEntity);
    await repo.delete({ tenantId, id });
  }

  list(query: ListQuery): Promise<Page<CustomFieldEntity>> {
    const { repo, tenantId } = tenantScope(CustomFieldEntity);
    return fetchPage(
      repo.createQueryBuilder('f').where('f.tenant_id = :tenantId', { tenantId }),
      query,
      CUSTOM_FIELD_LIST,
    );
  }

  /**
   * Takes `key` out of every member's custom_fields in one statement (no event per member);
   * they count as changed (updated_at). The members are locked in id order first, as every
   * statement that locks several members does, so that two such statements never wait for each
   * other in a cycle. (members belongs to the members module.)
   */
  async removeKeyFromMembers(key: string, updatedAt: Date): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query(
      `WITH holding AS (
         SELECT id FROM members WHERE tenant_id = $1 AND custom_fields ? $2 ORDER BY id FOR NO KEY UPDATE
       )
       UPDATE members SET custom_fields = custom_fields - $2::text, updated_at = $3 WHERE tenant_id = $1 AND id IN (SELECT id FROM holding)`,
      [tenantId, key, updatedAt],
    );
  }
}
