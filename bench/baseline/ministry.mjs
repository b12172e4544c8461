// The baseline's ministry routes (scenarios 11–13, issue 14), the same SQL as the API per request:
//   GET /v1/check-in/search?event_id&phone_last4: the event (CheckInRepository.findEvent), then the
//     households search (CheckInRepository.search), grouped as CheckInService does;
//   POST /v1/check-ins: the event, the members with the `allergies` definition (findMembers), the
//     token's device (deviceOfToken), the church's banned sequences, the check-in with a fresh code (insertWithCode, another code
//     while the unique index refuses one), the attendance rows in one unnest insert
//     (AttendanceRepository.insertMany) and the outbox: events, endpoints and deliveries
//     (EventsService.recordMany);
//   POST /v1/attendance/bulk: the rows' members and events (AttendanceService.checkReferences), the
//     unnest insert, the outbox;
//   GET /v1/groups/{id}/members: the roster page joined with its members and their tag ids, and
//     its count without the join (GroupsRepository.roster through fetchPage); campuses and tag
//     names from the per-church maps, as the API's member lists; the envelope, ETag and 304 (the
//     API caches the total and answers If-None-Match from the members list version: not here).
import { createHash, randomInt } from 'node:crypto';

const SEARCH_HITS = 25;
const CODE_ALPHABET = 'BCDFGHJKLMNPRSTXZ2456789';

const FIND_EVENT = 'SELECT id, timezone, status FROM events WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL';
const PHONE_HITS = `SELECT m.id, m.household_id FROM members m
  WHERE m.tenant_id = $1 AND m.deleted_at IS NULL AND m.phone_last4 IS NOT NULL AND m.phone_last4 = $3
  LIMIT ${SEARCH_HITS * 4}`;
const SEARCH = `WITH hits AS (${PHONE_HITS}),
      homes AS (SELECT DISTINCT household_id FROM hits WHERE household_id IS NOT NULL LIMIT ${SEARCH_HITS}),
      people AS (
        SELECT h.id AS household_id, h.name AS household_name, m.id, m.first_name, m.last_name, m.birthdate, m.household_role
          FROM homes
          JOIN households h ON h.tenant_id = $1 AND h.id = homes.household_id AND h.deleted_at IS NULL
          JOIN members m ON m.tenant_id = $1 AND m.household_id = h.id AND m.deleted_at IS NULL
        UNION ALL
        SELECT NULL::uuid, m.first_name || ' ' || m.last_name, m.id, m.first_name, m.last_name, m.birthdate, m.household_role
          FROM hits
          JOIN members m ON m.tenant_id = $1 AND m.id = hits.id AND m.deleted_at IS NULL
         WHERE hits.household_id IS NULL
      )
 SELECT p.household_id AS "householdId", p.household_name AS "householdName", p.id, p.first_name AS "firstName", p.last_name AS "lastName",
        date_part('year', age(current_date, p.birthdate))::int AS age,
        EXISTS (SELECT 1 FROM attendance a WHERE a.tenant_id = $1 AND a.event_id = $2 AND a.member_id = p.id) AS "checkedIn"
   FROM people p
  ORDER BY p.household_name, p.household_id, array_position(ARRAY['head', 'spouse', 'adult', 'child', 'other'], p.household_role), p.birthdate NULLS LAST, p.id`;
const FIND_MEMBERS = `SELECT m.id, m.first_name AS "firstName", m.last_name AS "lastName", nullif(m.custom_fields ->> 'allergies', '') AS allergies, d.defined AS "allergiesDefined"
   FROM members m
   CROSS JOIN (SELECT EXISTS (SELECT 1 FROM custom_field_definitions WHERE tenant_id = $1 AND key = 'allergies') AS defined) d
  WHERE m.tenant_id = $1 AND m.id = ANY($2::uuid[]) AND m.deleted_at IS NULL`;
const DEVICE_OF_TOKEN = 'SELECT device_id FROM api_tokens WHERE tenant_id = $1 AND id = $2';
const BANNED = 'SELECT banned_sequences FROM check_in_settings WHERE tenant_id = $1';
const INSERT_CHECK_IN = `INSERT INTO check_ins (tenant_id, id, event_id, day, security_code, member_ids, device_id, token_id)
  VALUES ($1, $2, $3, (now() AT TIME ZONE $4)::date, $5, $6::uuid[], $7, $8)
  ON CONFLICT (tenant_id, day, security_code) DO NOTHING
  RETURNING to_char(day, 'YYYY-MM-DD') AS day, created_at`;
