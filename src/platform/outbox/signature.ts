import { createHmac } from 'node:crypto';

/** `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one v1 per live secret. */
export function signatureHeader(rawBody: string, secrets: string[], timestamp: number): string {
  const signatures = secrets.map(
    (secret) => `v1=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`,
  );
  return [`t=${timestamp}`, ...signatures].join(',');
}

/** The headers of a delivery (and of a test event): the JSON body signed with every live secret. */
export function deliveryHeaders(rawBody: string, secrets: string[], webhookId: string): Record<string, string> {
  return {
    'Content-Type': 'application/json; charset=utf-8',
    'User-Agent': 'ChurchAPI-Webhooks/1.0',
    'Service-Signature': signatureHeader(rawBody, secrets, Math.floor(Date.now() / 1000)),
    'Service-Webhook-Id': webhookId,
  };
}
