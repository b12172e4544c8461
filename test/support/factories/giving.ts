import type { BatchResponse } from '../../../src/modules/batches/dto/batch.response';
import type { DonationResponse } from '../../../src/modules/donations/dto/donation.response';
import type { FundResponse } from '../../../src/modules/funds/dto/fund.response';
import type { PledgeResponse } from '../../../src/modules/pledges/dto/pledge.response';
import type { RecurringGiftResponse } from '../../../src/modules/recurring-gifts/dto/recurring-gift.response';
import type { Call, JsonObject, TestApi } from '../api';
import type { Caller } from '../http';
import { created, uniqueName } from './create';

/** POST /v1/funds; a unique name unless `body` gives one. */
export function newFund(api: TestApi, church: Caller, body: JsonObject = {}, call?: Call): Promise<FundResponse> {
  return created(api, church, '/v1/funds', { name: uniqueName('Fund'), ...body }, call);
}

/**
 * POST /v1/donations. The route allows 30 requests a minute per token: a suite that records many
 * gifts passes `{ token: await pool.next() }` from a TokenPool of write:donations tokens.
 */
export function newDonation(api: TestApi, church: Caller, body: JsonObject, call?: Call): Promise<DonationResponse> {
  return created(api, church, '/v1/donations', body, call);
}

/** POST /v1/pledges. */
export function newPledge(api: TestApi, church: Caller, body: JsonObject, call?: Call): Promise<PledgeResponse> {
  return created(api, church, '/v1/pledges', body, call);
}

/** POST /v1/recurring-gifts. */
export function newRecurringGift(
  api: TestApi,
  church: Caller,
  body: JsonObject,
  call?: Call,
): Promise<RecurringGiftResponse> {
  return created(api, church, '/v1/recurring-gifts', body, call);
}

/** POST /v1/batches; "Sunday" in USD unless `body` says otherwise. */
export function newBatch(api: TestApi, church: Caller, body: JsonObject = {}, call?: Call): Promise<BatchResponse> {
  return created(api, church, '/v1/batches', { description: 'Sunday', currency: 'USD', ...body }, call);
}
