/** Where the payment processor posts a church's events: `POST /v1/webhooks/payments/<church key>`. */
export const PAYMENT_WEBHOOKS_PATH = '/v1/webhooks/payments';

/** The processor events the inbound endpoint subscribes to (and maps; any other type is acknowledged and ignored). */
export const PROCESSOR_EVENT_TYPES = [
  'payment_intent.succeeded',
  'charge.refunded',
  'charge.dispute.created',
  'invoice.payment_failed',
] as const;

export const PROVIDERS = ['stripe'] as const;
export type Provider = (typeof PROVIDERS)[number];
