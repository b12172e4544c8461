import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { Format, MaxLen } from '../../../common/validation/rules';

export class AddressDto {
  @ApiPropertyOptional({ type: String, example: 'Av. Juárez 100', nullable: true })
  @IsOptional()
  @IsString()
  @MaxLen(200)
  line1?: string | null;
  @ApiPropertyOptional({ type: String, example: 'Piso 2', nullable: true })
  @IsOptional()
  @IsString()
  @MaxLen(200)
  line2?: string | null;
  @ApiPropertyOptional({ type: String, example: 'Guadalajara', nullable: true })
  @IsOptional()
  @IsString()
  @MaxLen(100)
  city?: string | null;
  @ApiPropertyOptional({ type: String, example: 'Jalisco', nullable: true })
  @IsOptional()
  @IsString()
  @MaxLen(100)
  region?: string | null;
  @ApiPropertyOptional({ type: String, example: '44100', nullable: true })
  @IsOptional()
  @IsString()
  @MaxLen(20)
  postal_code?: string | null;
  @ApiPropertyOptional({ type: String, example: 'MX', nullable: true, description: 'ISO 3166-1 alpha-2' })
  @IsOptional()
  @IsString()
  @Format(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2')
  country?: string | null;
}
