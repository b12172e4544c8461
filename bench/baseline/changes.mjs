// The baseline's changes feed (scenario 18): `GET /v1/changes?since=&types=member&limit=` as a plain
// handler, answering the same JSON as the API (src/modules/changes/changes.service.ts feed):
//   1. token lookup (server.mjs authenticate), then one transaction as the church;
//   2. the page: the SQL of ChangesRepository.feed verbatim (the keyset on (position, seq) after the
//      cursor and after what retention removed, below the snapshot's xmin, limit + 1 rows, with the
//      watermark and the horizon in the same statement);
//   3. the page's members in one query (their tag ids with them, as the member list's page query
//      reads them); campuses and tag names from the per-church maps of server.mjs, read once;
//   4. each change rendered as the API does: upsert or delete, the member as its GET returns it,
//      previous_attributes on an update (the old values of the fields the member's GET shows);
//   5. the ETag every GET of the API carries (SHA-1 of church, language and body) and 304.
// Not done here: the scope check of `types`, parameter validation beyond the shape, the rate limiter.
import { createHash } from 'node:crypto';

// Members only: the one change source the API registers (src/modules/members/members.changes.ts).

// src/modules/changes/changes.repository.ts COLUMNS and feed(), unchanged.
const COLUMNS = `c.position::text AS position, c.seq::text AS seq, c.object_type AS "objectType", c.object_id AS "objectId",
  c.op, c.old_values AS "oldValues", c.new_values AS "newValues", c.merged_into AS "mergedInto", c.actor,
  c.request_id AS "requestId", c.changed_at AS "changedAt"`;
const LINE = `pg_snapshot_xmin(pg_current_snapshot())::text::bigint`;
const FEED = `SELECT w.line::text AS line, h.position::text AS "hPosition", h.seq::text AS "hSeq", ${COLUMNS}
           FROM (SELECT ${LINE} AS line) w
           LEFT JOIN change_horizons h ON h.tenant_id = $1
           LEFT JOIN LATERAL (
             SELECT * FROM changes c
              WHERE c.tenant_id = $1 AND (c.position, c.seq) > ($2::bigint, $3::bigint)
                AND (h.position IS NULL OR (c.position, c.seq) > (h.position, h.seq))
                AND c.position < w.line AND c.object_type = ANY($4::text[])
              ORDER BY c.position, c.seq
              LIMIT $5
           ) c ON true
          ORDER BY c.position, c.seq`;

const MEMBER_COLUMNS = `m.tenant_id, m.id, m.first_name, m.last_name, m.email, m.phone, m.birthdate, m.gender, m.status,
  m.campus_id, m.active, m.household_id, m.household_role, m.address, m.custom_fields, m.created_at, m.updated_at, m.deleted_at`;
const PAGE_MEMBERS = `SELECT ${MEMBER_COLUMNS},
  ARRAY(SELECT mt.tag_id FROM member_tags mt WHERE mt.tenant_id = m.tenant_id AND mt.member_id = m.id) AS tag_ids
  FROM members m WHERE m.tenant_id = $1 AND m.id = ANY($2::uuid[]) AND m.deleted_at IS NULL`;

const CURSOR = /^1\.(\d{1,19})\.(\d{1,19})$/;
const encodeCursor = (k) => Buffer.from(`1.${k.position}.${k.seq}`).toString('base64url');
const compareKeys = (a, b) =>
  a.position !== b.position ? (a.position < b.position ? -1 : 1) : a.seq === b.seq ? 0 : a.seq < b.seq ? -1 : 1;
const laterOf = (a, b) => (compareKeys(a, b) >= 0 ? a : b);
const START = { position: 0n, seq: 0n };

// src/modules/changes/change-fields.ts REFERENCES (the columns a member has) and its timestamp form.
const REFERENCES = { household_id: 'hh', campus_id: 'cmp', member_id: 'mem', primary_contact_id: 'mem' };
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d$/;

