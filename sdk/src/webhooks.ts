// `@church-api/sdk/webhooks`: the receiving side of the API's webhooks, for Node (node:crypto). Kept out
// of the main entry, which uses nothing but fetch and so runs in browsers too.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent, WebhookEventType } from './types.js';

export type { WebhookEvent, WebhookEventType } from './types.js';

export interface VerifyWebhookOptions {
  /** The largest accepted difference between now and the signature's `t`, in seconds (default 300). */
  toleranceSeconds?: number;
  /** Now, in Unix seconds (default the clock); for tests. */
  now?: number;
}

export type WebhookVerificationFailure = 'malformed_header' | 'timestamp_out_of_tolerance' | 'no_matching_signature';

/** Thrown by verifyWebhook when a delivery must be refused (answer it 400). */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(readonly reason: WebhookVerificationFailure) {
    super(`webhook refused: ${reason.replaceAll('_', ' ')}`);
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Checks a delivery's `Service-Signature` exactly as the API signs it, then returns the event, typed by
 * its `type`:
 *
 *   app.post('/church', express.raw({ type: 'application/json' }), (req, res) => {
 *     const event = verifyWebhook(req.body, req.get('Service-Signature'), [process.env.CHURCH_WEBHOOK_SECRET!]);
 *     if (event.type === 'donation.created') console.log(event.data.object.amount);
 *     res.sendStatus(200);
 *   });
 *
 * The header is `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, with one `v1=` per live
 * secret while a secret is being rolled. `rawBody` must be the bytes received (a re-serialized JSON is
 * other bytes); `secrets` are your endpoint's `whsec_…` secrets (the new and the old during a roll): one
 * matching `v1=` is enough. A `t` further than `toleranceSeconds` from now is refused (replays). The
 * signatures are compared in constant time. Throws a WebhookVerificationError when the delivery must be
 * refused. Drop repeats by the event's `id` (a retry or a resend carries the same one).
 */
export function verifyWebhook<T extends WebhookEventType = WebhookEventType>(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secrets: string | readonly string[],
  options: VerifyWebhookOptions = {},
): WebhookEvent<T> {
  const { timestamp, signatures } = parseHeader(header);
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300))
    throw new WebhookVerificationError('timestamp_out_of_tolerance');
  const body = typeof rawBody === 'string' ? new TextEncoder().encode(rawBody) : rawBody;
  const matched = (typeof secrets === 'string' ? [secrets] : secrets).some((secret) => {
    const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
    return signatures.some((candidate) => timingSafeEqual(candidate, expected));
  });
  if (!matched) throw new WebhookVerificationError('no_matching_signature');
  return JSON.parse(typeof rawBody === 'string' ? rawBody : decoder.decode(rawBody)) as WebhookEvent<T>;
}

function parseHeader(header: string | null | undefined): { timestamp: number; signatures: Uint8Array[] } {
  let timestamp: number | undefined;
  const signatures: Uint8Array[] = [];
  for (const part of (header ?? '').split(',')) {
    const at = part.indexOf('=');
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) signatures.push(hexBytes(value));
  }
  if (timestamp === undefined || signatures.length === 0) throw new WebhookVerificationError('malformed_header');
  return { timestamp, signatures };
}

function hexBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}
