import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import type { RecurringChargeFailedEvent, RecurringGiftResponse } from './dto/recurring-gift.response';
import type { RecurringGiftEntity } from './recurring-gift.entity';
import { nextChargeOn } from './schedule';

/** `today`: the UTC calendar date the response is made on (next_charge_on is computed from it). */
export function toRecurringGiftResponse(gift: RecurringGiftEntity, today: string): RecurringGiftResponse {
  return {
    id: toPublicId(ID_PREFIX.recurringGift, gift.id),
    donor_id: toPublicId(ID_PREFIX.member, gift.donorId),
    amount: gift.amount,
    currency: gift.currency,
    fund_id: toPublicId(ID_PREFIX.fund, gift.fundId),
    interval: gift.interval,
    start_on: gift.startOn,
    end_on: gift.endOn,
    status: gift.status,
    next_charge_on: gift.status === 'active' ? nextChargeOn(gift.startOn, gift.interval, gift.endOn, today) : null,
    canceled_at: gift.canceledAt ? gift.canceledAt.toISOString() : null,
    created_at: gift.createdAt.toISOString(),
    updated_at: gift.updatedAt.toISOString(),
  };
}

export function toChargeFailedEvent(
  gift: RecurringGiftResponse,
  failure: { reason: string; invoiceId: string | null; at: Date },
): RecurringChargeFailedEvent {
  return { ...gift, failure: { reason: failure.reason, invoice_id: failure.invoiceId, at: failure.at.toISOString() } };
}
