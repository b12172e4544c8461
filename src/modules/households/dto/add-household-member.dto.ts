import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString } from 'class-validator';
import { Format, OneOf } from '../../../common/validation/rules';
import { HOUSEHOLD_ROLES, type HouseholdRole } from '../../members/member.entity';
import { MEMBER_ID_FORMAT } from './create-household.dto';

export class AddHouseholdMemberDto {
  @ApiProperty({
    example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    description:
      'A live member of the church (else 422 `not_found`). A member merged into another (POST /v1/members/{id}/merge) names the survivor, who joins.',
  })
  @IsDefined()
  @IsString()
  @Format(MEMBER_ID_FORMAT, 'mem_ id')
  member_id: string;

  @ApiPropertyOptional({
    enum: HOUSEHOLD_ROLES,
    example: 'spouse',
    description: 'Omitted: a member already in this household keeps their role; one joining it gets `other`.',
  })
  @IsOptional()
  @OneOf(HOUSEHOLD_ROLES)
  household_role?: HouseholdRole;
}
