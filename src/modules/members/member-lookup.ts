import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import type { RowLock } from '../../database/row-lock';
import type { MemberEntity } from './member.entity';
import { MemberName, MembersRepository } from './members.repository';

export type { MemberName } from './members.repository';

/**
 * Members by id, for the other modules: whether a member is live (not deleted), who they are, in
 * the current tenant transaction. Every module that names a member by id asks here, never the
 * members table itself, so that what a member id resolves to is decided in one place.
 */
@Injectable()
export class MemberLookup {
  constructor(private readonly members: MembersRepository) {}

  /** Whether the church has this live member; with `lock`, the row stays locked until the transaction ends (see RowLock). */
  async isLive(id: string, lock?: RowLock): Promise<boolean> {
    return (await this.members.existingIds([id], { lock })).size > 0;
  }

  /** As isLive, else 404 `not_found` (member). */
  async requireLive(id: string, lock?: RowLock): Promise<void> {
    if (!(await this.isLive(id, lock))) throw AppError.notFound('member');
  }

  /** The live members among `ids` (one query). */
  async liveIds(ids: string[]): Promise<Set<string>> {
    return ids.length ? this.members.existingIds(ids) : new Set();
  }

  /** The members among `ids`, deleted ones too (their records keep them), one query. */
  async existingIds(ids: string[]): Promise<Set<string>> {
    return ids.length ? this.members.existingIds(ids, { deleted: true }) : new Set();
  }

  /** The live member with this id, by name, or null. */
  async findLive(id: string): Promise<MemberName | null> {
    return (await this.members.names([id]))[0] ?? null;
  }

  /**
   * The live member a write that names `id` lands on (CONTRACT §17): the member, or, for a member
   * merged into another, the survivor; null when neither. One query for a live member. With `lock`,
   * the rows read stay locked until the transaction ends (see MembersRepository.findLiveOrSurvivor).
   * Used by the writes that follow merges (a donation's donor, a registration); the other look-ups
   * here do not follow them: a merged member is a deleted one.
   */
  async findLiveOrSurvivor(id: string, lock?: RowLock): Promise<MemberName | null> {
    const member = await this.members.findLiveOrSurvivor(id, lock);
    return member && { id: member.id, firstName: member.firstName, lastName: member.lastName, email: member.email };
  }

  /**
   * findLiveOrSurvivor for many ids (a check-in's people, a notification's recipients): each of
   * `ids` → the id of the live member a write naming it lands on; ids that lead nowhere are absent.
   * With `lock`, the rows read stay locked until the transaction ends.
   */
  async liveOrSurvivorIds(ids: string[], lock?: RowLock): Promise<Map<string, string>> {
    return ids.length ? this.members.liveOrSurvivorIds([...new Set(ids)], lock) : new Map();
  }

  /**
   * For a read of a member's sub-resource (`/v1/members/{id}/<subPath>`): nothing when the member is
   * live; a 301 `member_merged` to the survivor's same sub-path when it was merged (CONTRACT §17);
   * else 404 `not_found` (member).
   */
  async requireLiveForRead(id: string, subPath: string): Promise<void> {
    const member = await this.members.findLiveOrSurvivor(id);
    if (!member) throw AppError.notFound('member');
    if (member.id !== id) throw memberMerged(member.id, subPath);
  }

  /** The live members among `ids`, by name (one query). */
  async liveNames(ids: string[]): Promise<MemberName[]> {
    return ids.length ? this.members.names(ids) : [];
  }

  /** The members among `ids` by id, deleted ones too (a past record keeps its member's name), in one query. */
  async names(ids: string[]): Promise<Map<string, MemberName>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    return new Map((await this.members.names(unique, { deleted: true })).map((m) => [m.id, m]));
  }

  /** The live members among `ids`, whole, in id order; with `lock`, locked until the transaction ends. */
  async live(ids: string[], lock?: RowLock): Promise<MemberEntity[]> {
    return ids.length ? this.members.findLiveMany(ids, lock) : [];
  }

  /**
   * The live members among `ids` by name, each with the value of their custom field `key` (null
   * when none) when the church defines such a field, else without `value`; one query.
   */
  withCustomField(ids: string[], key: string): Promise<(Omit<MemberName, 'email'> & { value?: string | null })[]> {
    return this.members.withCustomField(ids, key);
  }
}

/**
 * A read naming a member merged into `survivorId` (CONTRACT §17): 301 `member_merged`, `Location` the
 * survivor's same path (`/v1/members/<survivor>` and `subPath`, if any), `merged_into` its id.
 */
export function memberMerged(survivorId: string, subPath?: string): AppError {
  const survivor = toPublicId(ID_PREFIX.member, survivorId);
  return new AppError(
    'member_merged',
    { merged_into: survivor },
    [],
    { Location: `/v1/members/${survivor}${subPath ? `/${subPath}` : ''}` },
    { merged_into: survivor },
  );
}
