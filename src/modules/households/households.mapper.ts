import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import { HOUSEHOLD_ROLES, type MemberEntity } from '../members/member.entity';
import type { HouseholdMemberRef, HouseholdResponse } from './dto/household.response';
import type { HouseholdEntity } from './household.entity';

/** Live members loaded for a set of households (and their primary contacts), in one query. */
export class Roster {
  private readonly byHousehold = new Map<string, MemberEntity[]>();
  private readonly live = new Set<string>();

  constructor(members: MemberEntity[]) {
    for (const member of members) {
      this.live.add(member.id);
      if (!member.householdId) continue;
      const list = this.byHousehold.get(member.householdId) ?? [];
      list.push(member);
      this.byHousehold.set(member.householdId, list);
    }
  }

  membersOf(householdId: string): MemberEntity[] {
    return [...(this.byHousehold.get(householdId) ?? [])].sort(byRoleThenName);
  }

  isLive(memberId: string): boolean {
    return this.live.has(memberId);
  }
}

function byRoleThenName(a: MemberEntity, b: MemberEntity): number {
  const rank = HOUSEHOLD_ROLES.indexOf(a.householdRole!) - HOUSEHOLD_ROLES.indexOf(b.householdRole!);
  return (
    rank || a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName) || a.id.localeCompare(b.id)
  );
}

export function toHouseholdResponse(household: HouseholdEntity, roster: Roster): HouseholdResponse {
  const contact = household.primaryContactId;
  return {
    id: toPublicId(ID_PREFIX.household, household.id),
    name: household.name,
    address: household.address,
    primary_contact_id: contact && roster.isLive(contact) ? toPublicId(ID_PREFIX.member, contact) : null,
    members: roster.membersOf(household.id).map(toMemberRef),
    created_at: household.createdAt.toISOString(),
    updated_at: household.updatedAt.toISOString(),
  };
}

function toMemberRef(member: MemberEntity): HouseholdMemberRef {
  return {
    id: toPublicId(ID_PREFIX.member, member.id),
    first_name: member.firstName,
    last_name: member.lastName,
    household_role: member.householdRole!,
  };
}
