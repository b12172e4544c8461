import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, IsTimeZone } from 'class-validator';
import { Format, MaxLen } from '../../../common/validation/rules';

export class CreateCampusDto {
  @ApiProperty({ example: 'north', description: 'Slug, unique in the church: lowercase letters, digits and dashes.' })
  @IsDefined()
  @IsString()
  @Format(/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/, 'slug')
  key: string;

  @ApiProperty({ example: 'North Campus', maxLength: 120 })
  @IsDefined()
  @IsString()
  @MaxLen(120)
  name: string;

  @ApiPropertyOptional({
    type: String,
    example: 'America/Mexico_City',
    nullable: true,
    description: 'IANA time zone of the campus.',
  })
  @IsOptional()
  @IsString()
  @IsTimeZone()
  timezone?: string | null;
}
