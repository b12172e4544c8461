// The baseline: a plain node:http + pg server doing the same SQL as the API for the requests the
// bench sends, with no framework. Per request, as the API does:
//   1. token lookup by SHA-256 hash (the LOOKUP query of src/platform/auth/token-authenticator.ts),
//      on the pool, outside the tenant transaction; the same checks (revoked, expired, slug, status);
//   2. one transaction: set_config('role', 'church_app') + set_config('app.tenant_id'), then
//      GET /v1/members: with a `tag` filter, the tag ids of the names (MemberTagRefs.resolveTagFilter),
//      the keyset page (limit + 1 rows) with each member's tag ids (MembersRepository PAGE_TAG_IDS),
//      the exact count;
//      POST /v1/members/bulk: INSERT … SELECT unnest(…) RETURNING id;
//      POST /v1/donations (scenario 8): with an Idempotency-Key, the key's advisory lock and the
//      look-up of a stored response (IdempotencyStore.begin); the fund FOR KEY SHARE, the donor and
//      the campus by key (DonationsService.create); the INSERT; the outbox event, the enabled
//      endpoints FOR KEY SHARE and one delivery row per matching endpoint (EventsService.recordMany);
//      the idempotency record with the sealed response (IdempotencyStore.complete);
//      GET /v1/donations (scenario 9): the keyset page and the exact count of fetchPage, then the
//      page's funds, donors and campuses, one query each (DonationsService.refsOf);
//   campuses and tag names of member lists come from per-church maps read once, as the API's campus
//   directory and MemberTagRefs do (they are few and rarely change; the bench never changes them);
//   the ministry routes of scenarios 11–13 (check-in search and check-in, attendance bulk, a group's
//   roster): bench/baseline/ministry.mjs;
//   the report routes of scenarios 14 and 15 (giving by month, attendance by week: the raw aggregate):
//   bench/baseline/reports.mjs;
//   the changes feed of scenario 18 (the feed's keyset page, the page's members in one query):
//   bench/baseline/changes.mjs;
//   3. the same JSON envelope, the same ETag (SHA-1 of tenant, language and body) and 304.
// Not done here (the framework's and the project's own work, which the ratio prices): the rate
// limiter's Redis call, usage metering, request validation beyond shape, audit rows, webhook
// events of member writes, the delivery jobs enqueued after a commit, list-total invalidation,
// last_used_at writes, CORS, the problem+json error catalogue.
//
// A bench switch: `X-Bench-Count: off` skips the count (scenario 6's list without counting).
import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ministryRoutes } from './ministry.mjs';
import { reportRoutes } from './reports.mjs';
import { changeRoutes } from './changes.mjs';

const repoRoot = resolve(fileURLToPath(import.meta.url), '..', '..', '..');
const require = createRequire(join(repoRoot, 'package.json'));
const pg = require('pg');
// The same UUIDv7 generator as the API (from the bench build), so ids cost the same on both sides;
// likewise the currency table, the response sealing and the webhook filters (pure functions).
const fromBuild = (path) => require(join(repoRoot, 'bench', '.build', 'dist', path));
const { newUuid: uuidv7 } = fromBuild('common/ids/id.js');
const { isCurrency, isValidAmount } = fromBuild('common/money/currencies.js');
const { SecretBox } = fromBuild('common/crypto/secret-box.js');
const { matchesFilters } = fromBuild('platform/outbox/delivery-filters.js');
const { API_VERSION } = fromBuild('common/api-version.js');
const { isAllowedCode } = fromBuild('modules/check-in/security-code.js');
const { todayIn } = fromBuild('modules/reports/reports.service.js');
const { defaultFrom } = fromBuild('modules/reports/report-params.js');
const box = new SecretBox(Buffer.from(process.env.ENCRYPTION_KEY ?? '', 'base64'));

const PORT = Number(process.env.PORT ?? 3391);
const POOL = Number(process.env.DB_POOL_SIZE ?? 16);

// `date` as its text (YYYY-MM-DD), as TypeORM hands it to the API; timestamps as Date; jsonb parsed.
const types = {
  getTypeParser(oid, format) {
    if (oid === 1082) return (v) => v;
    return pg.types.getTypeParser(oid, format);
  },
};
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: POOL,
  application_name: 'church-bench-baseline',
  options: '-c TimeZone=UTC',
  types,
});

const LOOKUP = `
  SELECT t.id, t.tenant_id, t.type, t.name, t.scopes, t.user_id, t.expires_at, t.revoked_at,
         n.slug, n.plan, n.status, n.quota_rpm, n.quota_per_day, n.quota_burst, n.quota_until, u.role, u.id AS acting_user_id
    FROM api_tokens t
    JOIN tenants n ON n.id = t.tenant_id
    LEFT JOIN users u ON u.tenant_id = t.tenant_id AND u.id = coalesce(t.user_id, t.created_by)
   WHERE t.token_hash = $1`;

const MEMBER_COLUMNS = `m.tenant_id, m.id, m.first_name, m.last_name, m.email, m.phone, m.birthdate, m.gender, m.status,
  m.campus_id, m.active, m.household_id, m.household_role, m.address, m.custom_fields, m.created_at, m.updated_at, m.deleted_at`;

