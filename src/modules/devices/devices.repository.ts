import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { RowLock, withLock } from '../../database/row-lock';
import { tenantScope } from '../../database/tenant-scope';
import { DeviceEntity } from './device.entity';
import { DEVICE_LIST } from './devices.list';

@Injectable()
export class DevicesRepository {
  async insert(device: DeviceEntity): Promise<void> {
    await tenantScope(DeviceEntity).repo.insert(device);
  }

  /** With `lock`, the row stays locked until the transaction ends (see RowLock). */
  async findById(id: string, lock?: RowLock): Promise<DeviceEntity | null> {
    const { repo, tenantId } = tenantScope(DeviceEntity);
    return repo.findOne({ where: { tenantId, id }, ...withLock(lock) });
  }

  /** The devices among `ids`, in one query. */
  async findManyByIds(ids: string[]): Promise<DeviceEntity[]> {
    if (ids.length === 0) return [];
    const { repo, tenantId } = tenantScope(DeviceEntity);
    return repo.find({ where: { tenantId, id: In(ids) } });
  }

  async update(id: string, changes: Partial<DeviceEntity>): Promise<void> {
    const { repo, tenantId } = tenantScope(DeviceEntity);
    await repo.update({ tenantId, id }, changes);
  }

  async delete(id: string): Promise<void> {
    const { repo, tenantId } = tenantScope(DeviceEntity);
    await repo.delete({ tenantId, id });
  }

  list(query: ListQuery): Promise<Page<DeviceEntity>> {
    const { repo, tenantId } = tenantScope(DeviceEntity);
    return fetchPage(repo.createQueryBuilder('d').where('d.tenant_id = :tenantId', { tenantId }), query, DEVICE_LIST);
  }
}
