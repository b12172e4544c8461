import { createHmac, timingSafeEqual } from 'node:crypto';

export interface VerifyOptions {
  /** Largest accepted |now - t| in seconds (default 300). */
  toleranceSeconds?: number;
  /** Unix seconds; for tests. */
  now?: number;
}

export type VerifyResult =
  | { ok: true; timestamp: number }
  | { ok: false; reason: 'malformed_header' | 'timestamp_out_of_tolerance' | 'no_matching_signature' };

/**
 * Verifies a webhook from the Church API on the receiving side.
 *
 * `rawBody` must be the exact bytes received (not re-serialized JSON). `header` is the
 * `Service-Signature` header; `secrets` are your endpoint's `whsec_…` secrets (several while you
 * roll one). Signatures are compared in constant time; a timestamp older or newer than the
 * tolerance is refused, which stops replays.
 *
 *   const result = verifyWebhook(req.body, req.get('Service-Signature'), [process.env.WEBHOOK_SECRET]);
 *   if (!result.ok) return res.status(400).end();
 */
export function verifyWebhook(
  rawBody: string | Buffer,
  header: string | undefined | null,
  secrets: string[],
  options: VerifyOptions = {},
): VerifyResult {
  const tolerance = options.toleranceSeconds ?? 300;
  if (!header) return { ok: false, reason: 'malformed_header' };
  let timestamp: number | null = null;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && /^\d{1,12}$/.test(value ?? '')) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/.test(value ?? '')) signatures.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === null || signatures.length === 0) return { ok: false, reason: 'malformed_header' };
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > tolerance) return { ok: false, reason: 'timestamp_out_of_tolerance' };
  const body = Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody, 'utf8');
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
    if (signatures.some((candidate) => timingSafeEqual(candidate, expected))) return { ok: true, timestamp };
  }
  return { ok: false, reason: 'no_matching_signature' };
}
