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
`.trim();
