import { isCurrency, isValidAmount, type CurrencyCode } from '../../common/money/currencies';

/**
 * What a verified processor event asks of the church's books, read defensively from Stripe's
 * shapes (a signed event is authentic, not necessarily well-formed: nothing here throws).
 */
export type ProcessorCommand =
  | {
      kind: 'payment';
      /** The PaymentIntent id (`pi_…`): the donation's processor_id. */
      processorId: string;
      amount: number;
      currency: CurrencyCode;
      /** Public ids from the intent's metadata, as the integration put them there. */
      fundId: string;
      donorId: string | null;
      recurringGiftId: string | null;
      method: PaymentMethod;
      receivedAt: Date;
    }
  | {
      kind: 'refund';
      processorId: string;
      /** The charge's `amount_refunded`: everything refunded so far. */
      refundedTotal: number;
      /** The newest refund, when the charge lists its refunds. */
      latest: { id: string; amount: number } | null;
    }
  | { kind: 'dispute'; processorId: string; reason: string; status: string; amount: number }
  | { kind: 'charge_failed'; recurringGiftId: string; invoiceId: string; reason: string }
  /** Nothing to do (a type not mapped, a payment that is not a gift); acknowledged. */
  | { kind: 'ignored'; reason: string }
  /** A mapped type whose object cannot be used; acknowledged and recorded with the reason. */
  | { kind: 'rejected'; reason: string };

export type PaymentMethod = 'card' | 'ach' | 'online';

export interface ProcessorEvent {
  id: string;
  type: string;
  created: number | null;
  /** `data.object.id`, when there is one. */
  objectId: string | null;
  object: Record<string, unknown>;
}

/** Payment method types (Stripe's names) that are cards or card wallets. */
const CARD_TYPES = new Set(['card', 'card_present', 'interac_present', 'link', 'apple_pay', 'google_pay']);
/** Payment method types that are bank debits (ACH and its cousins). */
const BANK_TYPES = new Set([
  'us_bank_account',
  'ach_debit',
  'ach_credit_transfer',
  'acss_debit',
  'sepa_debit',
  'bacs_debit',
  'au_becs_debit',
  'nz_bank_account',
  'bank_transfer',
]);

const MAX_TEXT = 500;

/** The parts of a verified event this module reads; null when it is not an event at all. */
export function readEvent(value: unknown): ProcessorEvent | null {
  const event = record(value);
  const id = text(event?.id);
  const type = text(event?.type);
  if (!event || !id || !type) return null;
  const object = record(record(event.data)?.object) ?? {};
  return { id, type, created: integer(event.created), objectId: text(object.id), object };
}

/** The command for an event (see ProcessorCommand). */
export function toCommand(event: ProcessorEvent): ProcessorCommand {
  switch (event.type) {
    case 'payment_intent.succeeded':
      return payment(event);
    case 'charge.refunded':
      return refund(event.object);
    case 'charge.dispute.created':
      return dispute(event.object);
    case 'invoice.payment_failed':
      return chargeFailed(event.object);
    default:
      return { kind: 'ignored', reason: `events of type ${event.type.slice(0, 100)} are not handled` };
  }
}

function payment(event: ProcessorEvent): ProcessorCommand {
  const intent = event.object;
  const processorId = text(intent.id);
  if (!processorId) return { kind: 'rejected', reason: 'the payment intent has no id' };
  const metadata = record(intent.metadata) ?? {};
  const fundId = text(metadata.fund_id);
  if (!fundId) return { kind: 'ignored', reason: 'the payment intent has no metadata.fund_id: not a gift' };
  const received = integer(intent.amount_received);
  const amount = received && received > 0 ? received : integer(intent.amount);
  if (!isValidAmount(amount))
    return {
      kind: 'rejected',
      reason: `amount ${String(intent.amount_received ?? intent.amount)} is not a gift amount (1 to 100000000 minor units)`,
    };
  const currency = text(intent.currency)?.toUpperCase();
  if (!isCurrency(currency))
    return { kind: 'rejected', reason: `currency ${String(currency).slice(0, 10)} is not accepted` };
  return {
    kind: 'payment',
    processorId,
    amount,
    currency,
    fundId,
    donorId: text(metadata.donor_id),
    recurringGiftId: text(metadata.recurring_gift_id),
    method: methodOf(intent),
    receivedAt: new Date((event.created ?? integer(intent.created) ?? Math.floor(Date.now() / 1000)) * 1000),
  };
}

