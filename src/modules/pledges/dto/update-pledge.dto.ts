import { OmitType, PartialType } from '@nestjs/swagger';
import { CreatePledgeDto } from './create-pledge.dto';

/** PATCH: any subset of the write fields but the donor (another donor's promise is another pledge). */
export class UpdatePledgeDto extends PartialType(OmitType(CreatePledgeDto, ['donor_id'] as const)) {}
