import { Injectable } from '@nestjs/common';
import { DEFAULT_HOUSEHOLD_ROLE, type HouseholdRole, type MemberEntity } from './member.entity';
import { MembersRepository } from './members.repository';
import { MembersService } from './members.service';

/**
 * The member side of households (used by the households module): who is in them, and moves in
 * and out. A move is a member write: the member row is locked first (concurrent moves of one
 * member run one after the other, so the member ends in exactly one household) and it raises
 * `member.updated`, as a PATCH of the member's household_id does.
 * Callers lock the household first (FOR KEY SHARE, or FOR UPDATE to delete it): household, then member.
 */
@Injectable()
export class MemberHouseholdsService {
  constructor(
    private readonly members: MembersRepository,
    private readonly service: MembersService,
  ) {}

  /** The live members of these households and the live members among `alsoIds`, in one query. */
  roster(householdIds: string[], alsoIds: string[] = []): Promise<MemberEntity[]> {
    return this.members.inHouseholds(householdIds, alsoIds);
  }

  /**
   * Puts the member in the household with `role` (from any other household). Without a role, a
   * member already there keeps theirs and a newcomer gets DEFAULT_HOUSEHOLD_ROLE (`other`). Nothing changes, and nothing is
   * raised, when the member is already there in that role. False when there is no such member. A
   * member merged into another names the survivor (CONTRACT §17).
   */
  async join(memberId: string, householdId: string, role: HouseholdRole | undefined): Promise<boolean> {
    // A member merged into another names the survivor (CONTRACT §17); one that waited for a merge follows it.
    const member = await this.members.findLiveOrSurvivor(memberId, 'for_no_key_update');
    if (!member) return false;
    const householdRole = role ?? (member.householdId === householdId ? member.householdRole! : DEFAULT_HOUSEHOLD_ROLE);
    if (member.householdId === householdId && member.householdRole === householdRole) return true;
    await this.write(member, { householdId, householdRole, updatedAt: new Date() });
    return true;
  }

  /** Takes the member out of the household; false when they are not a live member of it. */
  async leave(memberId: string, householdId: string): Promise<boolean> {
    const member = await this.members.findLive(memberId, 'for_no_key_update');
    if (!member || member.householdId !== householdId) return false;
    await this.write(member, { householdId: null, householdRole: null, updatedAt: new Date() });
    return true;
  }

  /** Every member of a household leaves it (the household is being deleted): one `member.updated` each. */
  async detachAll(householdId: string): Promise<void> {
    const updatedAt = new Date();
    const detached = await this.members.detachHousehold(householdId, updatedAt);
    await this.service.recordUpdated(
      detached.map((m) => ({ before: m, after: { ...m, householdId: null, householdRole: null, updatedAt } })),
    );
  }

  private async write(
    member: MemberEntity,
    changes: Pick<MemberEntity, 'householdId' | 'householdRole' | 'updatedAt'>,
  ): Promise<void> {
    await this.members.update(member.id, changes);
    await this.service.recordUpdated([{ before: member, after: { ...member, ...changes } }]);
  }
}