/**
 * card or ach from the intent's payment method: its `type` when the method is expanded, else the
 * intent's `payment_method_types` when they all say the same; `online` when it cannot be told.
 */
export function methodOf(intent: Record<string, unknown>): PaymentMethod {
  const expanded = text(record(intent.payment_method)?.type);
  const types = expanded
    ? [expanded]
    : Array.isArray(intent.payment_method_types)
      ? intent.payment_method_types.filter((t): t is string => typeof t === 'string')
      : [];
  if (types.length && types.every((t) => CARD_TYPES.has(t))) return 'card';
  if (types.length && types.every((t) => BANK_TYPES.has(t))) return 'ach';
  return 'online';
}

function refund(charge: Record<string, unknown>): ProcessorCommand {
  const processorId = idOf(charge.payment_intent);
  if (!processorId) return { kind: 'rejected', reason: 'the charge has no payment_intent' };
  const refundedTotal = integer(charge.amount_refunded);
  if (refundedTotal === null || refundedTotal < 0)
    return { kind: 'rejected', reason: 'the charge has no amount_refunded' };
  const newest = record(
    Array.isArray(record(charge.refunds)?.data) ? (record(charge.refunds)!.data as unknown[])[0] : undefined,
  );
  const newestId = text(newest?.id);
  const newestAmount = integer(newest?.amount);
  return {
    kind: 'refund',
    processorId,
    refundedTotal,
    latest: newestId && newestAmount && newestAmount > 0 ? { id: newestId, amount: newestAmount } : null,
  };
}

function dispute(object: Record<string, unknown>): ProcessorCommand {
  const processorId = idOf(object.payment_intent);
  if (!processorId) return { kind: 'rejected', reason: 'the dispute has no payment_intent' };
  const amount = integer(object.amount);
  if (amount === null || amount < 0) return { kind: 'rejected', reason: 'the dispute has no amount' };
  return {
    kind: 'dispute',
    processorId,
    reason: text(object.reason) ?? 'general',
    status: text(object.status) ?? 'needs_response',
    amount,
  };
}

function chargeFailed(invoice: Record<string, unknown>): ProcessorCommand {
  const invoiceId = text(invoice.id);
  if (!invoiceId) return { kind: 'rejected', reason: 'the invoice has no id' };
  // Where the recurring gift rides: the invoice's metadata, its subscription's (API 2025+ under
  // `parent`, older versions at the top), or its first line's.
  const line = record(
    Array.isArray(record(invoice.lines)?.data) ? (record(invoice.lines)!.data as unknown[])[0] : undefined,
  );
  const recurringGiftId =
    text(record(invoice.metadata)?.recurring_gift_id) ??
    text(record(record(record(invoice.parent)?.subscription_details)?.metadata)?.recurring_gift_id) ??
    text(record(record(invoice.subscription_details)?.metadata)?.recurring_gift_id) ??
    text(record(line?.metadata)?.recurring_gift_id);
  if (!recurringGiftId)
    return { kind: 'ignored', reason: 'the invoice has no metadata.recurring_gift_id: not a recurring gift' };
  const attempts = integer(invoice.attempt_count);
  const reason =
    text(record(invoice.last_finalization_error)?.message) ??
    text(record(invoice.last_payment_error)?.message) ??
    (attempts ? `payment failed (attempt ${attempts})` : 'payment failed');
  return { kind: 'charge_failed', recurringGiftId, invoiceId, reason };
}

// ---------------------------------------------------------------------------------------------

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** A non-empty string, cut to MAX_TEXT characters; null otherwise. */
function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, MAX_TEXT) : null;
}

function integer(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
}

/** An id given as a string or as an expanded object. */
function idOf(value: unknown): string | null {
  return text(value) ?? text(record(value)?.id);
}
