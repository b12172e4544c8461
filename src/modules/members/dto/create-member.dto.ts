import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsEmail, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { DATE_ONLY, E164, Format, MaxLen, MinLen, OneOf } from '../../../common/validation/rules';
import { GENDERS, MEMBER_STATUSES } from '../member.entity';
import { AddressDto } from './address.dto';
import { IsCustomFields } from './custom-fields.validator';
import { IsPastDate } from './past-date.validator';

/** The member write body (POST and PUT). PATCH takes any subset (UpdateMemberDto). */
export class CreateMemberDto {
  @ApiProperty({ example: 'María', maxLength: 100 })
  @IsDefined()
  @IsString()
  @MinLen(1)
  @MaxLen(100)
  first_name: string;

  @ApiProperty({ example: 'González', maxLength: 100 })
  @IsDefined()
  @IsString()
  @MinLen(1)
  @MaxLen(100)
  last_name: string;

  @ApiPropertyOptional({ type: String, example: 'maria@example.org', nullable: true, format: 'email' })
  @IsOptional()
  @IsString()
  @IsEmail()
  @MaxLen(254)
  email?: string | null;

  @ApiPropertyOptional({ type: String, example: '+5213312345678', nullable: true, description: 'E.164' })
  @IsOptional()
  @IsString()
  @Format(E164, 'E.164, e.g. +5213312345678')
  phone?: string | null;

  @ApiPropertyOptional({ type: String, example: '1988-04-17', nullable: true, format: 'date' })
  @IsOptional()
  @IsString()
  @Format(DATE_ONLY, 'YYYY-MM-DD')
  @IsPastDate()
  birthdate?: string | null;

  @ApiPropertyOptional({ enum: GENDERS, nullable: true })
  @IsOptional()
  @OneOf(GENDERS)
  gender?: (typeof GENDERS)[number] | null;

  @ApiPropertyOptional({ enum: MEMBER_STATUSES, default: 'visitor' })
  @IsOptional()
  @OneOf(MEMBER_STATUSES)
  status?: (typeof MEMBER_STATUSES)[number];

  @ApiPropertyOptional({ type: String, example: 'north', nullable: true, description: 'Campus key or cmp_ id.' })
  @IsOptional()
  @IsString()
  @MaxLen(64)
  campus?: string | null;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({
    type: String,
    example: 'hh_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    nullable: true,
    description:
      'A live household of the church (else 422 `not_found`). Moving into another household sets `household_role` to `other` (POST /v1/households/{id}/members chooses the role); naming the current one keeps the role; null leaves the household and clears the role.',
  })
  @IsOptional()
  @IsString()
  @Format(/^hh_[0-9a-f]{32}$/, 'hh_ id')
  household_id?: string | null;

  @ApiPropertyOptional({ type: AddressDto, nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AddressDto)
  address?: AddressDto | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: {
      oneOf: [{ type: 'string', maxLength: 500 }, { type: 'number' }, { type: 'boolean' }],
      nullable: true,
    },
    example: { baptized: true, shirt_size: 'M' },
    description:
      'Values of the church’s custom fields (GET /v1/custom-fields), by key: a string (≤ 500) for text, a number, true/false, YYYY-MM-DD for date, one of the options for select; null for no value. An undefined key or a value of the wrong type is a 422 naming `custom_fields.<key>` (unknown_field, invalid_type, not_in_options); a required field left out on create or PUT is `missing`. PATCH merges key by key; PUT replaces them all.',
  })
  @IsOptional()
  @IsCustomFields()
  custom_fields?: Record<string, string | number | boolean | null>;
}
