import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { OneOf } from '../../../common/validation/rules';
import { GROUP_ROLES, type GroupRole } from '../group-member.entity';

export class PutGroupMemberDto {
  @ApiPropertyOptional({ enum: GROUP_ROLES, example: 'leader', description: 'Omitted: a member joining gets `member`; one already in the group keeps their role.' })
  @IsOptional()
  @OneOf(GROUP_ROLES)
  group_role?: GroupRole;
}
