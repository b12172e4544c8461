import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString } from 'class-validator';
import { MaxLen, MinLen } from '../../../common/validation/rules';

export class CreateDeviceDto {
  @ApiProperty({ example: 'Lobby kiosk 1', maxLength: 100 })
  @IsDefined()
  @IsString()
  @MinLen(1)
  @MaxLen(100)
  name: string;

  @ApiPropertyOptional({
    type: String,
    example: 'north',
    nullable: true,
    description: 'Campus key or cmp_ id where the kiosk stands.',
  })
  @IsOptional()
  @IsString()
  @MaxLen(64)
  campus?: string | null;
}