const INSERT_ATTENDANCE = `INSERT INTO attendance (tenant_id, id, event_id, member_id, kind, checked_in_at, check_in_id, created_at, updated_at)
  SELECT $1, u.id, u.event_id, u.member_id, u.kind, u.checked_in_at, u.check_in_id, u.created_at, u.created_at
  FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::timestamptz[], $7::uuid[], $8::timestamptz[])
    AS u(id, event_id, member_id, kind, checked_in_at, check_in_id, created_at)
  ON CONFLICT (tenant_id, event_id, member_id) DO NOTHING
  RETURNING id`;
const LIVE_MEMBERS = 'SELECT id FROM members WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND deleted_at IS NULL';
const LIVE_EVENTS = 'SELECT id FROM events WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND deleted_at IS NULL';

const MEMBER_COLUMNS = `m.tenant_id, m.id, m.first_name, m.last_name, m.email, m.phone, m.birthdate, m.gender, m.status,
  m.campus_id, m.active, m.household_id, m.household_role, m.address, m.custom_fields, m.created_at, m.updated_at, m.deleted_at`;
const ROSTER_WHERE = `gm.tenant_id = $1 AND gm.group_id = $2
  AND EXISTS (SELECT 1 FROM groups g WHERE g.tenant_id = $1 AND g.id = $2 AND g.deleted_at IS NULL)`;
const ROSTER_FROM =
  'group_members gm INNER JOIN members m ON m.tenant_id = gm.tenant_id AND m.id = gm.member_id AND m.deleted_at IS NULL';
const PAGE_TAG_IDS =
  'ARRAY(SELECT mt.tag_id FROM member_tags mt WHERE mt.tenant_id = m.tenant_id AND mt.member_id = m.id) AS tag_ids';