// Each member's tag ids with the page (src/modules/members/members.repository.ts PAGE_TAG_IDS), the
// church's tags in a member's order (tags.repository.ts refsInOrder) and the tag ids of a `tag`
// filter's ids and names (idsOf), as the API sends them.
const PAGE_TAG_IDS =
  'ARRAY(SELECT mt.tag_id FROM member_tags mt WHERE mt.tenant_id = m.tenant_id AND mt.member_id = m.id) AS tag_ids';
const CHURCH_TAGS = 'SELECT id, name FROM tags WHERE tenant_id = $1 ORDER BY lower(name), id';
const TAG_IDS = `SELECT id FROM tags WHERE tenant_id = $1 AND (id = ANY($2::uuid[]) OR lower(name) = ANY($3::text[])) ORDER BY id`;

const GENDER_LABELS = {
  es: { male: 'Masculino', female: 'Femenino', unspecified: 'Sin especificar' },
  en: { male: 'Male', female: 'Female', unspecified: 'Unspecified' },
  pt: { male: 'Masculino', female: 'Feminino', unspecified: 'Não especificado' },
};
const STATUS_LABELS = {
  es: { visitor: 'Visitante', regular: 'Asistente regular', member: 'Miembro', leader: 'Líder' },
  en: { visitor: 'Visitor', regular: 'Regular attendee', member: 'Member', leader: 'Leader' },
  pt: { visitor: 'Visitante', regular: 'Frequentador', member: 'Membro', leader: 'Líder' },
};

