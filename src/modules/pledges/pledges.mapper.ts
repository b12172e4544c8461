import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import type { PledgeResponse } from './dto/pledge.response';
import type { PledgeEntity } from './pledge.entity';

/** `given`: the pledge's net given amount (PledgesRepository.givenOf). */
export function toPledgeResponse(pledge: PledgeEntity, given: number): PledgeResponse {
  return {
    id: toPublicId(ID_PREFIX.pledge, pledge.id),
    donor_id: toPublicId(ID_PREFIX.member, pledge.donorId),
    fund_id: toPublicId(ID_PREFIX.fund, pledge.fundId),
    amount: pledge.amount,
    currency: pledge.currency,
    starts_on: pledge.startsOn,
    ends_on: pledge.endsOn,
    given,
    remaining: Math.max(pledge.amount - given, 0),
    created_at: pledge.createdAt.toISOString(),
    updated_at: pledge.updatedAt.toISOString(),
  };
}
