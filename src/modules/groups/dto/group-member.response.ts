import { ApiProperty } from '@nestjs/swagger';
import { MemberResponse } from '../../members/dto/member.response';
import { GROUP_ROLES } from '../group-member.entity';

/** A member of a group: the member as GET /v1/members/{id} returns it, plus their place in the group. */
export class GroupMemberResponse extends MemberResponse {
  @ApiProperty({ enum: GROUP_ROLES, example: 'leader' }) group_role: string;
  @ApiProperty({
    example: '2026-01-05T15:04:05.000Z',
    format: 'date-time',
    description: 'When the member joined this group (a multiply counts as joining the new group).',
  })
  joined_at: string;
}
