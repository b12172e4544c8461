import { ApiProperty } from '@nestjs/swagger';
import { IsArray, IsDefined } from 'class-validator';
import { CreateMemberDto } from './create-member.dto';

export const BULK_LIMIT = 500;

export class BulkCreateMembersDto {
  @ApiProperty({
    type: [CreateMemberDto],
    maxItems: BULK_LIMIT,
    description: 'Each row is validated on its own; valid rows are created even when others fail.',
  })
  @IsDefined()
  @IsArray()
  members: unknown[];
}
