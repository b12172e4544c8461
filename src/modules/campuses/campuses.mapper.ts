import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import type { CampusEntity } from './campus.entity';
import type { CampusRef, CampusResponse } from './dto/campus.response';

export function toCampusResponse(campus: CampusEntity): CampusResponse {
  return {
    id: toPublicId(ID_PREFIX.campus, campus.id),
    key: campus.key,
    name: campus.name,
    timezone: campus.timezone,
    created_at: campus.createdAt.toISOString(),
    updated_at: campus.updatedAt.toISOString(),
  };
}

export function toCampusRef(campus: CampusEntity): CampusRef {
  return { id: toPublicId(ID_PREFIX.campus, campus.id), key: campus.key, name: campus.name };
}