// The member list's sorts and filters (src/modules/members/members.list.ts), as SQL.
const SORTS = {
  created_at: { column: 'created_at', value: (r) => r.created_at.toISOString() },
  last_name: { column: 'last_name', value: (r) => r.last_name },
  first_name: { column: 'first_name', value: (r) => r.first_name },
  age: { column: 'birthdate', nullable: true, inverted: true, value: (r) => r.birthdate },
};
const OPS = { eq: '=', ne: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' };
const TODAY = `(now() AT TIME ZONE 'UTC')::date`;

class HttpError extends Error {
  constructor(status, code) {
    super(code);
    this.status = status;
  }
}

function language(header) {
  if (!header) return 'es';
  const base = header.split(',')[0].trim().slice(0, 2).toLowerCase();
  return base === 'en' || base === 'pt' ? base : 'es';
}

const publicId = (prefix, uuid) => `${prefix}_${uuid.replace(/-/g, '')}`;

/** The uuid of a `<prefix>_<32 hex>` id, or null. */
function parsePublicId(prefix, value) {
  const m = new RegExp(`^${prefix}_([0-9a-f]{32})$`).exec(value);
  if (!m) return null;
  const h = m[1];
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function ageOn(birthdate, today) {
  if (!birthdate) return null;
  const years = Number(today.slice(0, 4)) - Number(birthdate.slice(0, 4));
  return today.slice(5) < birthdate.slice(5) ? years - 1 : years;
}

function memberJson(m, campuses, lang, today, tags) {
  const campus = m.campus_id ? campuses.get(m.campus_id) : undefined;
  return {
    id: publicId('mem', m.id),
    first_name: m.first_name,
    last_name: m.last_name,
    email: m.email,
    phone: m.phone,
    birthdate: m.birthdate,
    age: ageOn(m.birthdate, today),
    gender: m.gender,
    gender_label: m.gender ? GENDER_LABELS[lang][m.gender] : null,
    status: m.status,
    status_label: STATUS_LABELS[lang][m.status],
    campus: campus ? { id: publicId('cmp', campus.id), key: campus.key, name: campus.name } : null,
    active: m.active,
    household_id: m.household_id ? publicId('hh', m.household_id) : null,
    household_role: m.household_role,
    address: m.address,
    custom_fields: m.custom_fields,
    tags,
    created_at: m.created_at.toISOString(),
    updated_at: m.updated_at.toISOString(),
  };
}

async function authenticate(req) {
  const tenant = req.headers['x-tenant'];
  if (typeof tenant !== 'string' || !tenant.trim()) throw new HttpError(400, 'missing_tenant');
  const m = /^Bearer\s+(ch[pskor]_[0-9A-Za-z]{36})$/i.exec(req.headers.authorization ?? '');
  if (!m) throw new HttpError(401, 'unauthorized');
  const { rows } = await pool.query(LOOKUP, [createHash('sha256').update(m[1]).digest()]);
  const row = rows[0];
  if (!row) throw new HttpError(401, 'unauthorized');
  if (row.revoked_at) throw new HttpError(401, 'token_revoked');
  if (row.expires_at && row.expires_at.getTime() <= Date.now()) throw new HttpError(401, 'token_expired');
  if (row.slug !== tenant) throw new HttpError(403, 'tenant_forbidden');
  if (row.status !== 'active') throw new HttpError(403, 'tenant_inactive');
  return row;
}

const campusesByTenant = new Map();
const tagsByTenant = new Map();

/** The church's campuses by id and by key, read on first use and kept. */
async function campusesOf(tenantId) {
  let campuses = campusesByTenant.get(tenantId);
  if (!campuses) {
    const rows = await inTenant(
      tenantId,
      async (client) =>
        (await client.query('SELECT id, key, name FROM campuses WHERE tenant_id = $1', [tenantId])).rows,
    );
    campuses = { byId: new Map(rows.map((c) => [c.id, c])), byKey: new Map(rows.map((c) => [c.key, c.id])) };
    campusesByTenant.set(tenantId, campuses);
  }
  return campuses;
}

/** The church's tags by id, each with its rank in a member's `tags` (read once: the bench never changes them). */
async function tagsOf(tenantId) {
  let tags = tagsByTenant.get(tenantId);
  if (!tags) {
    const rows = await inTenant(tenantId, async (client) => (await client.query(CHURCH_TAGS, [tenantId])).rows);
    tags = new Map(rows.map((t, rank) => [t.id, { ref: { id: publicId('tag', t.id), name: t.name }, rank }]));
    tagsByTenant.set(tenantId, tags);
  }
  return tags;
}

async function inTenant(tenantId, fn) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT set_config('role', $1, true), set_config('app.tenant_id', $2, true)`, [
      'church_app',
      tenantId,
    ]);
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** A `tag` / `tag[in]` filter's refs (tag_ ids or names), as the API reads them; undefined without one. */
function tagRefs(params) {
  const raw = params.get('tag') ?? params.get('tag[in]');
  if (raw === null) return undefined;
  return params.has('tag[in]') ? raw.split(',') : [raw];
}

/** The tag ids the refs name, in the church's transaction (one query, as the API resolves them). */
async function resolveTags(client, tenantId, refs) {
  const ids = refs.map((r) => parsePublicId('tag', r)).filter((id) => id !== null);
  const names = refs.filter((r) => parsePublicId('tag', r) === null).map((r) => r.trim().toLowerCase());
  return (await client.query(TAG_IDS, [tenantId, ids, names])).rows.map((r) => r.id);
}

/** The page and count SQL of src/common/lists/keyset-page.ts for the member list; `tagIds`: a resolved tag filter. */
function listSql(tenantId, params, tagIds) {
  const values = [tenantId];
  const p = (v) => {
    values.push(v);
    return `$${values.length}`;
  };
  const where = ['m.tenant_id = $1 AND m.deleted_at IS NULL'];
  for (const [key, raw] of params) {
    if (key === 'limit' || key === 'sort' || key === 'cursor') continue;
    if (key === 'tag' || key === 'tag[in]') {
      // src/modules/members/members.list.ts tagCondition, once the names are ids.
      where.push(
        tagIds.length
          ? `EXISTS (SELECT 1 FROM member_tags mt WHERE mt.tenant_id = m.tenant_id AND mt.member_id = m.id AND mt.tag_id IN (${tagIds.map(p).join(', ')}))`
          : 'FALSE',
      );
      continue;
    }
    const match = /^([a-z_]+)(?:\[([a-z]+)\])?$/.exec(key);
    if (!match) throw new HttpError(400, 'invalid_parameter');
    const [, field, op = 'eq'] = match;
    if (field === 'active') where.push(`m.active = ${p(raw === 'true')}`);
    else if (field === 'status' || field === 'gender') where.push(`m.${field} ${OPS[op]} ${p(raw)}`);
    else if (field === 'created_at' || field === 'updated_at')
      where.push(`m.${field} ${OPS[op]} ${p(new Date(/^\d{4}-\d{2}-\d{2}$/.test(raw) ? `${raw}T00:00:00Z` : raw))}`);
    else if (field === 'age') {
      const n = Number(raw);
      const atLeast = (k) => `m.birthdate <= (${TODAY} - make_interval(years => ${p(k)}::int))::date`;
      const atMost = (k) => `m.birthdate > (${TODAY} - make_interval(years => ${p(k + 1)}::int))::date`;
      where.push(
        op === 'gte'
          ? atLeast(n)
          : op === 'gt'
            ? atLeast(n + 1)
            : op === 'lte'
              ? atMost(n)
              : op === 'lt'
                ? atMost(n - 1)
                : `(${atLeast(n)} AND ${atMost(n)})`,
      );
    } else throw new HttpError(400, 'invalid_parameter');
  }
  const countSql = `SELECT count(*)::int AS total FROM members m WHERE ${where.join(' AND ')}`;
  const countValues = [...values];

  const sortText = params.get('sort') || 'created_at';
  const sort = sortText.split(',').map((part) => ({ field: part.replace(/^-/, ''), descending: part.startsWith('-') }));
  if (sort.some((s) => !SORTS[s.field])) throw new HttpError(400, 'invalid_parameter');
  const columns = sort.map((s) => ({
    expr: `m.${SORTS[s.field].column}`,
    desc: s.descending !== Boolean(SORTS[s.field].inverted),
    nullable: Boolean(SORTS[s.field].nullable),
  }));
  columns.push({ expr: 'm.id', desc: columns[columns.length - 1].desc, nullable: false });
  const cursor = params.get('cursor');
  if (cursor) {
    const [sortKey, vals, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (sortKey !== sortText) throw new HttpError(400, 'invalid_parameter');
    where.push(keyset(columns, [...vals, id], p));
  }
  const limit = Number(params.get('limit') ?? 50);
  if (!(limit >= 1 && limit <= 250)) throw new HttpError(400, 'invalid_parameter');
  const pageSql = `SELECT ${MEMBER_COLUMNS}, ${PAGE_TAG_IDS} FROM members m WHERE ${where.join(' AND ')} ORDER BY ${columns.map((c) => `${c.expr} ${c.desc ? 'DESC' : 'ASC'}`).join(', ')} LIMIT ${limit + 1}`;
  return { pageSql, values, countSql, countValues, sort, sortText, limit };
}

function keyset(columns, values, p) {
  const uniform = columns.every((c) => c.desc === columns[0].desc && !c.nullable) && values.every((v) => v !== null);
  if (uniform)
    return `(${columns.map((c) => c.expr).join(', ')}) ${columns[0].desc ? '<' : '>'} (${values.map((v) => p(v)).join(', ')})`;
  const after = (c, v) => {
    if (v === null) return c.desc ? `${c.expr} IS NOT NULL` : 'FALSE';
    const cmp = `${c.expr} ${c.desc ? '<' : '>'} ${p(v)}`;
    return c.nullable && !c.desc ? `(${cmp} OR ${c.expr} IS NULL)` : cmp;
  };
  const lead = columns[0];
  const bound =
    values[0] === null
      ? lead.desc
        ? null
        : `${lead.expr} IS NULL`
      : lead.desc
        ? `${lead.expr} <= ${p(values[0])}`
        : lead.nullable
          ? null
          : `${lead.expr} >= ${p(values[0])}`;
  const alternatives = [];
  for (let i = 0; i < columns.length; i++) {
    const a = after(columns[i], values[i]);
    if (a === 'FALSE') continue;
    const equal = columns
      .slice(0, i)
      .map((c, j) => (values[j] === null ? `${c.expr} IS NULL` : `${c.expr} = ${p(values[j])}`));
    alternatives.push([...equal, a].join(' AND '));
  }
  if (!alternatives.length) return 'FALSE';
  const expansion = `(${alternatives.map((a) => `(${a})`).join(' OR ')})`;
  return bound ? `(${bound} AND ${expansion})` : expansion;
}

async function listMembers(req, res, url) {
  const principal = await authenticate(req);
  const lang = language(req.headers['accept-language']);
  const refs = tagRefs(url.searchParams);
  // Without a tag filter the SQL is known (and a bad query a 400) before the transaction.
  const known = refs === undefined ? listSql(principal.tenant_id, url.searchParams, []) : null;
  const counting = req.headers['x-bench-count'] !== 'off';
  const campuses = (await campusesOf(principal.tenant_id)).byId;
  const churchTags = await tagsOf(principal.tenant_id);
  const { q, rows, total, tags, hasMore } = await inTenant(principal.tenant_id, async (client) => {
    const q =
      known ?? listSql(principal.tenant_id, url.searchParams, await resolveTags(client, principal.tenant_id, refs));
    const { rows } = await client.query(q.pageSql, q.values);
    const count = counting ? (await client.query(q.countSql, q.countValues)).rows[0].total : 0;
    const more = rows.length > q.limit;
    if (more) rows.pop();
    const byMember = new Map();
    for (const r of rows) {
      if (r.tag_ids.length)
        byMember.set(
          r.id,
          r.tag_ids
            .map((id) => churchTags.get(id))
            .sort((a, b) => a.rank - b.rank)
            .map((t) => t.ref),
        );
    }
    return { q, rows, total: count, tags: byMember, hasMore: more };
  });
  const last = rows[rows.length - 1];
  const nextCursor =
    hasMore && last
      ? Buffer.from(JSON.stringify([q.sortText, q.sort.map((s) => SORTS[s.field].value(last)), last.id])).toString(
          'base64url',
        )
      : null;
  const today = new Date().toISOString().slice(0, 10);
  const text = JSON.stringify({
    data: rows.map((m) => memberJson(m, campuses, lang, today, tags.get(m.id) ?? [])),
    next_cursor: nextCursor,
    total,
  });
  const tag = `"${createHash('sha1').update(principal.tenant_id).update('\0').update(lang).update('\0').update(text).digest('base64url')}"`;
  res.setHeader('ETag', tag);
  res.setHeader('Cache-Control', 'private, no-cache');
  res.setHeader('Vary', 'Authorization, X-Tenant, Accept-Language');
  const inm = req.headers['if-none-match'];
  if (inm && inm.split(',').some((c) => c.trim().replace(/^W\//, '') === tag)) {
    res.writeHead(304);
    res.end();
    return;
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.writeHead(200);
  res.end(text);
}

function readBody(req) {
  return new Promise((resolveBody, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolveBody(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function bulkCreate(req, res) {
  const principal = await authenticate(req);
  const body = JSON.parse(await readBody(req));
  const rows = body?.members;
  if (!Array.isArray(rows) || rows.length === 0 || rows.length > 500) throw new HttpError(422, 'validation_failed');
  for (const r of rows)
    if (typeof r?.first_name !== 'string' || typeof r?.last_name !== 'string')
      throw new HttpError(422, 'validation_failed');
  const now = new Date();
  const ids = rows.map(() => uuidv7());
  const campusByKey = (await campusesOf(principal.tenant_id)).byKey;
  const inserted = await inTenant(principal.tenant_id, async (client) => {
    const { rows: created } = await client.query(
      `INSERT INTO members (tenant_id, id, first_name, last_name, email, phone, birthdate, gender, status, campus_id, active, household_id, address, custom_fields, created_at, updated_at)
       SELECT $1, u.id, u.first_name, u.last_name, u.email, u.phone, u.birthdate, u.gender, u.status, u.campus_id, u.active, NULL, u.address, u.custom_fields, $14, $14
         FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::date[], $8::text[], $9::text[], $10::uuid[], $11::boolean[], $12::jsonb[], $13::jsonb[])
           AS u(id, first_name, last_name, email, phone, birthdate, gender, status, campus_id, active, address, custom_fields)
       RETURNING id`,
      [
        principal.tenant_id,
        ids,
        rows.map((r) => r.first_name.trim()),
        rows.map((r) => r.last_name.trim()),
        rows.map((r) => r.email ?? null),
        rows.map((r) => r.phone ?? null),
        rows.map((r) => r.birthdate ?? null),
        rows.map((r) => r.gender ?? null),
        rows.map((r) => r.status ?? 'visitor'),
        rows.map((r) => (r.campus ? (campusByKey.get(r.campus) ?? null) : null)),
        rows.map((r) => r.active ?? true),
        rows.map((r) => (r.address ? JSON.stringify(r.address) : null)),
        rows.map((r) => JSON.stringify(r.custom_fields ?? {})),
        now,
      ],
    );
    return created;
  });
  const text = JSON.stringify({
    created: inserted.length,
    failed: 0,
    results: inserted.map((r, index) => ({ index, id: publicId('mem', r.id) })),
  });
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.writeHead(200);
  res.end(text);
}

// ---- donations (scenarios 8 and 9) -------------------------------------------------------------

const DONATION_METHODS = ['cash', 'check', 'card', 'ach', 'online', 'other'];
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const DONATION_COLUMNS =
  'tenant_id, id, amount, currency, fund_id, donor_id, campus_id, method, check_number, received_at, note, status, batch_id, recurring_gift_id, processor_id, refunded_amount, dispute, created_at, updated_at';
const INSERT_DONATION = `INSERT INTO donations (${DONATION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19) RETURNING id`;
const INSERT_EVENTS = `INSERT INTO webhook_events (tenant_id, id, type, payload, created_at)
  SELECT $1, e.id, $2, e.payload::json, $3 FROM ROWS FROM (unnest($4::uuid[]), string_to_table($5, E'\\x1e')) AS e(id, payload)`;
const ENDPOINTS = `SELECT id, filters FROM webhook_endpoints WHERE tenant_id = $1 AND status = 'enabled' AND events && ARRAY[$2, '*']::text[] FOR KEY SHARE`;
const INSERT_DELIVERIES = `INSERT INTO webhook_deliveries (tenant_id, id, endpoint_id, event_id, next_attempt_at, created_at, updated_at)
  SELECT $1, d.id, d.endpoint_id, d.event_id, $5, $5, $5 FROM unnest($2::uuid[], $3::uuid[], $4::uuid[]) AS d(id, endpoint_id, event_id)`;
const IDEMPOTENCY_LOOKUP = `SELECT method, path, fingerprint, status, body_sealed, location FROM idempotency_keys
  WHERE tenant_id = $1 AND token_id = $2 AND key = $3 AND created_at > now() - make_interval(hours => $4)`;
const IDEMPOTENCY_STORE = `INSERT INTO idempotency_keys (tenant_id, token_id, key, method, path, fingerprint, status, body_sealed, location)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
  ON CONFLICT (tenant_id, token_id, key) DO UPDATE
    SET method = excluded.method, path = excluded.path, fingerprint = excluded.fingerprint, status = excluded.status,
        body_sealed = excluded.body_sealed, location = excluded.location, created_at = now()`;

/** The outbox (EventsService.recordMany): one event per object, the enabled endpoints and their deliveries. */
async function recordEvents(client, principal, type, objects) {
  const tenantId = principal.tenant_id;
  const eventAt = new Date();
  const events = objects.map((object) => {
    const id = uuidv7();
    return {
      id,
      payload: {
        id: publicId('evt', id),
        type,
        created: Math.floor(eventAt.getTime() / 1000),
        tenant: principal.slug,
        api_version: API_VERSION,
        data: { object },
      },
    };
  });
  await client.query(INSERT_EVENTS, [
    tenantId,
    type,
    eventAt,
    events.map((e) => e.id),
    events.map((e) => JSON.stringify(e.payload)).join('\x1e'),
  ]);
  const { rows: endpoints } = await client.query(ENDPOINTS, [tenantId, type]);
  const deliveries = [];
  for (const endpoint of endpoints)
    for (const event of events)
      if (matchesFilters(event.payload, endpoint.filters))
        deliveries.push({ id: uuidv7(), endpointId: endpoint.id, eventId: event.id });
  if (deliveries.length) {
    await client.query(INSERT_DELIVERIES, [
      tenantId,
      deliveries.map((x) => x.id),
      deliveries.map((x) => x.endpointId),
      deliveries.map((x) => x.eventId),
      eventAt,
    ]);
  }
}

function send(res, status, text) {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.writeHead(status);
  res.end(text);
}

/** The same JSON with its keys in another order is the same request (idempotency.store.ts). */
function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

const optionalText = (v, max) => v === undefined || v === null || (typeof v === 'string' && v.length <= max);

/** donations.mapper.ts toDonationResponse, from a row (snake_case) and its fund, donor and campus. */
function donationJson(d, fund, donor, campus) {
  return {
    id: publicId('don', d.id),
    amount: Number(d.amount),
    currency: d.currency,
    fund: { id: publicId('fnd', fund.id), name: fund.name },
    donor: donor ? { id: publicId('mem', donor.id), first_name: donor.first_name } : null,
    campus: campus ? { id: publicId('cmp', campus.id), name: campus.name } : null,
    method: d.method,
    status: d.status,
    received_at: d.received_at.toISOString(),
    check_number: d.check_number,
    note: d.note,
    batch_id: d.batch_id ? publicId('bat', d.batch_id) : null,
    recurring_gift_id: d.recurring_gift_id ? publicId('rcg', d.recurring_gift_id) : null,
    processor_id: d.processor_id,
    refunded_amount: Number(d.refunded_amount),
    dispute: d.dispute
      ? { reason: d.dispute.reason ?? null, status: d.dispute.status ?? null, amount: d.dispute.amount ?? null }
      : null,
    created_at: d.created_at.toISOString(),
    updated_at: d.updated_at.toISOString(),
  };
}

async function createDonation(req, res) {
  const principal = await authenticate(req);
  const rawKey = req.headers['idempotency-key'];
  if (rawKey !== undefined && !UUID_V4.test(rawKey)) throw new HttpError(400, 'invalid_idempotency_key');
  const key = rawKey?.toLowerCase();
  const body = JSON.parse(await readBody(req));
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(422, 'validation_failed');
  const ok =
    isValidAmount(body.amount) &&
    isCurrency(body.currency) &&
    typeof body.fund_id === 'string' &&
    body.fund_id.length <= 64 &&
    optionalText(body.donor_id, 64) &&
    optionalText(body.campus, 64) &&
    (body.method === undefined || DONATION_METHODS.includes(body.method)) &&
    optionalText(body.check_number, 50) &&
    optionalText(body.note, 2000) &&
    (body.received_at === undefined ||
      (typeof body.received_at === 'string' && !Number.isNaN(Date.parse(body.received_at)))) &&
    (body.batch_id === undefined || body.batch_id === null);
  if (!ok) throw new HttpError(422, 'validation_failed');
  const fundId = parsePublicId('fnd', body.fund_id);
  const donorId = body.donor_id ? parsePublicId('mem', body.donor_id) : null;
  const campusId = body.campus ? parsePublicId('cmp', body.campus) : null;
  const tenantId = principal.tenant_id;
  const request = {
    method: 'POST',
    path: '/v1/donations',
    fingerprint: createHash('sha256').update(canonicalJson(body)).digest(),
  };

  const { status, text, location } = await inTenant(tenantId, async (client) => {
    if (key) {
      const { rows: lock } = await client.query('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked', [
        `idem:${tenantId}:${principal.id}:${key}`,
      ]);
      if (!lock[0].locked) throw new HttpError(409, 'idempotency_in_progress');
      const { rows: prior } = await client.query(IDEMPOTENCY_LOOKUP, [tenantId, principal.id, key, 24]);
      if (prior[0]) {
        if (
          prior[0].method !== request.method ||
          prior[0].path !== request.path ||
          !prior[0].fingerprint.equals(request.fingerprint)
        )
          throw new HttpError(422, 'idempotency_key_reused');
        return { status: prior[0].status, text: box.open(prior[0].body_sealed), location: prior[0].location };
      }
    }
    const fund = fundId
      ? (
          await client.query('SELECT id, name, active FROM funds WHERE tenant_id = $1 AND id = $2 FOR KEY SHARE', [
            tenantId,
            fundId,
          ])
        ).rows[0]
      : undefined;
    const donor = donorId
      ? (
          await client.query(
            'SELECT id, first_name FROM members WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL',
            [tenantId, donorId],
          )
        ).rows[0]
      : undefined;
    const campus = body.campus
      ? (
          await client.query(
            campusId
              ? 'SELECT id, key, name FROM campuses WHERE tenant_id = $1 AND id = $2'
              : 'SELECT id, key, name FROM campuses WHERE tenant_id = $1 AND key = $2',
            [tenantId, campusId ?? body.campus],
          )
        ).rows[0]
      : undefined;
    if (!fund || !fund.active || (body.donor_id && !donor) || (body.campus && !campus))
      throw new HttpError(422, 'validation_failed');

    const now = new Date();
    const d = {
      id: uuidv7(),
      amount: body.amount,
      currency: body.currency,
      method: body.method ?? 'other',
      check_number: body.check_number ?? null,
      received_at: body.received_at ? new Date(body.received_at) : now,
      note: body.note ?? null,
      status: 'succeeded',
      batch_id: null,
      recurring_gift_id: null,
      processor_id: null,
      refunded_amount: 0,
      dispute: null,
      created_at: now,
      updated_at: now,
    };
    await client.query(INSERT_DONATION, [
      tenantId,
      d.id,
      d.amount,
      d.currency,
      fund.id,
      donor?.id ?? null,
      campus?.id ?? null,
      d.method,
      d.check_number,
      d.received_at,
      d.note,
      d.status,
      null,
      null,
      null,
      0,
      null,
      now,
      now,
    ]);
    const donation = donationJson(d, fund, donor, campus);

    await recordEvents(client, principal, 'donation.created', [donation]);
    const text = JSON.stringify(donation);
    const location = `/v1/donations/${donation.id}`;
    if (key)
      await client.query(IDEMPOTENCY_STORE, [
        tenantId,
        principal.id,
        key,
        request.method,
        request.path,
        request.fingerprint,
        201,
        box.seal(text),
        location,
      ]);
    return { status: 201, text, location };
  });
  if (location) res.setHeader('Location', location);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.writeHead(status);
  res.end(text);
}

// The donation list's sorts (src/modules/donations/donations.list.ts), as SQL.
const DONATION_SORTS = {
  created_at: { column: 'created_at', value: (r) => r.created_at.toISOString() },
  received_at: { column: 'received_at', value: (r) => r.received_at.toISOString() },
  amount: { column: 'amount', value: (r) => Number(r.amount) },
};

/** The page and count SQL of src/common/lists/keyset-page.ts for the donation list (the filters the bench sends). */
function donationListSql(tenantId, params) {
  const values = [tenantId];
  const p = (v) => {
    values.push(v);
    return `$${values.length}`;
  };
  const where = ['d.tenant_id = $1'];
  for (const [key, raw] of params) {
    if (key === 'limit' || key === 'sort' || key === 'cursor') continue;
    const match = /^([a-z_]+)(?:\[([a-z]+)\])?$/.exec(key);
    if (!match) throw new HttpError(400, 'invalid_parameter');
    const [, field, op = 'eq'] = match;
    if (field === 'fund_id' || field === 'donor_id') {
      // idCondition: one id is `=` (a range of the (tenant_id, fund_id, received_at, id) index).
      const prefix = field === 'fund_id' ? 'fnd' : 'mem';
      const ids = (op === 'in' ? raw.split(',') : [raw])
        .map((r) => parsePublicId(prefix, r))
        .filter((id) => id !== null);
      const list = ids.length ? ids : ['00000000-0000-0000-0000-000000000000'];
      where.push(list.length === 1 ? `d.${field} = ${p(list[0])}` : `d.${field} IN (${list.map(p).join(', ')})`);
    } else if (
      (field === 'received_at' || field === 'created_at' || field === 'updated_at') &&
      OPS[op] &&
      op !== 'eq' &&
      op !== 'ne'
    ) {
      where.push(`d.${field} ${OPS[op]} ${p(new Date(/^\d{4}-\d{2}-\d{2}$/.test(raw) ? `${raw}T00:00:00Z` : raw))}`);
    } else throw new HttpError(400, 'invalid_parameter');
  }
  const countSql = `SELECT count(*)::int AS total FROM donations d WHERE ${where.join(' AND ')}`;
  const countValues = [...values];

  const sortText = params.get('sort') || 'created_at';
  const sort = sortText.split(',').map((part) => ({ field: part.replace(/^-/, ''), descending: part.startsWith('-') }));
  if (sort.some((s) => !DONATION_SORTS[s.field])) throw new HttpError(400, 'invalid_parameter');
  // donations.repository.ts createdAtBounds: in the created_at order, received_at[gte|gt] X bounds
  // created_at >= X - 5 minutes in the page query (not the count).
  if (sort[0].field === 'created_at') {
    for (const [key, raw] of params) {
      if (key !== 'received_at[gte]' && key !== 'received_at[gt]') continue;
      const since = new Date(/^\d{4}-\d{2}-\d{2}$/.test(raw) ? `${raw}T00:00:00Z` : raw);
      where.push(`d.created_at >= ${p(new Date(since.getTime() - 5 * 60_000))}`);
    }
  }
  const columns = sort.map((s) => ({
    expr: `d.${DONATION_SORTS[s.field].column}`,
    desc: s.descending,
    nullable: false,
  }));
  columns.push({ expr: 'd.id', desc: columns[columns.length - 1].desc, nullable: false });
  const cursor = params.get('cursor');
  if (cursor) {
    const [sortKey, vals, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (sortKey !== sortText) throw new HttpError(400, 'invalid_parameter');
    where.push(keyset(columns, [...vals, id], p));
  }
  const limit = Number(params.get('limit') ?? 50);
  if (!(limit >= 1 && limit <= 250)) throw new HttpError(400, 'invalid_parameter');
  const pageSql = `SELECT ${DONATION_COLUMNS.split(', ')
    .map((c) => `d.${c}`)
    .join(
      ', ',
    )} FROM donations d WHERE ${where.join(' AND ')} ORDER BY ${columns.map((c) => `${c.expr} ${c.desc ? 'DESC' : 'ASC'}`).join(', ')} LIMIT ${limit + 1}`;
  return { pageSql, values, countSql, countValues, sort, sortText, limit };
}

async function listDonations(req, res, url) {
  const principal = await authenticate(req);
  const lang = language(req.headers['accept-language']);
  const q = donationListSql(principal.tenant_id, url.searchParams);
  const counting = req.headers['x-bench-count'] !== 'off';
  const { rows, total, funds, donors, campuses, hasMore } = await inTenant(principal.tenant_id, async (client) => {
    const { rows } = await client.query(q.pageSql, q.values);
    const count = counting ? (await client.query(q.countSql, q.countValues)).rows[0].total : 0;
    const more = rows.length > q.limit;
    if (more) rows.pop();
    // The page's funds, donors and campuses, one query each (none for an empty id list).
    const ids = (column) => [...new Set(rows.map((r) => r[column]).filter((id) => id !== null))];
    const byId = async (list, sql) =>
      new Map(list.length ? (await client.query(sql, [principal.tenant_id, list])).rows.map((r) => [r.id, r]) : []);
    const funds = await byId(
      ids('fund_id'),
      'SELECT id, name FROM funds WHERE tenant_id = $1 AND id = ANY($2::uuid[])',
    );
    const donors = await byId(
      ids('donor_id'),
      'SELECT id, first_name FROM members WHERE tenant_id = $1 AND id = ANY($2::uuid[])',
    );
    const campuses = await byId(
      ids('campus_id'),
      'SELECT id, name FROM campuses WHERE tenant_id = $1 AND id = ANY($2::uuid[])',
    );
    return { rows, total: count, funds, donors, campuses, hasMore: more };
  });
  const last = rows[rows.length - 1];
  const nextCursor =
    hasMore && last
      ? Buffer.from(
          JSON.stringify([q.sortText, q.sort.map((s) => DONATION_SORTS[s.field].value(last)), last.id]),
        ).toString('base64url')
      : null;
  const data = rows.map((d) =>
    donationJson(
      d,
      funds.get(d.fund_id),
      d.donor_id ? donors.get(d.donor_id) : undefined,
      d.campus_id ? campuses.get(d.campus_id) : undefined,
    ),
  );
  const text = JSON.stringify({ data, next_cursor: nextCursor, total });
  const tag = `"${createHash('sha1').update(principal.tenant_id).update('\0').update(lang).update('\0').update(text).digest('base64url')}"`;
  res.setHeader('ETag', tag);
  res.setHeader('Cache-Control', 'private, no-cache');
  res.setHeader('Vary', 'Authorization, X-Tenant, Accept-Language');
  const inm = req.headers['if-none-match'];
  if (inm && inm.split(',').some((c) => c.trim().replace(/^W\//, '') === tag)) {
    res.writeHead(304);
    res.end();
    return;
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.writeHead(200);
  res.end(text);
}

const ministry = ministryRoutes({
  authenticate,
  inTenant,
  readBody,
  publicId,
  parsePublicId,
  uuidv7,
  HttpError,
  recordEvents,
  isAllowedCode,
  send,
  language,
  memberJson,
  campusesOf,
  tagsOf,
});

const reports = reportRoutes({ authenticate, inTenant, HttpError, send, todayIn, defaultFrom });

const changes = changeRoutes({
  authenticate,
  inTenant,
  HttpError,
  send,
  language,
  publicId,
  memberJson,
  campusesOf,
  tagsOf,
});

const server = createServer(async (req, res) => {
  res.setHeader('X-Request-Id', publicId('req', randomUUID()));
  try {
    const url = new URL(req.url, 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/v1/members') return await listMembers(req, res, url);
    if (req.method === 'POST' && url.pathname === '/v1/members/bulk') return await bulkCreate(req, res);
    if (req.method === 'POST' && url.pathname === '/v1/donations') return await createDonation(req, res);
    if (req.method === 'GET' && url.pathname === '/v1/donations') return await listDonations(req, res, url);
    if (await ministry(req, res, url)) return;
    if (await reports(req, res, url)) return;
    if (await changes(req, res, url)) return;
    if (req.method === 'GET' && url.pathname === '/healthz') {
      await pool.query('SELECT 1');
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      return res.end('ok');
    }
    throw new HttpError(404, 'route_not_found');
  } catch (error) {
    const status = error instanceof HttpError ? error.status : 500;
    if (status === 500) console.error(error);
    const text = JSON.stringify({ status, code: error instanceof HttpError ? error.message : 'internal_error' });
    if (!res.headersSent)
      res.writeHead(status, { 'Content-Type': 'application/problem+json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  }
});
server.keepAliveTimeout = 65_000;
server.listen(PORT, '127.0.0.1', () => console.error(`baseline listening on http://127.0.0.1:${PORT}`));

const stop = () => server.close(() => pool.end().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
