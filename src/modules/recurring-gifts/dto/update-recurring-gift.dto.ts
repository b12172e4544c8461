import { ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { OneOf } from '../../../common/validation/rules';
import { RECURRING_STATUSES, type RecurringStatus } from '../recurring-gift.entity';
import { CreateRecurringGiftDto } from './create-recurring-gift.dto';

/**
 * PATCH: any subset of the write fields but the donor (another donor is another gift), plus
 * `status`, which pauses (`paused`), resumes (`active`) or cancels (`canceled`) the gift.
 */
export class UpdateRecurringGiftDto extends PartialType(OmitType(CreateRecurringGiftDto, ['donor_id'] as const)) {
  @ApiPropertyOptional({
    enum: RECURRING_STATUSES,
    example: 'paused',
    description:
      '`paused` stops the charges, `active` resumes them on the next regular date, `canceled` ends the gift for good (a canceled gift cannot change again: 409).',
  })
  @IsOptional()
  @OneOf(RECURRING_STATUSES)
  status?: RecurringStatus;
}
