import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import type { AttendanceEntity } from './attendance.entity';
import type { AttendanceResponse } from './dto/attendance.response';

export function toAttendanceResponse(a: AttendanceEntity): AttendanceResponse {
  return {
    id: toPublicId(ID_PREFIX.attendance, a.id),
    event_id: toPublicId(ID_PREFIX.event, a.eventId),
    member_id: toPublicId(ID_PREFIX.member, a.memberId),
    kind: a.kind,
    checked_in_at: a.checkedInAt.toISOString(),
    check_in_id: a.checkInId ? toPublicId(ID_PREFIX.checkIn, a.checkInId) : null,
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
  };
}
