import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { Format, MaxLen, MinLen } from '../../../common/validation/rules';
import { AddressDto } from '../../members/dto/address.dto';

export const MEMBER_ID_FORMAT = /^mem_[0-9a-f]{32}$/;

/** The household write body (POST). PATCH takes any subset (UpdateHouseholdDto). */
export class CreateHouseholdDto {
  @ApiProperty({ example: 'Familia González', minLength: 1, maxLength: 120 })
  @IsDefined()
  @IsString()
  @MinLen(1)
  @MaxLen(120)
  name: string;

  @ApiPropertyOptional({ type: AddressDto, nullable: true, description: 'The same address object as a member’s.' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AddressDto)
  address?: AddressDto | null;

  @ApiPropertyOptional({
    type: String,
    example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    nullable: true,
    description:
      'A live member of the church (else 422 `not_found`); need not be in the household. Shown as null once that member is deleted.' +
      ' A member merged into another (POST /v1/members/{id}/merge) names the survivor.',
  })
  @IsOptional()
  @IsString()
  @Format(MEMBER_ID_FORMAT, 'mem_ id')
  primary_contact_id?: string | null;
}
