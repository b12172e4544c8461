import { createHmac } from 'node:crypto';

/** `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one v1 per live secret. */
export function signatureHeader(rawBody: string, secrets: string[], timestamp: number): string {
  const signatures = secrets.map(
    (secret) => `v1=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`,
  );
  return [`t=${timestamp}`, ...signatures].join(',');
}
