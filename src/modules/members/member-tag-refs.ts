import { Injectable } from '@nestjs/common';
import { BoundedMap } from '../../common/caching/bounded-map';
import { TenantContext } from '../../common/context/tenant-context';
import type { ListQuery } from '../../common/lists/list-query';
import type { TagRef } from '../tags/dto/tag.response';
import { TagsService } from '../tags/tags.service';

const MAX_CHURCHES = 1_000;

/**
 * The `tags` of members, for a whole page in one query (never one per member). With the church's
 * members list version (Redis), whether any member of the church has a tag is remembered under
 * that version, so a church that uses no tags needs no tag query per page. Safe for the same reason
 * as CampusDirectory: putting a tag on a member, taking it off, renaming or deleting a tag replace
 * the members list version, and an entry is only read while its version is current.
 */
@Injectable()
export class MemberTagRefs {
  private readonly anyTagged = new BoundedMap<string, { version: string; any: boolean }>(MAX_CHURCHES);

  constructor(private readonly tags: TagsService) {}

  async of(memberIds: string[], membersListVersion?: string): Promise<Map<string, TagRef[]>> {
    if (!memberIds.length) return new Map();
    const { tenantId } = TenantContext.current();
    const known = membersListVersion === undefined ? undefined : this.anyTagged.get(tenantId);
    if (known && known.version === membersListVersion && !known.any) return new Map();
    const refs = await this.tags.refsOf(memberIds);
    if (membersListVersion !== undefined && known?.version !== membersListVersion) {
      this.anyTagged.set(tenantId, { version: membersListVersion, any: refs.size > 0 || (await this.tags.anyMemberTagged()) });
    }
    return refs;
  }

  /**
   * The `tag` filter names tags by id or name; they become ids before the page query is planned, so
   * that the planner weighs each tag by how many members carry it (a rare tag is read from
   * member_tags, a common one along the sort index). An unknown tag matches no member.
   */
  async resolveTagFilter(query: ListQuery): Promise<void> {
    const term = query.filters.find((f) => f.field === 'tag');
    if (term) term.value = await this.tags.publicIdsOf((Array.isArray(term.value) ? term.value : [term.value]).map(String));
  }

  /** One member's tags. */
  async ofOne(memberId: string): Promise<TagRef[]> {
    return (await this.of([memberId])).get(memberId) ?? [];
  }
}
