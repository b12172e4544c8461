import type { Language } from '../../common/i18n/language';
import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import { todayUtc } from '../../common/lists/list-query';
import type { CampusEntity } from '../campuses/campus.entity';
import { toCampusRef } from '../campuses/campuses.mapper';
import type { TagRef } from '../tags/dto/tag.response';
import type { MemberResponse } from './dto/member.response';
import type { MemberEntity } from './member.entity';
import { GENDER_LABELS, STATUS_LABELS } from './members.labels';

/** Whole years between a YYYY-MM-DD birthdate and today (UTC). */
export function ageOn(birthdate: string | null, today = todayUtc()): number | null {
  if (!birthdate) return null;
  const years = Number(today.slice(0, 4)) - Number(birthdate.slice(0, 4));
  return today.slice(5) < birthdate.slice(5) ? years - 1 : years;
}

/** `tags`: the member's tags (MemberTagRefs loads them for a whole page at once). */
export function toMemberResponse(
  member: MemberEntity,
  campuses: Map<string, CampusEntity>,
  lang: Language,
  tags: TagRef[],
): MemberResponse {
  const campus = member.campusId ? campuses.get(member.campusId) : undefined;
  return {
    id: toPublicId(ID_PREFIX.member, member.id),
    first_name: member.firstName,
    last_name: member.lastName,
    email: member.email,
    phone: member.phone,
    birthdate: member.birthdate,
    age: ageOn(member.birthdate),
    gender: member.gender,
    gender_label: member.gender ? GENDER_LABELS[lang][member.gender] : null,
    status: member.status,
    status_label: STATUS_LABELS[lang][member.status],
    campus: campus ? toCampusRef(campus) : null,
    active: member.active,
    household_id: member.householdId ? toPublicId(ID_PREFIX.household, member.householdId) : null,
    household_role: member.householdRole,
    address: member.address,
    custom_fields: member.customFields,
    tags,
    created_at: member.createdAt.toISOString(),
    updated_at: member.updatedAt.toISOString(),
  };
}
