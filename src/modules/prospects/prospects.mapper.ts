import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import type { CampusEntity } from '../campuses/campus.entity';
import { toCampusRef } from '../campuses/campuses.mapper';
import type { ProspectResponse } from './dto/prospect.response';
import type { ProspectEntity } from './prospect.entity';

/** `campuses` holds (at least) the prospect's campus, by id. */
export function toProspectResponse(prospect: ProspectEntity, campuses: Map<string, CampusEntity>): ProspectResponse {
  const campus = prospect.campusId ? campuses.get(prospect.campusId) : undefined;
  return {
    id: toPublicId(ID_PREFIX.prospect, prospect.id),
    first_name: prospect.firstName,
    last_name: prospect.lastName,
    email: prospect.email,
    phone: prospect.phone,
    campus: campus ? toCampusRef(campus) : null,
    source: prospect.source,
    stage: prospect.stage,
    assigned_to: prospect.assignedTo ? toPublicId(ID_PREFIX.user, prospect.assignedTo) : null,
    follow_up_on: prospect.followUpOn,
    notes: prospect.notes,
    converted_at: prospect.convertedAt ? prospect.convertedAt.toISOString() : null,
    member_id: prospect.memberId ? toPublicId(ID_PREFIX.member, prospect.memberId) : null,
    created_at: prospect.createdAt.toISOString(),
    updated_at: prospect.updatedAt.toISOString(),
  };
}
