import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsString, Matches } from 'class-validator';
import { Format, MaxLen, MinLen } from '../../../common/validation/rules';

export const MEMBER_ID = /^mem_[0-9a-f]{32}$/;
export const MULTIPLY_LIMIT = 500;

export class MultiplyGroupDto {
  @ApiProperty({ example: 'Células Norte — jóvenes 2', maxLength: 200, description: 'The new group’s name.' })
  @IsDefined()
  @IsString()
  @MinLen(1)
  @MaxLen(200)
  name: string;

  @ApiProperty({
    type: [String],
    example: ['mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f'],
    minItems: 1,
    maxItems: MULTIPLY_LIMIT,
    description:
      'Members of this group who move to the new one (each must be in this group, else 422 and nothing moves).' +
      ' A member merged into another (POST /v1/members/{id}/merge) names the survivor.',
  })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1, { context: { issue: 'required' } })
  @ArrayMaxSize(MULTIPLY_LIMIT, { context: { issue: 'too_many', params: { max: MULTIPLY_LIMIT } } })
  @IsString({ each: true })
  @Matches(MEMBER_ID, { each: true, context: { issue: 'invalid_format', params: { format: 'mem_ id' } } })
  member_ids: string[];

  @ApiProperty({
    example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    description:
      'The new group’s leader: a member of this group (moved too when not in member_ids). Missing or not in the group: 422.' +
      ' A member merged into another (POST /v1/members/{id}/merge) names the survivor.',
  })
  @IsDefined()
  @IsString()
  @Format(MEMBER_ID, 'mem_ id')
  leader_id: string;
}
