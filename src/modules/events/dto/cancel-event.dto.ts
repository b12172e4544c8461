import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { MaxLen } from '../../../common/validation/rules';

export class CancelEventDto {
  @ApiPropertyOptional({
    type: String,
    example: 'Hurricane warning: the building is closed.',
    nullable: true,
    maxLength: 1000,
    description: 'Told to the registrants in the cancellation e-mail.',
  })
  @IsOptional()
  @IsString()
  @MaxLen(1000)
  reason?: string | null;
}
