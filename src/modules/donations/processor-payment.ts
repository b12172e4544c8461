import { IdPrefix, isUuid, parsePublicId } from '../../common/ids/id';
import type { DonationMethod } from './donation.entity';

/** A payment the processor reports as succeeded (`payment_intent.succeeded`). */
export interface ProcessorPayment {
  /** The processor's payment id (`pi_…`): a donation is made once per id. */
  processorId: string;
  /** Minor units (Stripe's `amount`). */
  amount: number;
  /** ISO 4217 in any case (Stripe sends `usd`). */
  currency: string;
  /** `fnd_` id (the intent's `metadata.fund_id`); an unknown one is a 422 naming `metadata.fund_id`. */
  fundId: string;
  /** `mem_` id (`metadata.donor_id`); absent or unknown: an anonymous gift (the money came in all the same). */
  donorId?: string | null;
  /** `rcg_` id (`metadata.recurring_gift_id`); one the church does not have is left out. */
  recurringGiftId?: string | null;
  /** `card` or `ach` from the payment method (anything outside the list is recorded as `other`). */
  method: DonationMethod;
  /** When the processor took the money (default now). */
  receivedAt?: Date;
}

/** The uuid of a public id (`mem_…`); a processor's metadata may also hold the bare uuid. */
export function uuidOf(prefix: IdPrefix, value: string | null | undefined, allowUuid = false): string | null {
  if (typeof value !== 'string' || value === '') return null;
  if (allowUuid && isUuid(value)) return value;
  return parsePublicId(prefix, value);
}
