import { Injectable } from '@nestjs/common';
import { In, IsNull } from 'typeorm';
import { fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { RowLock, withLock } from '../../database/row-lock';
import { tenantScope } from '../../database/tenant-scope';
import { EventEntity } from './event.entity';
import { EVENT_LIST, REGISTRATION_LIST } from './events.list';
import { RegistrationEntity } from './registration.entity';

/** The module's only TypeORM surface. Every query names the tenant (RLS enforces it too). */
@Injectable()
export class EventsRepository {
  async insert(event: EventEntity): Promise<void> {
    await tenantScope(EventEntity).repo.insert(event);
  }

  /** A live (not deleted) event; with `lock`, locked until the transaction ends. */
  async findLive(id: string, lock?: RowLock): Promise<EventEntity | null> {
    const { repo: events, tenantId } = tenantScope(EventEntity);
    return events.findOne({ where: { tenantId, id, deletedAt: IsNull() }, ...withLock(lock) });
  }

  /** The live events among `ids`, in one query. */
  async findLiveMany(ids: string[]): Promise<EventEntity[]> {
    if (ids.length === 0) return [];
    const { repo: events, tenantId } = tenantScope(EventEntity);
    return events.find({ where: { tenantId, id: In(ids), deletedAt: IsNull() } });
  }

  async update(id: string, changes: Partial<EventEntity>): Promise<boolean> {
    const { repo: events, tenantId } = tenantScope(EventEntity);
    const result = await events.update({ tenantId, id, deletedAt: IsNull() }, changes);
    return (result.affected ?? 0) > 0;
  }

  list(query: ListQuery): Promise<Page<EventEntity>> {
    const { repo: events, tenantId } = tenantScope(EventEntity);
    const qb = events.createQueryBuilder('e').where('e.tenant_id = :tenantId AND e.deleted_at IS NULL', { tenantId });
    return fetchPage(qb, query, EVENT_LIST);
  }

  async insertRegistration(registration: RegistrationEntity): Promise<void> {
    await tenantScope(RegistrationEntity).repo.insert(registration);
  }

  async findRegistration(eventId: string, id: string): Promise<RegistrationEntity | null> {
    const { repo: registrations, tenantId } = tenantScope(RegistrationEntity);
    return registrations.findOne({ where: { tenantId, eventId, id } });
  }

  /** The registrations among `ids` whose event is live (a deleted event lists none), in one query. */
  async findLiveRegistrations(ids: string[]): Promise<RegistrationEntity[]> {
    if (ids.length === 0) return [];
    const { repo: registrations, tenantId } = tenantScope(RegistrationEntity);
    return registrations
      .createQueryBuilder('r')
      .where('r.tenant_id = :tenantId AND r.id = ANY(CAST(:ids AS uuid[]))', { tenantId, ids })
      .andWhere(
        'EXISTS (SELECT 1 FROM events e WHERE e.tenant_id = r.tenant_id AND e.id = r.event_id AND e.deleted_at IS NULL)',
      )
      .getMany();
  }

  async hasMemberRegistration(eventId: string, memberId: string): Promise<boolean> {
    const { repo: registrations, tenantId } = tenantScope(RegistrationEntity);
    return registrations.exists({ where: { tenantId, eventId, memberId } });
  }

  async deleteRegistration(eventId: string, id: string): Promise<boolean> {
    const { repo: registrations, tenantId } = tenantScope(RegistrationEntity);
    const result = await registrations.delete({ tenantId, eventId, id });
    return (result.affected ?? 0) > 0;
  }

  listRegistrations(eventId: string, query: ListQuery): Promise<Page<RegistrationEntity>> {
    const { repo: registrations, tenantId } = tenantScope(RegistrationEntity);
    const qb = registrations
      .createQueryBuilder('r')
      .where('r.tenant_id = :tenantId AND r.event_id = :eventId', { tenantId, eventId });
    return fetchPage(qb, query, REGISTRATION_LIST);
  }

  /** Every registration of the event (for the cancellation mails). */
  async allRegistrations(eventId: string): Promise<RegistrationEntity[]> {
    const { repo: registrations, tenantId } = tenantScope(RegistrationEntity);
    return registrations.find({ where: { tenantId, eventId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }
}
