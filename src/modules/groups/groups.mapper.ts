import type { Language } from '../../common/i18n/language';
import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import type { CampusEntity } from '../campuses/campus.entity';
import { toCampusRef } from '../campuses/campuses.mapper';
import type { MemberEntity } from '../members/member.entity';
import { toMemberResponse } from '../members/members.mapper';
import type { TagRef } from '../tags/dto/tag.response';
import type { GroupMemberResponse } from './dto/group-member.response';
import type { GroupResponse } from './dto/group.response';
import type { GroupMemberEntity } from './group-member.entity';
import type { GroupEntity } from './group.entity';

/** `campuses` holds (at least) the group's campus, by id. */
export function toGroupResponse(
  group: GroupEntity,
  campuses: Map<string, CampusEntity>,
  memberCount: number,
): GroupResponse {
  const campus = group.campusId ? campuses.get(group.campusId) : undefined;
  return {
    id: toPublicId(ID_PREFIX.group, group.id),
    name: group.name,
    description: group.description,
    campus: campus ? toCampusRef(campus) : null,
    meeting_day: group.meetingDay,
    meeting_time: group.meetingTime,
    location: group.location,
    capacity: group.capacity,
    status: group.status,
    parent_group_id: group.parentGroupId ? toPublicId(ID_PREFIX.group, group.parentGroupId) : null,
    member_count: memberCount,
    closed_at: group.closedAt ? group.closedAt.toISOString() : null,
    created_at: group.createdAt.toISOString(),
    updated_at: group.updatedAt.toISOString(),
  };
}

/** The member as the members API shows it (same mapper), plus their place in the group. */
export function toGroupMemberResponse(
  place: GroupMemberEntity,
  member: MemberEntity,
  campuses: Map<string, CampusEntity>,
  lang: Language,
  tags: TagRef[],
): GroupMemberResponse {
  return {
    ...toMemberResponse(member, campuses, lang, tags),
    group_role: place.groupRole,
    joined_at: place.joinedAt.toISOString(),
  };
}
