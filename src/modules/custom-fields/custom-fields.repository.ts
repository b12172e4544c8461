import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { RowLock, withLock } from '../../database/row-lock';
import { CustomFieldEntity } from './custom-field.entity';
import { CUSTOM_FIELD_LIST } from './custom-fields.list';

/** The module's only TypeORM surface. Every query names the tenant (RLS enforces it too). */
@Injectable()
export class CustomFieldsRepository {
  private scope() {
    const { manager, tenantId } = TenantContext.current();
    return { repo: manager.getRepository(CustomFieldEntity), manager, tenantId };
  }

  /** False when the church already has a field with that key (the unique index decides, also between two concurrent creates). */
  async insert(field: CustomFieldEntity): Promise<boolean> {
    const { manager, tenantId } = this.scope();
    const rows: unknown[] = await manager.query(
      `INSERT INTO custom_field_definitions (tenant_id, id, key, label, type, options, required, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) ON CONFLICT (tenant_id, key) DO NOTHING RETURNING id`,
      [tenantId, field.id, field.key, field.label, field.type, field.options, field.required, field.createdAt],
    );
    return rows.length === 1;
  }

  /** With `lock`, the row stays locked until the transaction ends (see RowLock). */
  findById(id: string, lock?: RowLock): Promise<CustomFieldEntity | null> {
    const { repo, tenantId } = this.scope();
    return repo.findOne({ where: { tenantId, id }, ...withLock(lock) });
  }

  /**
   * Every definition of the church (a few dozen at most), in key order. With `lock`
   * (`for_key_share`), a definition being deleted meanwhile is waited for, then not found.
   */
  findAll(lock?: RowLock): Promise<CustomFieldEntity[]> {
    const { repo, tenantId } = this.scope();
    return repo.find({ where: { tenantId }, order: { key: 'ASC' }, ...withLock(lock) });
  }

  async update(id: string, changes: Partial<CustomFieldEntity>): Promise<void> {
    const { repo, tenantId } = this.scope();
    await repo.update({ tenantId, id }, changes);
  }

  async delete(id: string): Promise<void> {
    const { repo, tenantId } = this.scope();
    await repo.delete({ tenantId, id });
  }

  list(query: ListQuery): Promise<Page<CustomFieldEntity>> {
    const { repo, tenantId } = this.scope();
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
    const { manager, tenantId } = this.scope();
    await manager.query(
      `WITH holding AS (
         SELECT id FROM members WHERE tenant_id = $1 AND custom_fields ? $2 ORDER BY id FOR NO KEY UPDATE
       )
       UPDATE members SET custom_fields = custom_fields - $2::text, updated_at = $3 WHERE tenant_id = $1 AND id IN (SELECT id FROM holding)`,
      [tenantId, key, updatedAt],
    );
  }
}
