import { ApiProperty } from '@nestjs/swagger';
import { MemberResponse } from './member.response';

/** The survivor as GET returns it after the merge, and the member merged into it. */
export class MemberMergedEvent extends MemberResponse {
  @ApiProperty({
    example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e60',
    description: 'The member merged into this one (now deleted; its id answers 301 to this one).',
  })
  duplicate_id: string;
}

const count = (description: string) => ({ type: 'integer' as const, minimum: 0, example: 0, description });

/** What moved from the duplicate to the survivor: one count per kind of record. */
export class MergeMovedCounts {
  @ApiProperty(count('Donations whose donor is now the survivor.')) donations: number;
  @ApiProperty(count('Recurring gifts whose donor is now the survivor.')) recurring_gifts: number;
  @ApiProperty(count('Pledges whose donor is now the survivor.')) pledges: number;
  @ApiProperty(
    count(
      "Statements that list the survivor's gifts instead of the duplicate's (a statement that listed both keeps one link).",
    ),
  )
  statements: number;
  @ApiProperty(
    count(
      "Attendance records now the survivor's (where both attended the same event, the survivor's record stays and the duplicate's is removed).",
    ),
  )
  attendance: number;
  @ApiProperty(count('Kiosk check-ins (household visits) that now name the survivor.')) check_ins: number;
  @ApiProperty(
    count(
      "Event registrations now the survivor's (where both were registered for the same event, the duplicate's is removed and its seat freed).",
    ),
  )
  registrations: number;
  @ApiProperty(
    count(
      "Group memberships now the survivor's. One per group: where both were in a group the survivor's stays, as leader if either was one, since the earlier joined_at.",
    ),
  )
  group_memberships: number;
  @ApiProperty(count('Tags the survivor gained (tags both had are counted once, as the survivor’s).')) tags: number;
  @ApiProperty(
    count(
      "1 when the survivor took the duplicate's household (it had none, or `prefer.household_id` was `duplicate`), else 0.",
    ),
  )
  household: number;
  @ApiProperty(count('Households whose primary contact is now the survivor.')) household_contacts: number;
  @ApiProperty(count('Converted prospects whose member_id is now the survivor.')) prospects: number;
  @ApiProperty(count('Push tokens (devices) now registered to the survivor.')) push_tokens: number;
  @ApiProperty(count('Prayer requests that now name the survivor.')) prayer_requests: number;
}

/** The answer of POST /v1/members/{id}/merge: the survivor after the merge, and what moved to it. */
export class MemberMergeResponse extends MemberMergedEvent {
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'hh_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    description:
      'The household the duplicate was in (null when none). The survivor keeps its own household; it takes this one only when it had none (or `prefer.household_id` is `duplicate`): `moved.household` says whether it did.',
  })
  duplicate_household_id: string | null;
  @ApiProperty({ type: MergeMovedCounts }) moved: MergeMovedCounts;
}
