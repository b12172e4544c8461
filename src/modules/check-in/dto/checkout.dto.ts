import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString } from 'class-validator';
import { MaxLen } from '../../../common/validation/rules';

/** POST /v1/check-ins/{id}/checkout */
export class CheckoutDto {
  @ApiProperty({
    example: 'K7XD',
    maxLength: 16,
    description: 'The security code on the parent label (any letter case).',
  })
  @IsDefined()
  @IsString()
  @MaxLen(16)
  security_code: string;
}
