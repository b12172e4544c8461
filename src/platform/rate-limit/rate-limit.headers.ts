import type { Response } from 'express';
import type { BucketState } from './buckets';

/**
 * X-RateLimit-* for the bucket nearest to exhaustion, and the IETF draft fields naming every
 * policy (`RateLimit-Policy: "minute";q=100;w=60`, `RateLimit: "minute";r=42;t=3`).
 */
export function setRateLimitHeaders(res: Response, states: BucketState[], now: number, policies: string[]): void {
  if (states.length === 0) return;
  const nearest = states.reduce((a, b) => (b.remaining / b.limit < a.remaining / a.limit ? b : a));
  res.setHeader('X-RateLimit-Limit', String(nearest.limit));
  res.setHeader('X-RateLimit-Remaining', String(nearest.remaining));
  res.setHeader('X-RateLimit-Reset', String(Math.ceil((now + nearest.resetMs) / 1000)));
  res.setHeader('X-RateLimit-Bucket', nearest.name);
  res.setHeader('RateLimit-Policy', policies.join(', '));
  res.setHeader(
    'RateLimit',
    states.map((s) => `"${s.name}";r=${s.remaining};t=${Math.ceil(s.resetMs / 1000)}`).join(', '),
  );
}
