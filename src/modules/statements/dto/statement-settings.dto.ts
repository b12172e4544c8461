import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, IsTimeZone, ValidateNested } from 'class-validator';
import { LANGUAGES } from '../../../common/i18n/language';
import { MaxLen, OneOf } from '../../../common/validation/rules';
import { AddressDto } from '../../members/dto/address.dto';

/** PUT /v1/settings/statements: replaces the settings; an absent field takes its default. */
export class StatementSettingsDto {
  @ApiPropertyOptional({
    enum: LANGUAGES,
    default: 'es',
    example: 'es',
    description: 'The language statements are written in (es, en or pt).',
  })
  @IsOptional()
  @OneOf(LANGUAGES)
  language?: (typeof LANGUAGES)[number];

  @ApiPropertyOptional({
    type: String,
    default: 'UTC',
    example: 'America/Mexico_City',
    description: 'IANA time zone: a year runs from January 1 to December 31 in it, and gift dates are printed in it.',
  })
  @IsOptional()
  @IsString()
  @IsTimeZone()
  timezone?: string;

  @ApiPropertyOptional({
    type: AddressDto,
    nullable: true,
    description: 'The church’s address, printed in the letterhead.',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AddressDto)
  address?: AddressDto | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'IBE850101AB1',
    description: 'The church’s tax identification (EIN, RFC, CNPJ…), printed under the address.',
  })
  @IsOptional()
  @IsString()
  @MaxLen(50)
  tax_id?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'María José Ortiz',
    description: 'Printed under the signature line (default: the church’s name).',
  })
  @IsOptional()
  @IsString()
  @MaxLen(100)
  signer_name?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'Tesorera',
    description: 'Printed under the signer’s name (default: “Treasurer” in the statement’s language).',
  })
  @IsOptional()
  @IsString()
  @MaxLen(100)
  signer_title?: string | null;
}

export class StatementSettingsResponse {
  @ApiProperty({ enum: LANGUAGES, example: 'es' }) language: string;
  @ApiProperty({ example: 'America/Mexico_City' }) timezone: string;
  @ApiProperty({ type: AddressDto, nullable: true }) address: AddressDto | null;
  @ApiProperty({ type: String, nullable: true, example: 'IBE850101AB1' }) tax_id: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'María José Ortiz' }) signer_name: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Tesorera' }) signer_title: string | null;
}
