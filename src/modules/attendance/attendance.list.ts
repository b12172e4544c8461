import { ID_PREFIX } from '../../common/ids/id';
import type { FilterValue, ListSpec, Operator } from '../../common/lists/list-spec';
import { asStrings, idCondition, uuidsOf } from '../../common/lists/ref-filters';
import { ATTENDANCE_KINDS, AttendanceEntity } from './attendance.entity';
import { timestampFilter, timestampSort } from '../../common/lists/list-spec-parts';

/** campus=<key or cmp_ id> (or campus[in]=a,b): attendance at the events of those campuses. */
function campusCondition(
  alias: string,
  _op: Operator,
  value: FilterValue | FilterValue[],
  param: (v: unknown) => string,
): string {
  const refs = asStrings(value);
  return (
    `${alias}.event_id IN (SELECT e.id FROM events e WHERE e.tenant_id = ${alias}.tenant_id AND e.campus_id IN ` +
    `(SELECT c.id FROM campuses c WHERE c.tenant_id = ${alias}.tenant_id AND (c.key IN ${param(refs)} OR c.id IN ${param(uuidsOf(ID_PREFIX.campus, refs))})))`
  );
}

const SORTS: ListSpec<AttendanceEntity>['sorts'] = {
  created_at: timestampSort('created_at', (row) => row.createdAt),
  checked_in_at: timestampSort('checked_in_at', (row) => row.checkedInAt),
};

const FILTERS: ListSpec<AttendanceEntity>['filters'] = {
  event_id: {
    type: 'string',
    ops: ['in'],
    sql: idCondition('event_id', ID_PREFIX.event),
    description: 'The calendar event (evt_ id); `event_id[in]=a,b` for several.',
  },
  member_id: {
    type: 'string',
    ops: ['in'],
    sql: idCondition('member_id', ID_PREFIX.member),
    description: 'The member (mem_ id); `member_id[in]=a,b` for several.',
  },
  kind: {
    type: 'enum',
    values: ATTENDANCE_KINDS,
    ops: ['ne', 'in'],
    column: 'kind',
    description: 'regular, guest or volunteer; `kind[in]=regular,guest` for several.',
  },
  campus: {
    type: 'string',
    ops: ['in'],
    sql: campusCondition,
    description: "The event's campus (key or cmp_ id); `campus[in]=a,b` for several.",
  },
  checked_in_at: timestampFilter('checked_in_at', 'When the person arrived (ISO 8601; an offset is honoured).'),
  created_at: timestampFilter('created_at', 'When it was recorded (ISO 8601; an offset is honoured).'),
  updated_at: timestampFilter('updated_at', 'Last change (ISO 8601): for incremental sync.'),
};

export const ATTENDANCE_LIST: ListSpec<AttendanceEntity> = {
  resource: 'attendance',
  defaultSort: 'created_at',
  sorts: SORTS,
  filters: FILTERS,
};

const without = (name: string) => Object.fromEntries(Object.entries(FILTERS).filter(([field]) => field !== name));

/** GET /v1/members/{id}/attendance: the same list for one member (the member is the path's). */
export const MEMBER_ATTENDANCE_LIST: ListSpec<AttendanceEntity> = {
  resource: 'attendance',
  defaultSort: 'created_at',
  sorts: SORTS,
  filters: without('member_id'),
};

/** GET /v1/events/{id}/attendance: the same list for one event (the event is the path's). */
export const EVENT_ATTENDANCE_LIST: ListSpec<AttendanceEntity> = {
  resource: 'attendance',
  defaultSort: 'created_at',
  sorts: SORTS,
  filters: without('event_id'),
};
