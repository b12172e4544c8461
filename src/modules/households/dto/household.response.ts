import { ApiProperty } from '@nestjs/swagger';
import { AddressDto } from '../../members/dto/address.dto';
import { HOUSEHOLD_ROLES, type HouseholdRole } from '../../members/member.entity';

/** A member as a household lists them. */
export class HouseholdMemberRef {
  @ApiProperty({ example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'María' }) first_name: string;
  @ApiProperty({ example: 'González' }) last_name: string;
  @ApiProperty({ enum: HOUSEHOLD_ROLES, example: 'spouse' }) household_role: HouseholdRole;
}

export class HouseholdResponse {
  @ApiProperty({ example: 'hh_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'Familia González' }) name: string;
  @ApiProperty({ type: AddressDto, nullable: true }) address: AddressDto | null;
  @ApiProperty({
    example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    nullable: true,
    type: String,
    description: 'A live member; null when none is set or that member was deleted.',
  })
  primary_contact_id: string | null;
  @ApiProperty({
    type: [HouseholdMemberRef],
    description: 'The live members, by role (head, spouse, adult, child, other), then last and first name.',
  })
  members: HouseholdMemberRef[];
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) updated_at: string;
}
