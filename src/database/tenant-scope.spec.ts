import { Column, DataSource, Entity, In } from 'typeorm';
import { TenantContext } from '../common/context/tenant-context';
import { TenantScopedEntity } from '../common/database/tenant-scoped.entity';
import { namesChurch, tenantScope } from './tenant-scope';

@Entity('things')
class ThingEntity extends TenantScopedEntity {
  @Column('text') name: string;
}

const CHURCH = '0190a6f0-0000-7000-8000-000000000001';
const OTHER = '0190a6f0-0000-7000-8000-000000000002';
const ID = '0190a6f0-0000-7000-8000-0000000000aa';

describe('tenantScope', () => {
  // The entities' metadata without a connection: nothing here reaches a database.
  const source = new DataSource({ type: 'postgres', entities: [ThingEntity] });
  beforeAll(() => (source as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas());

  const inChurch = <T>(fn: () => Promise<T>) =>
    TenantContext.run(
      { tenantId: CHURCH, manager: source.manager, actor: { kind: 'worker' }, lang: 'en', afterCommit: [] },
      fn,
    );

  it('gives the current transaction’s manager and church, and throws outside a tenant transaction', async () => {
    await inChurch(async () => {
      const { manager, tenantId, repo } = tenantScope(ThingEntity);
      expect(manager).toBe(source.manager);
      expect(tenantId).toBe(CHURCH);
      expect(repo.metadata.tableName).toBe('things');
    });
    expect(() => tenantScope()).toThrow('No tenant scope');
  });

  it('refuses an update or delete whose criteria lack the church’s tenant_id, before any SQL', async () => {
    const update = jest.spyOn(source.manager, 'update').mockResolvedValue({ raw: [], generatedMaps: [], affected: 1 });
    const remove = jest.spyOn(source.manager, 'delete').mockResolvedValue({ raw: [], affected: 1 });
    await inChurch(async () => {
      const { repo, tenantId } = tenantScope(ThingEntity);
      const refused = /^refused: (update|delete|softDelete|increment|updateAll|deleteAll|clear) of things: /;
      await expect(repo.update({ id: ID }, { name: 'x' })).rejects.toThrow(refused);
      await expect(repo.update(ID, { name: 'x' })).rejects.toThrow(refused);
      await expect(repo.update({ tenantId: OTHER, id: ID }, { name: 'x' })).rejects.toThrow(refused);
      await expect(repo.update({ tenantId: In([CHURCH, OTHER]), id: ID }, { name: 'x' })).rejects.toThrow(refused);
      await expect(repo.update([{ tenantId, id: ID }, { id: ID }], { name: 'x' })).rejects.toThrow(refused);
      await expect(repo.delete({ id: ID })).rejects.toThrow(refused);
      await expect(repo.delete([ID])).rejects.toThrow(refused);
      await expect(repo.softDelete({ id: ID })).rejects.toThrow(refused);
      await expect(repo.increment({ id: ID }, 'name', 1)).rejects.toThrow(refused);
      await expect(repo.updateAll({ name: 'x' })).rejects.toThrow(refused);
      await expect(repo.deleteAll()).rejects.toThrow(refused);
      await expect(repo.clear()).rejects.toThrow(refused);
      expect(update).not.toHaveBeenCalled();
      expect(remove).not.toHaveBeenCalled();

      // Criteria that name the church pass through to TypeORM.
      await repo.update({ tenantId, id: ID }, { name: 'x' });
      await repo.delete({ tenantId, id: In([ID]) });
      expect(update).toHaveBeenCalledWith(ThingEntity, { tenantId: CHURCH, id: ID }, { name: 'x' }, undefined);
      expect(remove).toHaveBeenCalledWith(ThingEntity, { tenantId: CHURCH, id: In([ID]) });
    });
  });

  it('namesChurch: every criterion must name the church', () => {
    expect(namesChurch({ tenantId: CHURCH, id: ID }, CHURCH)).toBe(true);
    expect(namesChurch([{ tenantId: CHURCH }, { tenantId: CHURCH, id: ID }], CHURCH)).toBe(true);
    for (const criteria of [undefined, null, ID, [], [{ tenantId: CHURCH }, {}], { id: ID }, { tenantId: OTHER }])
      expect(namesChurch(criteria, CHURCH)).toBe(false);
  });
});
