import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CampusRef } from '../../campuses/dto/campus.response';
import { TagRef } from '../../tags/dto/tag.response';
import { GENDERS, HOUSEHOLD_ROLES, HouseholdRole, MEMBER_STATUSES } from '../member.entity';
import { AddressDto } from './address.dto';

export class MemberResponse {
  @ApiProperty({ example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'María' }) first_name: string;
  @ApiProperty({ example: 'González' }) last_name: string;
  @ApiProperty({ example: 'maria@example.org', nullable: true, type: String }) email: string | null;
  @ApiProperty({ example: '+5213312345678', nullable: true, type: String }) phone: string | null;
  @ApiProperty({ example: '1988-04-17', nullable: true, type: String, format: 'date' }) birthdate: string | null;
  @ApiProperty({
    example: 37,
    nullable: true,
    type: Number,
    description: 'Whole years from birthdate (UTC today); null when unknown.',
  })
  age: number | null;
  @ApiProperty({ enum: GENDERS, nullable: true }) gender: string | null;
  @ApiProperty({ example: 'Femenino', nullable: true, type: String, description: 'Localized by Accept-Language.' })
  gender_label: string | null;
  @ApiProperty({ enum: MEMBER_STATUSES }) status: string;
  @ApiProperty({ example: 'Miembro', description: 'Localized by Accept-Language.' }) status_label: string;
  @ApiProperty({ type: CampusRef, nullable: true }) campus: CampusRef | null;
  @ApiProperty({ example: true }) active: boolean;
  @ApiProperty({
    example: 'hh_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    nullable: true,
    type: String,
    description: 'The household the member belongs to (at most one); null when none.',
  })
  household_id: string | null;
  @ApiProperty({
    enum: HOUSEHOLD_ROLES,
    nullable: true,
    example: 'spouse',
    description:
      'Role in the household; null exactly when household_id is. Joining by `household_id` gives `other`; POST /v1/households/{id}/members sets any role.',
  })
  household_role: HouseholdRole | null;
  @ApiPropertyOptional({ type: AddressDto, nullable: true }) address: AddressDto | null;
  @ApiProperty({ example: { baptized: true }, type: 'object', additionalProperties: true }) custom_fields: Record<
    string,
    unknown
  >;
  @ApiProperty({
    type: [TagRef],
    description: 'The tags on the member, by name (PUT/DELETE /v1/members/{id}/tags/{tag}).',
  })
  tags: TagRef[];
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) updated_at: string;
}

export class FieldError {
  @ApiProperty({ example: 'email' }) field: string;
  @ApiProperty({ example: 'invalid_format' }) issue: string;
  @ApiProperty({ example: 'This value does not have the expected format (email).' }) message: string;
}

export class BulkRowError {
  @ApiProperty({ example: 'validation_failed' }) code: string;
  @ApiProperty({ type: [FieldError] }) errors: FieldError[];
}

export class BulkRowResult {
  @ApiProperty({ example: 0 }) index: number;
  @ApiPropertyOptional({ example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id?: string;
  @ApiPropertyOptional({ type: BulkRowError }) error?: BulkRowError;
}

export class BulkCreateMembersResponse {
  @ApiProperty({ example: 498 }) created: number;
  @ApiProperty({ example: 2 }) failed: number;
  @ApiProperty({ type: [BulkRowResult] }) results: BulkRowResult[];
}
