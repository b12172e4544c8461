import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import type { CampusEntity } from '../campuses/campus.entity';
import { toCampusRef } from '../campuses/campuses.mapper';
import type { MemberName } from '../members/member-lookup';
import type { CalendarEventResponse } from './dto/event.response';
import type { RegisteredMember, RegistrationResponse } from './dto/registration.response';
import type { EventEntity } from './event.entity';
import type { RegistrationEntity } from './registration.entity';

/** `campuses` holds (at least) the event's campus, by id; `attendance` the attendance count by event id (none: 0). */
export function toEventResponse(
  event: EventEntity,
  campuses: Map<string, CampusEntity>,
  attendance: Map<string, number>,
): CalendarEventResponse {
  const campus = event.campusId ? campuses.get(event.campusId) : undefined;
  return {
    id: toPublicId(ID_PREFIX.event, event.id),
    name: event.name,
    description: event.description,
    location: event.location,
    campus: campus ? toCampusRef(campus) : null,
    timezone: event.timezone,
    starts_at: event.startsAt.toISOString(),
    ends_at: event.endsAt.toISOString(),
    capacity: event.capacity,
    registration_count: event.registrationCount,
    registration_open: event.registrationOpen,
    attendance_count: attendance.get(event.id) ?? 0,
    status: event.status,
    canceled_at: event.canceledAt ? event.canceledAt.toISOString() : null,
    cancel_reason: event.cancelReason,
    created_at: event.createdAt.toISOString(),
    updated_at: event.updatedAt.toISOString(),
  };
}

/** `members` holds (at least) the registration's member, by uuid. */
export function toRegistrationResponse(
  registration: RegistrationEntity,
  members: Map<string, MemberName>,
): RegistrationResponse {
  const member = registration.memberId ? members.get(registration.memberId) : undefined;
  const registered: RegisteredMember | null = member
    ? { id: toPublicId(ID_PREFIX.member, member.id), first_name: member.firstName, last_name: member.lastName }
    : null;
  return {
    id: toPublicId(ID_PREFIX.registration, registration.id),
    event_id: toPublicId(ID_PREFIX.event, registration.eventId),
    member: registered,
    guest:
      registration.memberId === null
        ? {
            first_name: registration.guestFirstName ?? '',
            last_name: registration.guestLastName ?? '',
            email: registration.guestEmail,
          }
        : null,
    created_at: registration.createdAt.toISOString(),
    updated_at: registration.updatedAt.toISOString(),
  };
}
