import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError, FieldIssue } from '../../common/errors/app-error';
import { ID_PREFIX, newUuid, toPublicId } from '../../common/ids/id';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { ListQuery, parseListQuery } from '../../common/lists/list-query';
import { ListTotals } from '../../platform/list-totals/list-totals.service';
import { OutboxService } from '../../platform/outbox/outbox.service';
import { MemberLookup } from '../members/member-lookup';
import { AttendanceEntity, AttendanceKind } from './attendance.entity';
import { ATTENDANCE_LIST, EVENT_ATTENDANCE_LIST, MEMBER_ATTENDANCE_LIST } from './attendance.list';
import { toAttendanceResponse } from './attendance.mapper';
import { AttendanceRepository } from './attendance.repository';
import { AttendanceRow, readAttendanceRow } from './attendance-row';
import type { AttendanceResponse } from './dto/attendance.response';
import type { CreateAttendanceDto } from './dto/create-attendance.dto';

/** What a caller (the kiosk check-in) records: uuids, already checked by the caller. */
export interface AttendanceInput {
  eventId: string;
  memberId: string;
  kind: AttendanceKind;
  checkedInAt: Date;
  /** The check-in (check_ins.id) that recorded it. */
  checkInId?: string | null;
}

@Injectable()
export class AttendanceService {
  constructor(
    private readonly attendance: AttendanceRepository,
    private readonly outbox: OutboxService,
    private readonly totals: ListTotals,
    private readonly members: MemberLookup,
  ) {}

  /**
   * POST /v1/attendance. The member and the event must be the church's (422 naming the field); the
   * same member at the same event again, even concurrently, is 409 `conflict` naming the record.
   */
  async create(dto: CreateAttendanceDto): Promise<AttendanceResponse> {
    const { row, issues } = readAttendanceRow({ ...dto });
    if (!row) throw AppError.validation(issues);
    const refIssues = (await this.checkReferences([row]))[0];
    if (refIssues.length) throw AppError.validation(refIssues);
    const [entity] = this.newRecords([{ ...row, checkedInAt: row.checkedInAt ?? new Date() }]);
    const inserted = await this.attendance.insertMany([entity]);
    if (!inserted.has(entity.id)) {
      const [existing] = await this.attendance.findPairs([entity]);
      throw new AppError('conflict', { reason: duplicateReason(entity, existing) }, [
        { field: 'member_id', issue: 'duplicate' },
      ]);
    }
    const response = toAttendanceResponse(entity);
    await this.outbox.record('attendance.recorded', response);
    this.totals.invalidate('attendance');
    return response;
  }

  /**
   * For the kiosk check-in, in the caller's transaction: records every row in one statement and
   * raises one `attendance.recorded` each. When any member is already recorded at the event (before,
   * or by a concurrent call), nothing is kept: 409 `already_checked_in` naming the member(s).
   */
  async recordMany(rows: AttendanceInput[]): Promise<AttendanceResponse[]> {
    const entities = this.newRecords(rows);
    const inserted = await this.attendance.insertMany(entities);
    const refused = entities.filter((e) => !inserted.has(e.id));
    if (refused.length) {
      const members = [...new Set(refused.map((e) => toPublicId(ID_PREFIX.member, e.memberId)))];
      throw new AppError(
        'already_checked_in',
        { reason: `already checked in to this event: ${members.join(', ')}`, members: members.join(', ') },
        [{ field: 'member_ids', issue: 'duplicate' }],
      );
    }
    const responses = entities.map(toAttendanceResponse);
    await this.outbox.recordMany('attendance.recorded', responses);
    this.totals.invalidate('attendance');
    return responses;
  }

  /**
   * POST /v1/attendance/bulk once each row is read: checks the references of all rows in two
   * queries, inserts the valid ones in one statement, and answers per row (index order) the new
   * id, or the issues (`validation_failed`) or the record already there (`conflict`).
   */
  async createMany(
    rows: { index: number; row: AttendanceRow }[],
  ): Promise<{ created: { index: number; id: string }[]; rejected: { index: number; error: AppError }[] }> {
    const refIssues = await this.checkReferences(rows.map((r) => r.row));
    const rejected: { index: number; error: AppError }[] = [];
    const valid: { index: number; entity: AttendanceEntity }[] = [];
    const now = new Date();
    const entities = this.newRecords(rows.map(({ row }) => ({ ...row, checkedInAt: row.checkedInAt ?? now })));
    rows.forEach(({ index }, i) => {
      if (refIssues[i].length) rejected.push({ index, error: AppError.validation(refIssues[i]) });
      else valid.push({ index, entity: entities[i] });
    });
    const inserted = await this.attendance.insertMany(valid.map((v) => v.entity));
    const refused = valid.filter((v) => !inserted.has(v.entity.id));
    if (refused.length) {
      const existing = await this.attendance.findPairs(refused.map((v) => v.entity));
      const byPair = new Map(existing.map((e) => [`${e.eventId}/${e.memberId}`, e]));
      for (const { index, entity } of refused) {
        const other = byPair.get(`${entity.eventId}/${entity.memberId}`);
        rejected.push({
          index,
          error: new AppError('conflict', { reason: duplicateReason(entity, other) }, [
            { field: 'member_id', issue: 'duplicate' },
          ]),
        });
      }
    }
    const created = valid.filter((v) => inserted.has(v.entity.id));
    if (created.length) this.totals.invalidate('attendance');
    await this.outbox.recordMany(
      'attendance.recorded',
      created.map((v) => toAttendanceResponse(v.entity)),
    );
    return {
      created: created.map(({ index, entity }) => ({ index, id: toPublicId(ID_PREFIX.attendance, entity.id) })),
      rejected,
    };
  }

