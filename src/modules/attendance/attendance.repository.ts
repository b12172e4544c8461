import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { CachedTotal, fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import type { ListSpec } from '../../common/lists/list-spec';
import { tenantScope } from '../../database/tenant-scope';
import { AttendanceEntity } from './attendance.entity';

/** The module's only TypeORM surface; every query names the tenant (RLS enforces it too). */
@Injectable()
export class AttendanceRepository {
  /**
   * Inserts the rows in one statement (unnest); a row whose member is already recorded at its event
   * (the unique index on (tenant_id, event_id, member_id), also between rows of the same call) is
   * skipped. A concurrent insert of the same pair waits for the other transaction, then skips.
   * Returns the ids of the rows inserted.
   */
  async insertMany(rows: AttendanceEntity[]): Promise<Set<string>> {
    if (rows.length === 0) return new Set();
    const { manager, tenantId } = tenantScope();
    const result: { id: string }[] = await manager.query(
      `INSERT INTO attendance (tenant_id, id, event_id, member_id, kind, checked_in_at, check_in_id, created_at, updated_at)
       SELECT $1, u.id, u.event_id, u.member_id, u.kind, u.checked_in_at, u.check_in_id, u.created_at, u.created_at
       FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::timestamptz[], $7::uuid[], $8::timestamptz[])
         AS u(id, event_id, member_id, kind, checked_in_at, check_in_id, created_at)
       ON CONFLICT (tenant_id, event_id, member_id) DO NOTHING
       RETURNING id`,
      [
        tenantId,
        rows.map((r) => r.id),
        rows.map((r) => r.eventId),
        rows.map((r) => r.memberId),
        rows.map((r) => r.kind),
        rows.map((r) => r.checkedInAt.toISOString()),
        rows.map((r) => r.checkInId),
        rows.map((r) => r.createdAt.toISOString()),
      ],
    );
    return new Set(result.map((r) => r.id));
  }

  findById(id: string): Promise<AttendanceEntity | null> {
    const { repo, tenantId } = tenantScope(AttendanceEntity);
    return repo.findOne({ where: { tenantId, id } });
  }

  /** The records among `ids`, in one query. */
  async findManyByIds(ids: string[]): Promise<AttendanceEntity[]> {
    if (ids.length === 0) return [];
    const { repo, tenantId } = tenantScope(AttendanceEntity);
    return repo.find({ where: { tenantId, id: In(ids) } });
  }

  /** The records already made for these (event, member) pairs. */
  async findPairs(pairs: { eventId: string; memberId: string }[]): Promise<AttendanceEntity[]> {
    if (pairs.length === 0) return [];
    const { repo, tenantId } = tenantScope(AttendanceEntity);
    return repo
      .createQueryBuilder('a')
      .where('a.tenant_id = :tenantId', { tenantId })
      .andWhere(
        '(a.event_id, a.member_id) IN (SELECT * FROM unnest(CAST(:events AS uuid[]), CAST(:members AS uuid[])))',
        {
          events: pairs.map((p) => p.eventId),
          members: pairs.map((p) => p.memberId),
        },
      )
      .getMany();
  }

  /** The church's live (not deleted) calendar events among `ids`. */
  async existingEvents(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const { manager, tenantId } = tenantScope();
    const rows: { id: string }[] = await manager.query(
      'SELECT id FROM events WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND deleted_at IS NULL',
      [tenantId, ids],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** The number of attendance records of each event, in one grouped query (events without any are absent). */
  async countByEvent(eventIds: string[]): Promise<Map<string, number>> {
    if (eventIds.length === 0) return new Map();
    const { manager, tenantId } = tenantScope();
    const rows: { event_id: string; n: number }[] = await manager.query(
      'SELECT event_id, count(*)::int AS n FROM attendance WHERE tenant_id = $1 AND event_id = ANY($2::uuid[]) GROUP BY event_id',
      [tenantId, eventIds],
    );
    return new Map(rows.map((r) => [r.event_id, r.n]));
  }

  list(query: ListQuery, spec: ListSpec<AttendanceEntity>, totals?: CachedTotal): Promise<Page<AttendanceEntity>> {
    const { repo, tenantId } = tenantScope(AttendanceEntity);
    return fetchPage(repo.createQueryBuilder('a').where('a.tenant_id = :tenantId', { tenantId }), query, spec, {
      totals,
    });
  }
}
