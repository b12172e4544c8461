import { CURRENCIES } from '../../common/money/currencies';

/** The currency table as `USD (2), CLP (0), …`: the code and its minor-unit digits. */
const CURRENCY_LIST = Object.entries(CURRENCIES)
  .map(([code, exponent]) => `${code} (${exponent})`)
  .join(', ');

export const API_DESCRIPTION = `
A multi-tenant JSON API for running a church: members, campuses and (as modules land) households,
donations, attendance, events, groups and more.

**Every call** carries \`Authorization: Bearer <token>\` and \`X-Tenant: <church key>\`. Without
X-Tenant the answer is 400 \`missing_tenant\`. A token of another church gets 403 \`tenant_forbidden\`.

**Errors** are RFC 9457 \`application/problem+json\` with a stable \`code\`, a localized \`title\` and
\`detail\` (Accept-Language: es by default, en, pt), the \`request_id\` (also in \`X-Request-Id\`)
and, for invalid input, \`errors[]\` naming every field. No 500 for anything a client can send.

**Lists** are keyset-paginated: \`limit\` (1-250, default 50), \`cursor\` (from \`next_cursor\`),
\`sort\` (\`-field\` descending, several comma-separated, the id breaks ties), filters by field name
with operators \`[eq] [ne] [gt] [gte] [lt] [lte] [in]\`. An unknown filter or sort field is a 400.
The envelope is \`{data, next_cursor, total}\`; paging to the end never repeats or skips a record,
even while records are added.

**Caching**: GET answers carry an \`ETag\`; \`If-None-Match\` answers 304 with no body while unchanged.

**Identifiers** are \`<prefix>_<32 hex>\` (mem_, cmp_, tok_ ...). A malformed or unknown id is a 404.

**Timestamps** are ISO 8601 in UTC; offsets in requests are honoured.

**Money** is an \`amount\` in the currency's minor unit, always an integer (2500 = 25.00 USD; CLP and
PYG have no minor unit: 2500 = 2,500 CLP), and a \`currency\`, an upper-case ISO 4217 code from this
table (digits after the decimal point in brackets): ${CURRENCY_LIST}. A gift is 1 to 100,000,000
minor units; a float, a string or another currency is 422 \`validation_failed\`. Sums are per
currency, never mixed. A gift's **net given** (what pledges, statements and reports count) is
\`amount - refunded_amount\` while its status is \`succeeded\`, \`partially_refunded\` or
\`refunded\`, and 0 while \`pending\` (an open batch), \`disputed\` or \`failed\`. Money is never
edited: a gift is refunded (\`POST /v1/donations/{id}/refund\`, never past what is left) and
entered again.

**Rate limits.** Each church has a token bucket that holds its plan's burst (Starter 100, Growth
1,000, Business 5,000 requests) and refills at the plan's rate (60, 600, 3,000 per minute): a
quiet client may send a whole burst at once, then its sustained rate. A daily window (50,000,
500,000, 5,000,000) resets at 00:00 UTC. Some endpoints add a stricter quota per token
(\`POST /v1/donations\` 30/min, \`POST /v1/notifications\` 100/min, \`POST /v1/auth/tokens\` 10/hour,
\`GET /v1/reports/*\` 30/min), and requests refused before a church is known count per client
address. A request is charged to all of its buckets at once or to none. Every answer carries
\`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`, \`X-RateLimit-Reset\` (Unix seconds) and
\`X-RateLimit-Bucket\` for the bucket nearest to exhaustion, and \`RateLimit-Policy\` / \`RateLimit\`
(IETF draft) for each; a 429 \`rate_limited\` carries \`Retry-After\`. \`GET /v1/usage\` shows the day
and the minute.

**Idempotency.** Creating POSTs accept \`Idempotency-Key\` (UUID v4): a retry within 24 hours returns
the first answer with \`Idempotent-Replayed: true\`.

**Webhooks.** Subscribe with \`/v1/webhook-endpoints\`; each event type is described under \`webhooks\`. Each
delivery carries \`Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">\`.
`.trim();