  async get(id: string): Promise<AttendanceResponse> {
    const record = await this.attendance.findById(id);
    if (!record) throw AppError.notFound('attendance');
    return toAttendanceResponse(record);
  }

  /** The records among `ids` as GET returns them, by id (the changes feed's objects), in one query. */
  async getMany(ids: string[]): Promise<Map<string, AttendanceResponse>> {
    return new Map((await this.attendance.findManyByIds(ids)).map((a) => [a.id, toAttendanceResponse(a)]));
  }

  list(rawQuery: Record<string, unknown>): Promise<ListEnvelope<AttendanceResponse>> {
    return this.page(parseListQuery(rawQuery, ATTENDANCE_LIST));
  }

  /** GET /v1/members/{id}/attendance: 404 for a member the church does not have, a 301 to the survivor's list for a merged one. */
  async listForMember(memberId: string, rawQuery: Record<string, unknown>): Promise<ListEnvelope<AttendanceResponse>> {
    const query = parseListQuery(rawQuery, MEMBER_ATTENDANCE_LIST);
    await this.members.requireLiveForRead(memberId, 'attendance');
    query.filters.push({ field: 'member_id', op: 'eq', value: toPublicId(ID_PREFIX.member, memberId) });
    return this.page(query);
  }

  /** GET /v1/events/{id}/attendance: 404 for an event the church does not have. */
  async listForEvent(eventId: string, rawQuery: Record<string, unknown>): Promise<ListEnvelope<AttendanceResponse>> {
    const query = parseListQuery(rawQuery, EVENT_ATTENDANCE_LIST);
    if (!(await this.attendance.existingEvents([eventId])).size) throw AppError.notFound('event');
    query.filters.push({ field: 'event_id', op: 'eq', value: toPublicId(ID_PREFIX.event, eventId) });
    return this.page(query);
  }

  /** The attendance count of each event (by uuid), in one grouped query: events without any are absent (0). */
  countByEvent(eventIds: string[]): Promise<Map<string, number>> {
    return this.attendance.countByEvent(eventIds);
  }

  /** A page; its total is cached per church and filters until the next record (ListTotals). */
  private async page(query: ListQuery): Promise<ListEnvelope<AttendanceResponse>> {
    const state = await this.totals.open('attendance', query);
    const page = await this.attendance.list(query, ATTENDANCE_LIST, state);
    return toEnvelope(page, toAttendanceResponse);
  }

  /**
   * For each row, the issues of its references (a member or event the church does not have), in two
   * queries for all rows. A member merged into another names the survivor (CONTRACT §17): the row's
   * `memberId` is set to it. The members are locked FOR KEY SHARE until the transaction ends: a merge
   * of them waits for the records (and then moves them), or has committed and is followed.
   */
  private async checkReferences(rows: AttendanceRow[]): Promise<FieldIssue[][]> {
    const members = await this.members.liveOrSurvivorIds(
      rows.map((r) => r.memberId),
      'for_key_share',
    );
    const events = await this.attendance.existingEvents([...new Set(rows.map((r) => r.eventId))]);
    return rows.map((r) => {
      const issues: FieldIssue[] = [];
      const member = members.get(r.memberId);
      if (member) r.memberId = member;
      else issues.push({ field: 'member_id', issue: 'not_found' });
      if (!events.has(r.eventId)) issues.push({ field: 'event_id', issue: 'not_found' });
      return issues;
    });
  }

  private newRecords(rows: (Omit<AttendanceInput, 'checkedInAt'> & { checkedInAt: Date })[]): AttendanceEntity[] {
    const tenantId = TenantContext.current().tenantId;
    const now = new Date();
    return rows.map((r) =>
      Object.assign(new AttendanceEntity(), {
        tenantId,
        id: newUuid(),
        eventId: r.eventId,
        memberId: r.memberId,
        kind: r.kind,
        checkedInAt: r.checkedInAt,
        checkInId: r.checkInId ?? null,
        createdAt: now,
        updatedAt: now,
      }),
    );
  }
}

function duplicateReason(entity: { eventId: string; memberId: string }, existing?: AttendanceEntity): string {
  const record = existing ? ` (${toPublicId(ID_PREFIX.attendance, existing.id)})` : '';
  return `member ${toPublicId(ID_PREFIX.member, entity.memberId)} is already recorded at event ${toPublicId(ID_PREFIX.event, entity.eventId)}${record}`;
}
