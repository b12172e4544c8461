import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsEmail, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { MaxLen, MinLen } from '../../../common/validation/rules';

export class GuestDto {
  @ApiProperty({ example: 'Ana', maxLength: 100 })
  @IsDefined()
  @IsString()
  @MinLen(1)
  @MaxLen(100)
  first_name: string;

  @ApiProperty({ example: 'Torres', maxLength: 100 })
  @IsDefined()
  @IsString()
  @MinLen(1)
  @MaxLen(100)
  last_name: string;

  @ApiPropertyOptional({ type: String, example: 'ana.torres@example.org', nullable: true, format: 'email' })
  @IsOptional()
  @IsString()
  @IsEmail()
  @MaxLen(254)
  email?: string | null;
}

/** Exactly one of `member_id` and `guest`. */
export class CreateRegistrationDto {
  @ApiPropertyOptional({
    type: String,
    example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    description:
      'The member who registers (mem_ id). Exactly one of member_id and guest. A member merged into another registers the survivor (the answer’s `member` shows it).',
  })
  @IsOptional()
  @IsString()
  @MaxLen(64)
  member_id?: string;

  @ApiPropertyOptional({
    type: GuestDto,
    description: 'Someone who is not a member. Exactly one of member_id and guest.',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => GuestDto)
  guest?: GuestDto;
}
