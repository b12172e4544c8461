import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsEmail, IsOptional, IsString } from 'class-validator';
import { E164, Format, MaxLen, MinLen, OneOf } from '../../../common/validation/rules';
import { PROSPECT_SOURCES, WRITABLE_STAGES } from '../prospect.entity';
import { IsCalendarDate } from './follow-up-date.validator';

export const NOTES_MAX = 4000;

/** The prospect write body (POST). PATCH takes any subset (UpdateProspectDto). */
export class CreateProspectDto {
  @ApiProperty({ example: 'Lucía', maxLength: 100 })
  @IsDefined()
  @IsString()
  @MinLen(1)
  @MaxLen(100)
  first_name: string;

  @ApiProperty({ example: 'Ramírez', maxLength: 100 })
  @IsDefined()
  @IsString()
  @MinLen(1)
  @MaxLen(100)
  last_name: string;

  @ApiPropertyOptional({ type: String, example: 'lucia@example.org', nullable: true, format: 'email' })
  @IsOptional()
  @IsString()
  @IsEmail()
  @MaxLen(254)
  email?: string | null;

  @ApiPropertyOptional({ type: String, example: '+5213398765432', nullable: true, description: 'E.164' })
  @IsOptional()
  @IsString()
  @Format(E164, 'E.164, e.g. +5213312345678')
  phone?: string | null;

  @ApiPropertyOptional({ type: String, example: 'north', nullable: true, description: 'Campus key or cmp_ id.' })
  @IsOptional()
  @IsString()
  @MaxLen(64)
  campus?: string | null;

  @ApiPropertyOptional({ enum: PROSPECT_SOURCES, nullable: true, description: 'How the church met the person.' })
  @IsOptional()
  @OneOf(PROSPECT_SOURCES)
  source?: (typeof PROSPECT_SOURCES)[number] | null;

  @ApiPropertyOptional({
    enum: WRITABLE_STAGES,
    default: 'new',
    description: 'Pipeline stage. `converted` is set only by POST /v1/prospects/{id}/convert.',
  })
  @IsOptional()
  @OneOf(WRITABLE_STAGES)
  stage?: (typeof WRITABLE_STAGES)[number];

  @ApiPropertyOptional({
    type: String,
    example: 'usr_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    nullable: true,
    description: 'The staff user (usr_ id) who follows the prospect up.',
  })
  @IsOptional()
  @IsString()
  @MaxLen(64)
  assigned_to?: string | null;

  @ApiPropertyOptional({
    type: String,
    example: '2026-02-01',
    nullable: true,
    format: 'date',
    description: 'When to follow up (YYYY-MM-DD).',
  })
  @IsOptional()
  @IsString()
  @IsCalendarDate()
  follow_up_on?: string | null;

  @ApiPropertyOptional({
    type: String,
    example: 'Came with the Ortiz family; interested in the youth group.',
    nullable: true,
    maxLength: NOTES_MAX,
  })
  @IsOptional()
  @IsString()
  @MaxLen(NOTES_MAX)
  notes?: string | null;
}
