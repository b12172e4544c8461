import { isDeepStrictEqual } from 'node:util';

/** Fields whose change is not news of its own (every update moves them). */
const UNREPORTED = new Set(['updated_at']);

/**
 * Stripe's `previous_attributes` (CONTRACT §16): the top-level fields of a record's response whose
 * value the change modified, with their old values.
 */
export function previousAttributes(before: object, after: object): Record<string, unknown> {
  const old = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  const changed: Record<string, unknown> = {};
  for (const field of Object.keys(old))
    if (!UNREPORTED.has(field) && !isDeepStrictEqual(old[field], now[field])) changed[field] = old[field];
  return changed;
}
