import { Injectable } from '@nestjs/common';
import { BoundedMap } from '../../common/caching/bounded-map';
import { TenantContext } from '../../common/context/tenant-context';
import type { ListQuery } from '../../common/lists/list-query';
import type { TagRef } from '../tags/dto/tag.response';
import { RankedTagRef, TagsService } from '../tags/tags.service';

const MAX_CHURCHES = 1_000;

/**
 * The `tags` of members. A page's tag ids come with the page query (MembersRepository.list); their
 * names from each church's tags, kept in process under the members list version they were loaded
 * at, so a page needs no tag query while nothing changed. Safe for the same reason as
 * CampusDirectory: putting a tag on a member, taking it off, renaming or deleting a tag replace the
 * members list version, and an entry is only read while its version is current; a new tag is on no
 * member until a tag write replaces the version, and a page naming a tag the entry lacks reloads it.
 */
@Injectable()
export class MemberTagRefs {
  private readonly byChurch = new BoundedMap<string, { version: string; tags: Map<string, RankedTagRef> }>(
    MAX_CHURCHES,
  );

  constructor(private readonly tags: TagsService) {}

  /** These members' tags, in one query (never one per member); a member without tags is absent. */
  of(memberIds: string[]): Promise<Map<string, TagRef[]>> {
    return memberIds.length ? this.tags.refsOf(memberIds) : Promise.resolve(new Map<string, TagRef[]>());
  }

  /** The tags of a page from its members' tag ids; without a list version (no Redis), the page's tags are read. */
  async ofPage(tagIdsByMember: Map<string, string[]>, membersListVersion?: string): Promise<Map<string, TagRef[]>> {
    const ids = [...new Set([...tagIdsByMember.values()].flat())];
    const byMember = new Map<string, TagRef[]>();
    if (!ids.length) return byMember;
    const tags = await this.directory(ids, membersListVersion);
    for (const [memberId, tagIds] of tagIdsByMember) {
      const ranked = tagIds.map((id) => tags.get(id)).filter((t): t is RankedTagRef => t !== undefined);
      if (ranked.length)
        byMember.set(
          memberId,
          ranked.sort((a, b) => a.rank - b.rank).map((t) => t.ref),
        );
    }
    return byMember;
  }

  private async directory(ids: string[], membersListVersion?: string): Promise<Map<string, RankedTagRef>> {
    if (membersListVersion === undefined) return this.tags.rankedRefs(ids);
    const { tenantId } = TenantContext.current();
    const entry = this.byChurch.get(tenantId);
    if (entry?.version === membersListVersion && ids.every((id) => entry.tags.has(id))) return entry.tags;
    const tags = await this.tags.rankedRefs();
    this.byChurch.set(tenantId, { version: membersListVersion, tags });
    return tags;
  }

  /**
   * The `tag` filter names tags by id or name; they become ids before the page query is planned, so
   * that the planner weighs each tag by how many members carry it (a rare tag is read from
   * member_tags, a common one along the sort index). An unknown tag matches no member.
   */
  async resolveTagFilter(query: ListQuery): Promise<void> {
    const term = query.filters.find((f) => f.field === 'tag');
    if (term)
      term.value = await this.tags.publicIdsOf((Array.isArray(term.value) ? term.value : [term.value]).map(String));
  }

  /** One member's tags. */
  async ofOne(memberId: string): Promise<TagRef[]> {
    return (await this.of([memberId])).get(memberId) ?? [];
  }
}
