import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import type { CampusEntity } from '../campuses/campus.entity';
import { toCampusRef } from '../campuses/campuses.mapper';
import type { MemberName } from '../members/member-lookup';
import type { PrayerRequestResponse } from './dto/prayer-request.response';
import type { PrayerRequestEntity } from './prayer-request.entity';

/** The members and campuses a set of requests points to, by uuid. */
export interface Related {
  members: Map<string, MemberName>;
  campuses: Map<string, CampusEntity>;
}

export function toPrayerRequestResponse(row: PrayerRequestEntity, related: Related): PrayerRequestResponse {
  const member = row.memberId ? related.members.get(row.memberId) : undefined;
  const campus = row.campusId ? related.campuses.get(row.campusId) : undefined;
  return {
    id: toPublicId(ID_PREFIX.prayerRequest, row.id),
    request: row.request,
    member: member
      ? { id: toPublicId(ID_PREFIX.member, member.id), first_name: member.firstName, last_name: member.lastName }
      : null,
    name: row.name,
    visibility: row.visibility,
    urgent: row.urgent,
    campus: campus ? toCampusRef(campus) : null,
    answered_at: row.answeredAt ? row.answeredAt.toISOString() : null,
    answer: row.answer,
    created_by: row.createdBy ? toPublicId(ID_PREFIX.user, row.createdBy) : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