function newCode() {
  let code = '';
  for (let i = 0; i < 4; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** Route handlers over the baseline server's parts (its pool, auth, transaction and outbox helpers). */
export function ministryRoutes(d) {
  const {
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
  } = d;

  async function search(req, res, url) {
    const principal = await authenticate(req);
    const eventId = parsePublicId('evt', url.searchParams.get('event_id') ?? '');
    const last4 = url.searchParams.get('phone_last4') ?? '';
    if (!eventId || !/^\d{4}$/.test(last4)) throw new HttpError(400, 'invalid_parameter');
    const rows = await inTenant(principal.tenant_id, async (client) => {
      if (!(await client.query(FIND_EVENT, [principal.tenant_id, eventId])).rows[0])
        throw new HttpError(404, 'not_found');
      return (await client.query(SEARCH, [principal.tenant_id, eventId, last4])).rows;
    });
    const data = [];
    let key = null;
    for (const row of rows) {
      const rowKey = row.householdId ?? `solo:${row.id}`;
      if (rowKey !== key) {
        data.push({
          id: row.householdId ? publicId('hh', row.householdId) : null,
          name: row.householdName,
          members: [],
        });
        key = rowKey;
      }
      data[data.length - 1].members.push({
        id: publicId('mem', row.id),
        first_name: row.firstName,
        last_name: row.lastName,
        age: row.age,
        checked_in: row.checkedIn,
      });
    }
    send(res, 200, JSON.stringify({ data }));
  }

  async function checkIn(req, res) {
    const principal = await authenticate(req);
    const body = JSON.parse(await readBody(req));
    const eventId = parsePublicId('evt', body?.event_id ?? '');
    if (!eventId || !Array.isArray(body.member_ids) || body.member_ids.length === 0 || body.member_ids.length > 50)
      throw new HttpError(422, 'validation_failed');
    const memberIds = [...new Set(body.member_ids.map((ref) => parsePublicId('mem', ref)))];
    if (memberIds.includes(null)) throw new HttpError(422, 'validation_failed');
    const tenantId = principal.tenant_id;
    const text = await inTenant(tenantId, async (client) => {
      const event = (await client.query(FIND_EVENT, [tenantId, eventId])).rows[0];
      const members = (await client.query(FIND_MEMBERS, [tenantId, memberIds])).rows;
      if (!event || members.length !== memberIds.length) throw new HttpError(422, 'validation_failed');
      const deviceId = (await client.query(DEVICE_OF_TOKEN, [tenantId, principal.id])).rows[0]?.device_id ?? null;
      if (event.status === 'canceled') throw new HttpError(409, 'event_canceled');
      const id = uuidv7();
      const banned = (await client.query(BANNED, [tenantId])).rows[0]?.banned_sequences ?? [];
      let code;
      let inserted;
      for (let attempt = 0; !inserted && attempt < 50; attempt++) {
        do code = newCode();
        while (!isAllowedCode(code, banned));
        inserted = (
          await client.query(INSERT_CHECK_IN, [
            tenantId,
            id,
            eventId,
            event.timezone,
            code,
            memberIds,
            deviceId,
            principal.id,
          ])
        ).rows[0];
      }
      if (!inserted) throw new HttpError(409, 'conflict');
      const at = inserted.created_at;
      const records = memberIds.map((memberId) => ({ id: uuidv7(), memberId }));
      const now = new Date();
      const ok = await client.query(INSERT_ATTENDANCE, [
        tenantId,
        records.map((r) => r.id),
        records.map(() => eventId),
        records.map((r) => r.memberId),
        records.map(() => 'regular'),
        records.map(() => at.toISOString()),
        records.map(() => id),
        records.map(() => now.toISOString()),
      ]);
      if (ok.rows.length !== records.length) throw new HttpError(409, 'already_checked_in');
      await recordEvents(
        client,
        principal,
        'attendance.recorded',
        records.map((r) => attendanceJson(r.id, eventId, r.memberId, 'regular', at, id, now)),
      );
      const byId = new Map(members.map((m) => [m.id, m]));
      const ordered = memberIds.map((mid) => byId.get(mid));
      const labels = ordered.map((m) => {
        const label = {
          member_id: publicId('mem', m.id),
          first_name: m.firstName,
          last_name: m.lastName,
          security_code: code,
        };
        if (m.allergiesDefined) label.allergies = m.allergies;
        return label;
      });
      return JSON.stringify({
        id: publicId('cki', id),
        event_id: publicId('evt', eventId),
        security_code: code,
        labels,
        parent_label: { security_code: code, names: ordered.map((m) => `${m.firstName} ${m.lastName}`) },
        device_id: deviceId ? publicId('dev', deviceId) : null,
        checked_in_at: at.toISOString(),
      });
    });
    send(res, 201, text);
  }

  async function attendanceBulk(req, res) {
    const principal = await authenticate(req);
    const body = JSON.parse(await readBody(req));
    const rows = body?.attendance;
    if (!Array.isArray(rows) || rows.length === 0 || rows.length > 500) throw new HttpError(422, 'validation_failed');
    const parsed = rows.map((r) => ({
      memberId: parsePublicId('mem', r?.member_id ?? ''),
      eventId: parsePublicId('evt', r?.event_id ?? ''),
      kind: r?.kind ?? 'regular',
      checkedInAt: r?.checked_in_at ? new Date(r.checked_in_at) : null,
    }));
    if (parsed.some((r) => !r.memberId || !r.eventId || !['regular', 'guest', 'volunteer'].includes(r.kind)))
      throw new HttpError(422, 'validation_failed');
    const tenantId = principal.tenant_id;
    const results = await inTenant(tenantId, async (client) => {
      const members = new Set(
        (await client.query(LIVE_MEMBERS, [tenantId, [...new Set(parsed.map((r) => r.memberId))]])).rows.map(
          (r) => r.id,
        ),
      );
      const events = new Set(
        (await client.query(LIVE_EVENTS, [tenantId, [...new Set(parsed.map((r) => r.eventId))]])).rows.map((r) => r.id),
      );
      if (parsed.some((r) => !members.has(r.memberId) || !events.has(r.eventId)))
        throw new HttpError(422, 'validation_failed');
      const now = new Date();
      const records = parsed.map((r) => ({ ...r, id: uuidv7(), checkedInAt: r.checkedInAt ?? now }));
      const inserted = (
        await client.query(INSERT_ATTENDANCE, [
          tenantId,
          records.map((r) => r.id),
          records.map((r) => r.eventId),
          records.map((r) => r.memberId),
          records.map((r) => r.kind),
          records.map((r) => r.checkedInAt.toISOString()),
          records.map(() => null),
          records.map(() => now.toISOString()),
        ])
      ).rows;
      if (inserted.length !== records.length) throw new HttpError(409, 'conflict');
      await recordEvents(
        client,
        principal,
        'attendance.recorded',
        records.map((r) => attendanceJson(r.id, r.eventId, r.memberId, r.kind, r.checkedInAt, null, now)),
      );
      return records.map((r, index) => ({ index, id: publicId('att', r.id) }));
    });
    send(res, 200, JSON.stringify({ created: results.length, failed: 0, results }));
  }

  async function roster(req, res, url, groupRef) {
    const principal = await authenticate(req);
    const lang = d.language(req.headers['accept-language']);
    const groupId = parsePublicId('grp', groupRef);
    if (!groupId) throw new HttpError(404, 'not_found');
    const limit = Number(url.searchParams.get('limit') ?? 50);
    if (!(limit >= 1 && limit <= 250) || url.searchParams.has('cursor')) throw new HttpError(400, 'invalid_parameter');
    const tenantId = principal.tenant_id;
    // Campuses and tag names from the per-church maps, tag ids with the page, as the API (and the member list) does.
    const campuses = (await d.campusesOf(tenantId)).byId;
    const churchTags = await d.tagsOf(tenantId);
    const { rows, total } = await inTenant(tenantId, async (client) => {
      const { rows } = await client.query(
        `SELECT gm.id AS gm_id, gm.group_role, gm.joined_at, ${MEMBER_COLUMNS}, ${PAGE_TAG_IDS} FROM ${ROSTER_FROM} WHERE ${ROSTER_WHERE} ORDER BY gm.joined_at ASC, gm.id ASC LIMIT ${limit + 1}`,
        [tenantId, groupId],
      );
      const total = (
        await client.query(`SELECT count(*)::int AS total FROM group_members gm WHERE ${ROSTER_WHERE}`, [
          tenantId,
          groupId,
        ])
      ).rows[0].total;
      if (!rows.length) throw new HttpError(404, 'not_found');
      return { rows, total };
    });
    const tags = new Map(
      rows.map((r) => [
        r.id,
        r.tag_ids
          .map((id) => churchTags.get(id))
          .sort((a, b) => a.rank - b.rank)
          .map((t) => t.ref),
      ]),
    );
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const nextCursor = hasMore
      ? Buffer.from(JSON.stringify(['joined_at', [last.joined_at.toISOString()], last.gm_id])).toString('base64url')
      : null;
    const today = new Date().toISOString().slice(0, 10);
    const data = page.map((m) => ({
      ...d.memberJson(m, campuses, lang, today, tags.get(m.id) ?? []),
      group_role: m.group_role,
      joined_at: m.joined_at.toISOString(),
    }));
    const text = JSON.stringify({ data, next_cursor: nextCursor, total });
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

  function attendanceJson(id, eventId, memberId, kind, checkedInAt, checkInId, now) {
    return {
      id: publicId('att', id),
      event_id: publicId('evt', eventId),
      member_id: publicId('mem', memberId),
      kind,
      checked_in_at: checkedInAt.toISOString(),
      check_in_id: checkInId ? publicId('cki', checkInId) : null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
  }

  /** Handles the request when it is one of these routes; false otherwise. */
  return async function route(req, res, url) {
    if (req.method === 'GET' && url.pathname === '/v1/check-in/search') return search(req, res, url).then(() => true);
    if (req.method === 'POST' && url.pathname === '/v1/check-ins') return checkIn(req, res).then(() => true);
    if (req.method === 'POST' && url.pathname === '/v1/attendance/bulk')
      return attendanceBulk(req, res).then(() => true);
    const group = /^\/v1\/groups\/([^/]+)\/members$/.exec(url.pathname);
    if (req.method === 'GET' && group) return roster(req, res, url, group[1]).then(() => true);
    return false;
  };
}
