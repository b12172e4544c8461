// Scenarios 11, 12 and 13 (issue 14, ministry): the Sunday-morning kiosk burst (search by phone,
// then check the household in), POST /v1/attendance/bulk with 500 rows, and a 500-member group's
// roster; API against the baseline doing the same SQL (bench/baseline/ministry.mjs).
import { churchSlug } from '../lib/seed.mjs';
import { series } from '../lib/measure.mjs';
import { db, log, sleep } from '../lib/util.mjs';
import { auth, expectOk, probe, ratioRow } from './http.mjs';

export const publicId = (prefix, uuid) => `${prefix}_${uuid.replace(/-/g, '')}`;

/** A POST with the church's admin token; throws unless it answers `status`. */
export async function adminPost(ctx, church, path, body, status = 201) {
  const res = await fetch(ctx.api.url(path), {
    method: 'POST',
    headers: { ...auth(church, church.tokens[0]), 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== status) throw new Error(`POST ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** The church's live events named so, created through the API when missing (in `names` order). */
export async function eventsNamed(ctx, church, names) {
  const ids = [];
  for (const name of names) {
    const found = await db(
      async (c) =>
        (
          await c.query('SELECT id FROM events WHERE tenant_id = $1 AND name = $2 AND deleted_at IS NULL', [
            church.id,
            name,
          ])
        ).rows[0],
    );
    if (found) ids.push(publicId('evt', found.id));
    else {
      const starts = new Date(Date.now() + 3_600_000);
      const event = await adminPost(ctx, church, '/v1/events', {
        name,
        starts_at: starts.toISOString(),
        ends_at: new Date(starts.getTime() + 5_400_000).toISOString(),
        timezone: 'America/Chicago',
      });
      ids.push(event.id);
    }
  }
  return ids;
}

/** Values kept between bench invocations (kiosk keys are shown once). */
export async function kept(key, make) {
  const have = await db(
    async (c) => (await c.query('SELECT value FROM bench_seed WHERE key = $1', [key])).rows[0]?.value,
  );
  if (have) return have;
  const value = await make();
  await db((c) => c.query('INSERT INTO bench_seed (key, value) VALUES ($1, $2)', [key, JSON.stringify(value)]));
  return value;
}

// ---- 11 ---------------------------------------------------------------------------------------

export const KIOSKS = 64;
export const SERVICES = ['Bench Sunday 09:00', 'Bench Sunday 11:00', 'Bench Sunday 13:00'];

/** Households of exactly three live members, one of them with a phone: its last four digits and the three ids. */
export async function familiesOfThree(church) {
  return db(
    async (c) =>
      (
        await c.query(
          `SELECT right(min(m.phone), 4) AS last4, array_agg(m.id ORDER BY m.id) AS members
             FROM members m WHERE m.tenant_id = $1 AND m.deleted_at IS NULL AND m.household_id IS NOT NULL
            GROUP BY m.household_id HAVING count(*) = 3 AND min(m.phone) IS NOT NULL
            ORDER BY m.household_id`,
          [church.id],
        )
      ).rows,
  );
}

/**
 * Waits until no backend of the bench's servers is busy: requests still in flight when the load
 * generator stopped finish before a run's rows are cleared (else they land in the next run).
 */
async function settle(c) {
  const busy = `SELECT count(*)::int AS n FROM pg_stat_activity
                 WHERE datname = current_database() AND application_name LIKE 'church-%' AND application_name <> 'church-bench-probe' AND state <> 'idle'`;
  await sleep(250);
  for (let i = 0; i < 200 && (await c.query(busy)).rows[0].n > 0; i++) await sleep(50);
}

/** What a Sunday morning leaves, removed before each run: check-ins, their attendance and events. Counts duplicate codes first. */
export async function clearSunday(church, eventUuids, seen) {
  await db(async (c) => {
    await settle(c);
    const dup = await c.query(
      'SELECT count(*)::int AS n FROM (SELECT 1 FROM check_ins WHERE tenant_id = $1 GROUP BY day, security_code HAVING count(*) > 1) d',
      [church.id],
    );
    const partial = await c.query(
      `SELECT count(*)::int AS n FROM check_ins k WHERE k.tenant_id = $1
          AND cardinality(k.member_ids) <> (SELECT count(*) FROM attendance a WHERE a.tenant_id = k.tenant_id AND a.check_in_id = k.id)`,
      [church.id],
    );
    const made = await c.query('SELECT count(*)::int AS n FROM check_ins WHERE tenant_id = $1', [church.id]);
    seen.duplicates += dup.rows[0].n;
    seen.partial += partial.rows[0].n;
    seen.checkIns += made.rows[0].n;
    await c.query('BEGIN');
    await c.query('LOCK TABLE check_ins, attendance IN SHARE ROW EXCLUSIVE MODE');
    await c.query('DELETE FROM attendance WHERE tenant_id = $1 AND event_id = ANY($2::uuid[])', [
      church.id,
      eventUuids,
    ]);
    await c.query('DELETE FROM check_ins WHERE tenant_id = $1', [church.id]);
    await c.query(`DELETE FROM webhook_events WHERE tenant_id = $1 AND type = 'attendance.recorded'`, [church.id]);
    await c.query('COMMIT');
    await c.query('VACUUM (ANALYZE) attendance, check_ins');
  });
}

export const uuidOf = (id) => id.replace(/^[a-z]+_/, '').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

/**
 * Scenario 11's kiosk iteration on `church`: for each service and family of three, the kiosk
 * searches by the phone's last four digits, then checks the three in (64 kiosk keys in turn).
 */
export async function kioskRequests(ctx, church) {
  const events = await eventsNamed(ctx, church, SERVICES);
  const keys = await kept('kiosk_keys', async () => {
    const values = [];
    for (let i = 0; i < KIOSKS; i++)
      values.push(
        (await adminPost(ctx, church, '/v1/devices', { name: `Bench kiosk ${i + 1}`, campus: 'central' })).key,
      );
    return values;
  });
  const families = await familiesOfThree(church);
  const requests = [];
  let n = 0;
  for (const event of events) {
    for (const family of families) {
      const headers = auth(church, keys[n++ % KIOSKS]);
      requests.push({
        method: 'GET',
        path: `/v1/check-in/search?event_id=${event}&phone_last4=${family.last4}`,
        headers,
      });
      requests.push({
        method: 'POST',
        path: '/v1/check-ins',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: { event_id: event, member_ids: family.members.map((m) => publicId('mem', m)) },
      });
    }
  }
  return { events, requests };
}

export async function scenario11(ctx) {
  const church = ctx.fixtures.churches[churchSlug(0)];
  const { events, requests } = await kioskRequests(ctx, church);
  const seen = { duplicates: 0, partial: 0, checkIns: 0 };
  const clear = () => clearSunday(church, events.map(uuidOf), seen);
  await clear();
  try {
    const search = await probe(ctx, requests[0]);
    expectOk(search, 'scenario 11 (search)');
    if (!search.same_body) log(`  scenario 11: search bodies differ`);
    const hit = JSON.parse(search.api_body).data.find((h) => h.members.length === 3);
    if (!hit) throw new Error(`scenario 11: the search found no household of three: ${search.api_body.slice(0, 300)}`);
    await clear();
    const apiCheck = await fetch(ctx.api.url(requests[1].path), {
      method: 'POST',
      headers: requests[1].headers,
      body: JSON.stringify(requests[1].body),
    });
    const apiBody = await apiCheck.json();
    await clear();
    const baseCheck = await fetch(ctx.baseline.url(requests[1].path), {
      method: 'POST',
      headers: requests[1].headers,
      body: JSON.stringify(requests[1].body),
    });
    const baseBody = await baseCheck.json();
    const shape = (b) =>
      JSON.stringify({
        ...b,
        id: null,
        security_code: null,
        checked_in_at: null,
        labels: b.labels?.map((l) => ({ ...l, security_code: null })),
        parent_label: { ...b.parent_label, security_code: null },
      });
    if (apiCheck.status !== 201 || baseCheck.status !== 201)
      throw new Error(
        `scenario 11: check-in answered ${apiCheck.status} / ${baseCheck.status}: ${JSON.stringify(apiBody).slice(0, 300)}`,
      );
    const sameShape = shape(apiBody) === shape(baseBody);
    if (!sameShape)
      log(
        `  scenario 11: check-in bodies differ beyond id, code and time:\n    ${JSON.stringify(apiBody)}\n    ${JSON.stringify(baseBody)}`,
      );
    Object.assign(seen, { duplicates: 0, partial: 0, checkIns: 0 });

    const r = await series([
      { key: '11:api', server: ctx.api, requests, connections: KIOSKS, before: clear },
      { key: '11:baseline', server: ctx.baseline, requests, connections: KIOSKS, before: clear },
    ]);
    await clear();
    const api = r['11:api'];
    const base = r['11:baseline'];
    const iterations = (x) => ({ ...x, rps: x.rps / 2 });
    const row = ratioRow(
      '11',
      `Sunday-morning burst on a 50k church: ${KIOSKS} kiosk keys, each iteration GET /v1/check-in/search?phone_last4 then POST /v1/check-ins of the household's 3 (iterations/s)`,
      iterations(api),
      iterations(base),
      0.5,
      { same_body: search.same_body && sameShape },
    );
    row.metric = 'iterations/s';
    const refused = api.non2xx + api.errors + base.non2xx + base.errors;
    if (refused) {
      row.pass = false;
      row.title += ` (${refused} requests refused or failed)`;
    }
    log(
      `  scenario 11: ${seen.checkIns} check-ins over the runs, ${seen.duplicates} duplicate codes in a day, ${seen.partial} without all their attendance`,
    );
    const unique = {
      id: '11',
      title: `security codes unique per church and day after every run (${seen.checkIns.toLocaleString('en')} check-ins checked), each with its 3 attendance records`,
      metric: 'duplicates',
      project: { duplicates: seen.duplicates, partial: seen.partial },
      baseline: null,
      ratio: null,
      target: { op: '==', value: 0 },
      pass: seen.duplicates === 0 && seen.partial === 0 && seen.checkIns > 0,
    };
    return [row, unique];
  } finally {
    await clear();
  }
}

// ---- 12 ---------------------------------------------------------------------------------------

const BULK_EVENTS = Array.from({ length: 40 }, (_, i) => `Bench service ${String(i + 1).padStart(2, '0')}`);

export async function scenario12(ctx) {
  const church = ctx.fixtures.churches[churchSlug(1)];
  const events = await eventsNamed(ctx, church, BULK_EVENTS);
  const members = await db(async (c) =>
    (
      await c.query('SELECT id FROM members WHERE tenant_id = $1 AND deleted_at IS NULL ORDER BY id', [church.id])
    ).rows.map((r) => publicId('mem', r.id)),
  );
  const kinds = ['regular', 'regular', 'regular', 'guest', 'volunteer'];
  const requests = [];
  for (const event of events) {
    for (let i = 0; i + 500 <= members.length; i += 500) {
      const attendance = members
        .slice(i, i + 500)
        .map((member_id, j) => ({ member_id, event_id: event, kind: kinds[j % kinds.length] }));
      requests.push({
        method: 'POST',
        path: '/v1/attendance/bulk',
        headers: {
          ...auth(church, church.tokens[requests.length % church.tokens.length]),
          'Content-Type': 'application/json',
        },
        body: { attendance },
      });
    }
  }
  const eventUuids = events.map(uuidOf);
  const clear = () =>
    db(async (c) => {
      await settle(c);
      await c.query('DELETE FROM attendance WHERE tenant_id = $1 AND event_id = ANY($2::uuid[])', [
        church.id,
        eventUuids,
      ]);
      await c.query(`DELETE FROM webhook_events WHERE tenant_id = $1 AND type = 'attendance.recorded'`, [church.id]);
      await c.query('VACUUM (ANALYZE) attendance, webhook_events');
    });
  await clear();
  try {
    const apiRes = await fetch(ctx.api.url(requests[0].path), {
      method: 'POST',
      headers: requests[0].headers,
      body: JSON.stringify(requests[0].body),
    });
    const apiBody = await apiRes.json();
    await clear();
    const baseRes = await fetch(ctx.baseline.url(requests[0].path), {
      method: 'POST',
      headers: requests[0].headers,
      body: JSON.stringify(requests[0].body),
    });
    const baseBody = await baseRes.json();
    if (apiRes.status !== 200 || baseRes.status !== 200 || apiBody.created !== 500 || baseBody.created !== 500) {
      throw new Error(
        `scenario 12: bulk answered ${apiRes.status} / ${baseRes.status}: ${JSON.stringify(apiBody).slice(0, 300)}`,
      );
    }
    const r = await series([
      { key: '12:api', server: ctx.api, requests, connections: 4, before: clear },
      { key: '12:baseline', server: ctx.baseline, requests, connections: 4, before: clear },
    ]);
    const api = r['12:api'];
    const row = ratioRow(
      '12',
      'POST /v1/attendance/bulk (500 records of one event, one attendance.recorded each), 4 conns',
      api,
      r['12:baseline'],
      0.35,
    );
    const refused = api.non2xx + api.errors;
    if (refused) {
      row.pass = false;
      row.title += ` (${refused} API requests refused or failed)`;
    }
    return [row];
  } finally {
    await clear();
  }
}

// ---- 13 ---------------------------------------------------------------------------------------

const ROSTER_GROUP = 'Bench roster (500)';

/** A group of the church with 500 members (every 97th live member), made once through the API and SQL. */
async function rosterGroup(ctx, church) {
  const found = await db(
    async (c) =>
      (
        await c.query('SELECT id FROM groups WHERE tenant_id = $1 AND name = $2 AND deleted_at IS NULL', [
          church.id,
          ROSTER_GROUP,
        ])
      ).rows[0],
  );
  if (found) return publicId('grp', found.id);
  const group = await adminPost(ctx, church, '/v1/groups', {
    name: ROSTER_GROUP,
    campus: 'central',
    meeting_day: 'wednesday',
    meeting_time: '19:00',
  });
  await db((c) =>
    c.query(
      `INSERT INTO group_members (tenant_id, id, group_id, member_id, group_role, joined_at, created_at, updated_at)
       SELECT $1, gen_random_uuid(), $2, m.id, CASE WHEN m.n <= 3 THEN 'leader' ELSE 'member' END, now() - (m.n || ' hours')::interval, now(), now()
         FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM members WHERE tenant_id = $1 AND deleted_at IS NULL) m
        WHERE m.n % 97 = 0 AND m.n <= 97 * 500`,
      [church.id, uuidOf(group.id)],
    ),
  );
  await db((c) => c.query('ANALYZE group_members'));
  return group.id;
}

export async function scenario13(ctx) {
  const church = ctx.fixtures.churches[churchSlug(0)];
  const group = await rosterGroup(ctx, church);
  const requests = church.tokens.map((token) => ({
    method: 'GET',
    path: `/v1/groups/${group}/members`,
    headers: auth(church, token),
  }));
  const check = await probe(ctx, requests[0]);
  expectOk(check, 'scenario 13');
  const body = JSON.parse(check.api_body);
  if (body.total !== 500) throw new Error(`scenario 13: the group has ${body.total} members, expected 500`);
  if (!check.same_body) log(`  scenario 13: API and baseline bodies differ`);
  const r = await series([
    { key: '13:api', server: ctx.api, requests, connections: 32 },
    { key: '13:baseline', server: ctx.baseline, requests, connections: 32 },
  ]);
  return [
    ratioRow(
      '13',
      `GET /v1/groups/{id}/members (a 500-member group, first page of ${body.data.length} with total), 32 conns`,
      r['13:api'],
      r['13:baseline'],
      0.6,
      { same_body: check.same_body },
    ),
  ];
}
