import { PartialType, PickType } from '@nestjs/swagger';
import { CreateDonationDto } from './create-donation.dto';

/** PATCH: the fund, campus, note and check number only. Money is never edited: refund and enter it again. */
export class UpdateDonationDto extends PartialType(
  PickType(CreateDonationDto, ['fund_id', 'campus', 'note', 'check_number'] as const),
) {}
