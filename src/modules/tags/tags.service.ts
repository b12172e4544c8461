import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError } from '../../common/errors/app-error';
import { ID_PREFIX, newUuid, parsePublicId, toPublicId } from '../../common/ids/id';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import { isStorableText } from '../../common/validation/text';
import type { RowLock } from '../../database/row-lock';
import { ListTotals } from '../../platform/list-totals/list-totals.service';
import { OutboxService } from '../../platform/outbox/outbox.service';
import type { CreateTagDto } from './dto/create-tag.dto';
import type { TagRef, TagResponse } from './dto/tag.response';
import type { UpdateTagDto } from './dto/update-tag.dto';
import { TAG_NAME_MAX, TagEntity } from './tag.entity';
import { TAG_LIST } from './tags.list';
import { toMemberTagEvent, toTagRef, toTagResponse } from './tags.mapper';
import { TagsRepository } from './tags.repository';

/** A tag as members carry it, with its place in a member's `tags` (by name). */
export interface RankedTagRef {
  ref: TagRef;
  rank: number;
}

/** The member side of a tag event: who was tagged. */
export interface TaggedMember {
  id: string;
  firstName: string;
  lastName: string;
}

const duplicateName = (name: string) =>
  new AppError('conflict', { reason: `a tag named ${name} exists` }, [{ field: 'name', issue: 'duplicate' }]);

@Injectable()
export class TagsService {
  constructor(
    private readonly tags: TagsRepository,
    private readonly outbox: OutboxService,
    private readonly totals: ListTotals,
  ) {}

  async create(dto: CreateTagDto): Promise<TagResponse> {
    const now = new Date();
    const tag = Object.assign(new TagEntity(), {
      tenantId: TenantContext.current().tenantId,
      id: newUuid(),
      name: dto.name.trim(),
      color: dto.color ?? null,
      createdAt: now,
      updatedAt: now,
    });
    if (!(await this.tags.insert(tag))) throw duplicateName(tag.name);
    return toTagResponse(tag);
  }

  async get(id: string): Promise<TagResponse> {
    return toTagResponse(await this.requireById(id));
  }

  /** The tags among `ids` as GET returns them, by id (the changes feed's objects), in one query. */
  async getMany(ids: string[]): Promise<Map<string, TagResponse>> {
    return new Map((await this.tags.findManyByIds(ids)).map((t) => [t.id, toTagResponse(t)]));
  }

  async list(rawQuery: Record<string, unknown>): Promise<ListEnvelope<TagResponse>> {
    const page = await this.tags.list(parseListQuery(rawQuery, TAG_LIST));
    return toEnvelope(page, toTagResponse);
  }

  /** A rename shows on every member carrying the tag (their lists' caches are renewed); it does not change the members' updated_at. */
  async update(id: string, dto: UpdateTagDto): Promise<TagResponse> {
    if (dto.name === null) throw AppError.validation([{ field: 'name', issue: 'required' }]);
    const tag = await this.requireById(id, 'for_no_key_update');
    const changes: Partial<TagEntity> = { updatedAt: new Date() };
    if (dto.name !== undefined) {
      const name = dto.name.trim();
      const other = name.toLowerCase() === tag.name.toLowerCase() ? null : await this.tags.findByName(name);
      if (other) throw duplicateName(name);
      changes.name = name;
    }
    if (dto.color !== undefined) changes.color = dto.color;
    try {
      await this.tags.update(id, changes);
    } catch (error) {
      // A concurrent create or rename took the name after the check above.
      if ((error as { driverError?: { code?: string } }).driverError?.code === '23505')
        throw duplicateName(changes.name ?? tag.name);
      throw error;
    }
    if (changes.name !== undefined && changes.name !== tag.name) this.totals.invalidate('members');
    return toTagResponse(Object.assign(tag, changes));
  }

  /**
   * Deletes the tag and takes it off every member in a few statements, with no event per member;
   * the members it was on count as changed (updated_at). Locked first: a concurrent add of this tag
   * waits and then finds no tag (404), or commits first and is removed here.
   */
  async remove(id: string): Promise<void> {
    const tag = await this.requireById(id, 'pessimistic_write');
    await this.tags.touchMembersTagged(tag.id, new Date());
    await this.tags.delete(tag.id);
    this.totals.invalidate('members');
  }

  /**
   * A tag named by its `tag_` id or by its name (ignoring case), or null. `lock` as in RowLock:
   * `for_key_share` while putting it on a member (a concurrent delete waits, or has happened).
   */
  async resolve(ref: string, lock?: RowLock): Promise<TagEntity | null> {
    const id = parsePublicId(ID_PREFIX.tag, ref);
    if (id) return this.tags.findById(id, lock);
    const name = ref.trim();
    if (!name || name.length > TAG_NAME_MAX || !isStorableText(name)) return null;
    return this.tags.findByName(name, lock);
  }

  /** The `tag_` ids of the tags named by these refs (ids or names, ignoring case); unknown refs are left out. */
  async publicIdsOf(refs: string[]): Promise<string[]> {
    const ids = refs.map((r) => parsePublicId(ID_PREFIX.tag, r)).filter((id): id is string => id !== null);
    const names = refs.filter((r) => parsePublicId(ID_PREFIX.tag, r) === null).map((r) => r.trim().toLowerCase());
    return (await this.tags.idsOf(ids, names)).map((id) => toPublicId(ID_PREFIX.tag, id));
  }

  /** Puts the tag on the member and raises `tag.added`; nothing (false) when it was there already. */
  async attach(tag: TagEntity, member: TaggedMember): Promise<boolean> {
    if (!(await this.tags.attach(tag.id, member.id))) return false;
    await this.outbox.record('tag.added', toMemberTagEvent(tag, member));
    this.totals.invalidate('members');
    return true;
  }

  /** Takes the tag off the member and raises `tag.removed`; nothing (false) when it was not there. */
  async detach(tag: TagEntity, member: TaggedMember): Promise<boolean> {
    if (!(await this.tags.detach(tag.id, member.id))) return false;
    await this.outbox.record('tag.removed', toMemberTagEvent(tag, member));
    this.totals.invalidate('members');
    return true;
  }

  /** The tags of these members by member id, in one query; a member without tags is absent. */
  async refsOf(memberIds: string[]): Promise<Map<string, TagRef[]>> {
    const byMember = new Map<string, TagRef[]>();
    for (const row of await this.tags.tagsOfMembers(memberIds)) {
      const refs = byMember.get(row.memberId);
      if (refs) refs.push(toTagRef(row));
      else byMember.set(row.memberId, [toTagRef(row)]);
    }
    return byMember;
  }

  /** The church's tags (or those of `ids`) by id, each with its rank in a member's `tags`. */
  async rankedRefs(ids?: string[]): Promise<Map<string, RankedTagRef>> {
    return new Map((await this.tags.refsInOrder(ids)).map((row, rank) => [row.id, { ref: toTagRef(row), rank }]));
  }

  private async requireById(id: string, lock?: RowLock): Promise<TagEntity> {
    const tag = await this.tags.findById(id, lock);
    if (!tag) throw AppError.notFound('tag');
    return tag;
  }
}
