import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { MAX_AMOUNT } from '../../../common/money/currencies';
import { IsAmount } from '../../../common/money/money.validators';

export class RefundDonationDto {
  @ApiPropertyOptional({
    example: 1000,
    type: 'integer',
    minimum: 1,
    maximum: MAX_AMOUNT,
    description:
      'Minor units to refund; absent: all that is left. More than what is left is 422 `refund_exceeds_remaining`.',
  })
  @IsOptional()
  @IsAmount()
  amount?: number;
}
