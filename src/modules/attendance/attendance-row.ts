import type { FieldIssue } from '../../common/errors/app-error';
import { ID_PREFIX, parsePublicId } from '../../common/ids/id';
import { ATTENDANCE_KINDS, AttendanceKind } from './attendance.entity';
import { readCheckedInAt } from './checked-in-at';

/** A row of POST /v1/attendance(/bulk) once read: uuids, the kind and the arrival time (undefined: now). */
export interface AttendanceRow {
  memberId: string;
  eventId: string;
  kind: AttendanceKind;
  checkedInAt?: Date;
}

const FIELDS = new Set(['member_id', 'event_id', 'kind', 'checked_in_at']);

/** A required `mem_`/`evt_` reference: a missing one is `required`, a malformed one `not_found` (as an unknown one is). */
function readRef(row: Record<string, unknown>, field: 'member_id' | 'event_id', issues: FieldIssue[]): string | null {
  const value = row[field];
  if (value === undefined || value === null || value === '') {
    issues.push({ field, issue: 'required' });
    return null;
  }
  if (typeof value !== 'string') {
    issues.push({ field, issue: 'invalid_type', params: { type: 'string' } });
    return null;
  }
  const uuid = parsePublicId(field === 'member_id' ? ID_PREFIX.member : ID_PREFIX.event, value);
  if (!uuid) issues.push({ field, issue: 'not_found' });
  return uuid;
}

/**
 * Reads one row (a bulk row as sent, or the single POST's validated body) without a
 * class-transformer pass: 500 rows cost a few microseconds each. Every problem is an issue.
 */
export function readAttendanceRow(row: unknown): { row?: AttendanceRow; issues: FieldIssue[] } {
  if (typeof row !== 'object' || row === null || Array.isArray(row))
    return { issues: [{ field: '(row)', issue: 'invalid_type', params: { type: 'object' } }] };
  const body = row as Record<string, unknown>;
  const issues: FieldIssue[] = [];
  for (const key of Object.keys(body))
    if (!FIELDS.has(key) && body[key] !== undefined) issues.push({ field: key, issue: 'unknown_field' });
  const memberId = readRef(body, 'member_id', issues);
  const eventId = readRef(body, 'event_id', issues);
  const kind = body.kind ?? 'regular';
  if (typeof kind !== 'string' || !(ATTENDANCE_KINDS as readonly string[]).includes(kind))
    issues.push({ field: 'kind', issue: 'one_of', params: { values: ATTENDANCE_KINDS.join(', ') } });
  const checkedInAt = readCheckedInAt(body.checked_in_at, issues);
  if (issues.length) return { issues };
  return { row: { memberId: memberId!, eventId: eventId!, kind: kind as AttendanceKind, checkedInAt }, issues };
}