/** Route handlers over the baseline server's parts. */
export function changeRoutes(d) {
  const { authenticate, inTenant, HttpError, send, language, publicId, memberJson, campusesOf, tagsOf } = d;
  let memberFields = null;

  /** change-fields.ts toFields for members: the fields a member's GET shows (the keys of its JSON). */
  function toFields(columns) {
    const out = {};
    for (const [column, raw] of Object.entries(columns ?? {})) {
      const prefix = REFERENCES[column];
      const value =
        prefix && typeof raw === 'string'
          ? publicId(prefix, raw)
          : typeof raw === 'string' && TIMESTAMP.test(raw)
            ? new Date(raw).toISOString()
            : raw;
      if (memberFields.has(column)) out[column] = value;
      else if (column.endsWith('_id') && memberFields.has(column.slice(0, -3)))
        out[column.slice(0, -3)] = value === null ? null : { id: value };
    }
    return out;
  }

  async function feed(req, res, url) {
    const principal = await authenticate(req);
    const lang = language(req.headers['accept-language']);
    const params = url.searchParams;
    let since = null;
    if (params.has('since')) {
      const m = CURSOR.exec(Buffer.from(params.get('since'), 'base64url').toString());
      if (!m) throw new HttpError(400, 'invalid_parameter');
      since = { position: BigInt(m[1]), seq: BigInt(m[2]) };
    }
    const limit = params.has('limit') ? Number(params.get('limit')) : 100;
    if (!(Number.isInteger(limit) && limit >= 1 && limit <= 1000)) throw new HttpError(400, 'invalid_parameter');
    const types = (params.get('types') ?? 'member').split(',');
    if (types.some((t) => t !== 'member')) throw new HttpError(400, 'invalid_parameter');
    const tenantId = principal.tenant_id;
    const campuses = (await campusesOf(tenantId)).byId;
    const churchTags = await tagsOf(tenantId);
    const after = since ?? START;
    const { rows, line, horizon, members } = await inTenant(tenantId, async (client) => {
      const { rows: all } = await client.query(FEED, [
        tenantId,
        after.position.toString(),
        after.seq.toString(),
        types,
        limit + 1,
      ]);
      const [first] = all;
      const rows = all.filter((r) => r.position !== null);
      const ids = [
        ...new Set(
          rows
            .slice(0, limit)
            .filter((r) => r.op !== 'delete')
            .map((r) => r.objectId),
        ),
      ];
      const members = ids.length ? (await client.query(PAGE_MEMBERS, [tenantId, ids])).rows : [];
      return {
        rows,
        line: BigInt(first.line),
        horizon: first.hPosition ? { position: BigInt(first.hPosition), seq: BigInt(first.hSeq) } : null,
        members,
      };
    });
    if (since && horizon && compareKeys(since, horizon) < 0) throw new HttpError(410, 'sync_cursor_expired');
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    const keyOf = (r) => ({ position: BigInt(r.position), seq: BigInt(r.seq) });
    const last = page.length ? keyOf(page[page.length - 1]) : after;
    const next = hasMore ? last : laterOf(laterOf(last, after), { position: line, seq: 0n });
    const today = new Date().toISOString().slice(0, 10);
    const objects = new Map();
    for (const m of members) {
      const tags = m.tag_ids
        .map((id) => churchTags.get(id))
        .sort((a, b) => a.rank - b.rank)
        .map((t) => t.ref);
      objects.set(m.id, memberJson(m, campuses, lang, today, tags));
    }
    if (!memberFields && objects.size) memberFields = new Set(Object.keys(objects.values().next().value));
    const data = page.map((r) => {
      const object = r.op === 'delete' ? null : (objects.get(r.objectId) ?? null);
      const change = {
        id: `chg_${r.seq}`,
        object_type: r.objectType,
        object_id: publicId('mem', r.objectId),
        op: r.op === 'delete' ? 'delete' : 'upsert',
        changed_at: r.changedAt.toISOString(),
        object,
        merged_into: r.mergedInto ? publicId('mem', r.mergedInto) : null,
      };
      if (r.op === 'update' && object) change.previous_attributes = toFields(r.oldValues);
      return change;
    });
    // The API's conditional GET (src/common/http/conditional-get.ts): an ETag of the church, the
    // language and the body, 304 on a match, as the member list here.
    const text = JSON.stringify({ data, next_cursor: encodeCursor(next), has_more: hasMore });
    const tag = `"${createHash('sha1').update(tenantId).update('\0').update(lang).update('\0').update(text).digest('base64url')}"`;
    res.setHeader('ETag', tag);
    res.setHeader('Cache-Control', 'private, no-cache');
    res.setHeader('Vary', 'Authorization, X-Tenant, Accept-Language');
    const inm = req.headers['if-none-match'];
    if (inm && inm.split(',').some((c) => c.trim().replace(/^W\//, '') === tag)) {
      res.writeHead(304);
      res.end();
      return;
    }
    send(res, 200, text);
  }

  return async (req, res, url) => {
    if (req.method === 'GET' && url.pathname === '/v1/changes') {
      await feed(req, res, url);
      return true;
    }
    return false;
  };
}
