import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import type { MemberTagEvent, TagRef, TagResponse } from './dto/tag.response';
import type { TagEntity } from './tag.entity';

export function toTagResponse(tag: TagEntity): TagResponse {
  return {
    id: toPublicId(ID_PREFIX.tag, tag.id),
    name: tag.name,
    color: tag.color,
    created_at: tag.createdAt.toISOString(),
    updated_at: tag.updatedAt.toISOString(),
  };
}

export function toTagRef(tag: { id: string; name: string }): TagRef {
  return { id: toPublicId(ID_PREFIX.tag, tag.id), name: tag.name };
}

export function toMemberTagEvent(
  tag: TagEntity,
  member: { id: string; firstName: string; lastName: string },
): MemberTagEvent {
  return {
    tag: toTagRef(tag),
    member: { id: toPublicId(ID_PREFIX.member, member.id), first_name: member.firstName, last_name: member.lastName },
  };
}
