// Scenarios 17 and 18 (the change log, CONTRACT §15–§16): what the change-log triggers cost member
// writes (the API against itself with the triggers disabled, alternately, in one invocation), and a
// client following the changes feed of a church with 1,000,000 changes from the start against a
// raw baseline (bench/baseline/changes.mjs); EXPLAIN of the feed's page SQL on a church with
// 10,000,000 changes.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BULK, churchSlug, ensureChurch } from '../lib/seed.mjs';
import { captureFeedSql, captureMemberWriteSql, explain, judgePlan } from '../lib/explain.mjs';
import { series } from '../lib/measure.mjs';
import {
  BENCH_DIR,
  config,
  cpuDelta,
  cpuSample,
  db,
  log,
  median,
  nodeBin,
  percentile,
  pidsByName,
  requireFromDist,
  requireFromRepo,
  run,
} from '../lib/util.mjs';
import { auth, bulkBody, ratioRow } from './http.mjs';

const publicId = (prefix, uuid) => `${prefix}_${uuid.replace(/-/g, '')}`;

// ---- 17: the write cost of the change log --------------------------------------------------------

/**
 * The change-log triggers member writes fire: record_changes and the membership functions
 * (record_membership_changes, or a table's own record_<table>_<type>_changes since migration
 * 1765180000000) on members (`members_changes_<op>`, `members_household_<op>`) and member_tags
 * (`member_tags_member_<op>`), found in the catalog by their functions (`record_…changes`).
 */
async function changeTriggers(c) {
  return (
    await c.query(
      `SELECT t.tgrelid::regclass::text AS tbl, t.tgname AS name, t.tgenabled <> 'D' AS enabled
         FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
        WHERE t.tgrelid IN ('members'::regclass, 'member_tags'::regclass)
          AND p.proname LIKE 'record\\_%changes' AND NOT t.tgisinternal
        ORDER BY 1, 2`,
    )
  ).rows;
}

/** Enables or disables the change-log triggers of member writes, in one transaction (the bench's superuser connection). */
async function setChangeLog(on) {
  await db(async (c) => {
    const triggers = await changeTriggers(c);
    const names = triggers.map((t) => t.name);
    for (const want of ['members_changes_insert', 'members_changes_update', 'members_household_update'])
      if (!names.includes(want)) throw new Error(`scenario 17: no trigger ${want} (found ${names.join(', ')})`);
    await c.query('BEGIN');
    for (const t of triggers) await c.query(`ALTER TABLE ${t.tbl} ${on ? 'ENABLE' : 'DISABLE'} TRIGGER ${t.name}`);
    await c.query('COMMIT');
  });
}

const PATCH_MEMBERS_PER_CHURCH = 50;
/** The field a PATCH changes rotates over these, each member's between two values. */
const PATCH_FIELDS = [
  [{ status: 'regular' }, { status: 'leader' }],
  [{ gender: 'female' }, { gender: 'male' }],
  [{ custom_fields: { occupation: 'Teacher' } }, { custom_fields: { occupation: 'Nurse' } }],
];
/**
 * Members are patched in blocks of this many: the block's first values, then its second values,
 * then the next block. Before each run every member is put back on its second value
 * (resetPatched), so that every request of a run, which starts at the list's beginning, changes
 * its member (an unchanged member writes no change row). Twice the connections, so that a
 * member's two requests are seldom in flight together.
 */
const PATCH_BLOCK = 64;

/**
 * The PATCH requests: the 50 newest live members of each of the 20 churches, the churches
 * interleaved and their two tokens alternating, in blocks (PATCH_BLOCK). Returns the requests,
 * the members with their values before (to restore), and where each member's two requests are.
 */
async function patchRequests(ctx) {
  const churches = Array.from({ length: config.churches }, (_, i) => ctx.fixtures.churches[churchSlug(i)]);
  const members = await db(async (c) => {
    const out = [];
    for (const church of churches) {
      const { rows } = await c.query(
        `SELECT id, status, gender, custom_fields, updated_at FROM members
          WHERE tenant_id = $1 AND deleted_at IS NULL ORDER BY id DESC LIMIT $2`,
        [church.id, PATCH_MEMBERS_PER_CHURCH],
      );
      out.push(rows.map((r) => ({ ...r, church })));
    }
    return out;
  });
  const order = [];
  for (let k = 0; k < PATCH_MEMBERS_PER_CHURCH; k++) for (const list of members) if (list[k]) order.push(list[k]);
  const requests = [];
  const request = (m, j, half) => ({
    method: 'PATCH',
    path: `/v1/members/${publicId('mem', m.id)}`,
    headers: { ...auth(m.church, m.church.tokens[j % m.church.tokens.length]), 'Content-Type': 'application/json' },
    body: PATCH_FIELDS[j % PATCH_FIELDS.length][half],
  });
  for (let from = 0; from < order.length; from += PATCH_BLOCK) {
    const block = order.slice(from, from + PATCH_BLOCK);
    for (const half of [0, 1]) block.forEach((m, i) => requests.push(request(m, from + i, half)));
  }
  // The first member's two requests: the first and the block's first second value.
  return { requests, members: order, pair: [requests[0], requests[Math.min(PATCH_BLOCK, order.length)]] };
}

/**
 * Change rows written between calls of next(key), per key: the rows of `tenantIds` counted at
 * each call (rebase(): count again, after the bench removed some).
 */
class ChangeLedger {
  constructor(tenantIds) {
    this.ids = tenantIds;
    this.open = null;
    this.last = 0;
    this.by = {};
  }

  count() {
    return db(
      async (c) =>
        (await c.query('SELECT count(*)::int AS n FROM changes WHERE tenant_id = ANY($1::uuid[])', [this.ids])).rows[0]
          .n,
    );
  }

  async next(key) {
    const n = await this.count();
    if (this.open) (this.by[this.open] ??= []).push(n - this.last);
    this.open = key;
    this.last = n;
  }

  async rebase() {
    this.last = await this.count();
  }

  /** Rows written in the measured runs of `key` (the first interval is the warm-up's). */
  measured(key) {
    return (this.by[key] ?? []).slice(config.warmup > 0 ? 1 : 0).reduce((s, n) => s + n, 0);
  }
}

/**
 * Before each PATCH run and warm-up: every patched member back on the second value of its field
 * (in SQL, the triggers disabled), so that each request of the run, which starts at the list's
 * first value, changes its member.
 */
async function resetPatched(members) {
  await setChangeLog(false);
  const values = members.map((m, j) => ({
    tenant_id: m.church.id,
    id: m.id,
    ...PATCH_FIELDS[j % PATCH_FIELDS.length][1],
  }));
  await db((c) =>
    c.query(
      `UPDATE members m SET status = coalesce(v.status, m.status), gender = coalesce(v.gender, m.gender),
              custom_fields = m.custom_fields || coalesce(v.custom_fields, '{}')
         FROM jsonb_to_recordset($1::jsonb) AS v(tenant_id uuid, id uuid, status text, gender text, custom_fields jsonb)
        WHERE m.tenant_id = v.tenant_id AND m.id = v.id`,
      [JSON.stringify(values)],
    ),
  );
}

/** A member's change rows (the sanity check that the triggers are what is switched). */
const changeCount = (c, tenantId, memberId) =>
  c
    .query(
      `SELECT count(*)::int AS n FROM changes WHERE tenant_id = $1 AND object_type = 'member' AND object_id = $2`,
      [tenantId, memberId],
    )
    .then((r) => r.rows[0].n);

async function patchOnce(ctx, request) {
  const res = await fetch(ctx.api.url(request.path), {
    method: 'PATCH',
    headers: request.headers,
    body: JSON.stringify(request.body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`scenario 17: PATCH answered ${res.status}: ${text.slice(0, 300)}`);
}

/**
 * Before measuring: with the triggers disabled a member's two PATCHes (its first value, then its
 * second) write no change row; enabled, the same two write two (each changes the member).
 */
async function checkSwitch(ctx, member, pair) {
  const count = () => db((c) => changeCount(c, member.church.id, member.id));
  const both = async () => {
    for (const request of pair) await patchOnce(ctx, request);
  };
  await setChangeLog(false);
  const n0 = await count();
  await both();
  const n1 = await count();
  await setChangeLog(true);
  await both();
  const n2 = await count();
  if (n1 !== n0 || n2 !== n1 + 2)
    throw new Error(
      `scenario 17: change rows of one member ${n0} → ${n1} (disabled) → ${n2} (enabled); expected +0, +2`,
    );
  log(`  scenario 17: two PATCHes write ${n1 - n0} change rows with the triggers disabled, ${n2 - n1} enabled`);
}

/**
 * Where a write's database time goes: `statement` (captured from the build) EXPLAIN ANALYZE'd as
 * the app role in `church`, each time in a transaction rolled back, on one session (a trigger
 * function's first call in a session compiles it and plans its statements: tens of ms that the
 * API's pooled sessions pay once), with the triggers enabled and disabled, alternately: one
 * uncounted of each, then `times` each. The statement's time and each trigger's (PostgreSQL
 * reports a statement-level trigger's time per statement), medians.
 */
async function writeCost(church, statement, times) {
  const { Client } = requireFromRepo('pg');
  const client = new Client({ connectionString: config.databaseUrl, application_name: 'church-bench-explain' });
  await client.connect();
  const out = { on: [], off: [] };
  try {
    for (let i = 0; i <= times; i++) {
      for (const on of [true, false]) {
        await setChangeLog(on);
        await client.query('BEGIN');
        await client.query(`SELECT set_config('role', 'church_app', true), set_config('app.tenant_id', $1, true)`, [
          church.id,
        ]);
        const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.sql}`, statement.params);
        await client.query('ROLLBACK');
        const json = rows[0]['QUERY PLAN'][0];
        const triggers = Object.fromEntries((json.Triggers ?? []).map((t) => [t['Trigger Name'], t.Time]));
        if (i > 0) out[on ? 'on' : 'off'].push({ ms: json['Execution Time'], triggers });
      }
    }
  } finally {
    await client.end();
    await setChangeLog(true);
  }
  const summary = (runs) => {
    const names = [...new Set(runs.flatMap((r) => Object.keys(r.triggers)))];
    return {
      ms: median(runs.map((r) => r.ms)),
      triggers: Object.fromEntries(names.map((n) => [n, median(runs.map((r) => r.triggers[n] ?? 0))])),
    };
  };
  return { on: summary(out.on), off: summary(out.off), each: out };
}

/** The INSERT of the bulk body's 500 members as MembersRepository.insert sends it, and its cost (writeCost). */
async function insertCost(church, body, times = 3) {
  const { newUuid } = requireFromDist('common/ids/id.js');
  const campuses = await db(
    async (c) =>
      new Map(
        (await c.query('SELECT key, id FROM campuses WHERE tenant_id = $1', [church.id])).rows.map((r) => [
          r.key,
          r.id,
        ]),
      ),
  );
  const now = new Date();
  const entities = body.members.map((m) => ({
    id: newUuid(),
    firstName: m.first_name,
    lastName: m.last_name,
    email: m.email ?? null,
    phone: m.phone ?? null,
    birthdate: m.birthdate ?? null,
    gender: m.gender ?? null,
    status: m.status ?? 'visitor',
    campusId: m.campus ? (campuses.get(m.campus) ?? null) : null,
    active: m.active ?? true,
    householdId: null,
    householdRole: null,
    address: m.address ?? null,
    customFields: m.custom_fields ?? {},
    createdAt: now,
    updatedAt: now,
  }));
  const [statement] = await captureMemberWriteSql(church.id, (repo) => repo.insert(entities));
  return writeCost(church, statement, times);
}

/** A PATCH's UPDATE of one member's status as MembersRepository.update sends it, and its cost (writeCost). */
async function updateCost(member, times = 5) {
  const now = await db(
    async (c) =>
      (await c.query('SELECT status FROM members WHERE tenant_id = $1 AND id = $2', [member.church.id, member.id]))
        .rows[0].status,
  );
  const status = now === 'leader' ? 'regular' : 'leader';
  const [statement] = await captureMemberWriteSql(member.church.id, (repo) =>
    repo.update(member.id, { status, updatedAt: new Date() }),
  );
  return writeCost(member.church, statement, times);
}

/**
 * The bulk church emptied (as scenario 4 does) before each run and warm-up of either side, with
 * the triggers disabled so that the delete writes no changes; then its change rows removed. Each
 * run starts from the same empty church.
 */
async function clearBulk(church) {
  await setChangeLog(false);
  await db(async (c) => {
    for (const table of ['webhook_deliveries', 'webhook_events', 'audit_log', 'idempotency_keys', 'members', 'changes'])
      await c.query(`DELETE FROM ${table} WHERE tenant_id = $1`, [church.id]);
    await c.query('VACUUM (ANALYZE) members, webhook_events');
  });
}

/** After the scenario: the patched members' values back (no change rows), and what the scenario wrote removed. */
async function restore(churches, members, since) {
  await setChangeLog(false);
  try {
    await db(async (c) => {
      await c.query(
        `UPDATE members m SET status = o.status, gender = o.gender, custom_fields = o.custom_fields, updated_at = o.updated_at
           FROM jsonb_to_recordset($1::jsonb) AS o(tenant_id uuid, id uuid, status text, gender text, custom_fields jsonb, updated_at timestamptz)
          WHERE m.tenant_id = o.tenant_id AND m.id = o.id`,
        [
          JSON.stringify(
            members.map((m) => ({
              tenant_id: m.church.id,
              id: m.id,
              status: m.status,
              gender: m.gender,
              custom_fields: m.custom_fields,
              updated_at: m.updated_at,
            })),
          ),
        ],
      );
      const ids = churches.map((ch) => ch.id);
      await c.query('DELETE FROM changes WHERE tenant_id = ANY($1::uuid[]) AND changed_at >= $2', [ids, since]);
      for (const table of ['webhook_deliveries', 'webhook_events', 'audit_log'])
        await c.query(`DELETE FROM ${table} WHERE tenant_id = ANY($1::uuid[]) AND created_at >= $2`, [ids, since]);
      await c.query('VACUUM (ANALYZE) members, webhook_events, audit_log');
    });
  } finally {
    await setChangeLog(true);
  }
}

export async function scenario17(ctx) {
  const since = new Date();
  await setChangeLog(true); // whatever an interrupted run left
  const { requests, members, pair } = await patchRequests(ctx);
  const bulkChurch = ctx.fixtures.churches[BULK];
  const bulk = bulkChurch.tokens.map((token) => ({
    method: 'POST',
    path: '/v1/members/bulk',
    headers: { ...auth(bulkChurch, token), 'Content-Type': 'application/json' },
    body: bulkBody(),
  }));
  const churches = [...new Set(members.map((m) => m.church))];
  try {
    await checkSwitch(ctx, members[0], pair);
    const patchLedger = new ChangeLedger(churches.map((ch) => ch.id));
    const patch = await series([
      {
        key: '17:patch:on',
        server: ctx.api,
        requests,
        connections: 32,
        before: async () => {
          await patchLedger.next('on');
          await resetPatched(members);
          await setChangeLog(true);
        },
      },
      {
        key: '17:patch:off',
        server: ctx.api,
        requests,
        connections: 32,
        before: async () => {
          await patchLedger.next('off');
          await resetPatched(members);
        },
      },
    ]);
    await patchLedger.next(null);
    const bulkLedger = new ChangeLedger([bulkChurch.id]);
    const bulkRuns = await series([
      {
        key: '17:bulk:on',
        server: ctx.api,
        requests: bulk,
        connections: 4,
        before: async () => {
          await bulkLedger.next('on');
          await clearBulk(bulkChurch);
          await bulkLedger.rebase();
          await setChangeLog(true);
        },
      },
      {
        key: '17:bulk:off',
        server: ctx.api,
        requests: bulk,
        connections: 4,
        before: async () => {
          await bulkLedger.next('off');
          await clearBulk(bulkChurch);
          await bulkLedger.rebase();
        },
      },
    ]);
    await bulkLedger.next(null);
    await clearBulk(bulkChurch);
    const cost = await insertCost(bulkChurch, bulk[0].body);
    const patchCost = await updateCost(members[members.length - 1]);
    const fmt = (x) => `${x.toFixed(x < 10 ? 2 : 1)} ms`;
    const costText = (side, verb) =>
      [
        `${verb} ${fmt(side.ms)}`,
        ...Object.entries(side.triggers)
          .filter(([, ms]) => ms >= 0.05)
          .sort((a, b) => b[1] - a[1])
          .map(([name, ms]) => `${name} ${fmt(ms)}`),
      ].join(', ');
    log(
      `  scenario 17: EXPLAIN ANALYZE of the 500-member INSERT: with the log ${costText(cost.on, 'INSERT')}; without ${costText(cost.off, 'INSERT')}`,
    );
    log(
      `  scenario 17: EXPLAIN ANALYZE of a PATCH's UPDATE: with the log ${costText(patchCost.on, 'UPDATE')}; without ${costText(patchCost.off, 'UPDATE')}`,
    );
    const p = { on: patch['17:patch:on'], off: patch['17:patch:off'] };
    const b = { on: bulkRuns['17:bulk:on'], off: bulkRuns['17:bulk:off'] };
    const rowsPer = (ledger, key, s) => ledger.measured(key) / Math.max(1, s.requests);
    const written = {
      patch: { on: rowsPer(patchLedger, 'on', p.on), off: rowsPer(patchLedger, 'off', p.off) },
      bulk: { on: rowsPer(bulkLedger, 'on', b.on), off: rowsPer(bulkLedger, 'off', b.off) },
    };
    log(
      `  scenario 17: change rows per request in the measured runs: PATCH ${written.patch.on.toFixed(2)} with the log, ${written.patch.off.toFixed(2)} without; bulk ${written.bulk.on.toFixed(1)} with, ${written.bulk.off.toFixed(1)} without`,
    );
    const note = { metric: 'req/s (baseline column: the same API with the change-log triggers disabled)' };
    const text = (x, rows) =>
      `${Math.round(x.db_us_per_req).toLocaleString('en')} µs PostgreSQL, ${Math.round(x.cpu_us_per_req).toLocaleString('en')} µs API; ${rows.toLocaleString('en', { maximumFractionDigits: 2 })} change rows`;
    const infoRow = (title, s, w) => ({
      id: '17',
      title,
      metric: 'text',
      project: { text: text(s.on, w.on) },
      baseline: { text: text(s.off, w.off) },
      ratio: null,
      target: null,
      pass: null,
    });
    // Every PATCH with the log writes one change row and every bulk request 500, none without: else
    // the pair does not measure what it says.
    const writesOk = (w, per) => Math.abs(w.on - per) <= 0.05 * per && w.off === 0;
    const flag = (w, per) =>
      writesOk(w, per) ? '' : ` (change rows per request ${w.on.toFixed(2)} / ${w.off}, expected ${per} / 0)`;
    const patchRow = ratioRow(
      '17',
      `PATCH /v1/members/{id} (a rotating field: status, gender, a custom field), 1,000 members of the 20 churches, 32 conns: with the change log / without (triggers disabled, runs alternating)${flag(written.patch, 1)}`,
      p.on,
      p.off,
      0.85,
    );
    const bulkRow = ratioRow(
      '17',
      `POST /v1/members/bulk (500 members, as scenario 4), 4 conns, the church emptied before each run: with the change log / without${flag(written.bulk, 500)}`,
      b.on,
      b.off,
      0.85,
    );
    patchRow.pass &&= writesOk(written.patch, 1);
    bulkRow.pass &&= writesOk(written.bulk, 500);
    return [
      { ...patchRow, ...note },
      infoRow('the same: PostgreSQL and API CPU and change rows per PATCH, with / without (info)', p, written.patch),
      {
        id: '17',
        title:
          "where a PATCH's database time goes: EXPLAIN ANALYZE of the API's UPDATE of one member (captured from the build, as the app role, rolled back, one session), with the triggers / without, medians of 5 alternating after one of each (info; triggers over 0.05 ms)",
        metric: 'text',
        project: { text: costText(patchCost.on, 'UPDATE') },
        baseline: { text: costText(patchCost.off, 'UPDATE') },
        ratio: patchCost.on.ms / patchCost.off.ms,
        target: null,
        pass: null,
        update_cost: patchCost,
      },
      { ...bulkRow, ...note },
      infoRow(
        'the same: PostgreSQL and API CPU and change rows per bulk request, with / without (info)',
        b,
        written.bulk,
      ),
      {
        id: '17',
        title:
          "where a bulk request's database time goes: EXPLAIN ANALYZE of the API's 500-member INSERT (captured from the build, as the app role, rolled back, one session), with the triggers / without, medians of 3 alternating after one of each (info; triggers over 0.05 ms)",
        metric: 'text',
        project: { text: costText(cost.on, 'INSERT') },
        baseline: { text: costText(cost.off, 'INSERT') },
        ratio: cost.on.ms / cost.off.ms,
        target: null,
        pass: null,
        insert_cost: cost,
      },
    ];
  } finally {
    await restore(churches, members, since);
    await clearBulk(bulkChurch);
    await setChangeLog(true);
  }
}

// ---- 18: following the feed ------------------------------------------------------------------------

const FEED_CHURCH = 'bench-feed';
const FEED_MEMBERS = Math.round(Number(process.env.BENCH_FEED_MEMBERS ?? 20_000));
const FEED_CHANGES = Math.round(Number(process.env.BENCH_FEED_CHANGES ?? 1_000_000));
/**
 * A church with this many changes whose feed page is EXPLAINed (`bench-feed-10m`, made once);
 * 0 (the default): the feed church's. 10,000,000 take ~10 minutes to insert on the 2-core
 * machine (1,000,000 took 71 s), beyond the few minutes a seed step should; see bench/README.md.
 */
const EXPLAIN_CHURCH = 'bench-feed-10m';
const EXPLAIN_CHANGES = Math.round(Number(process.env.BENCH_FEED_EXPLAIN_CHANGES ?? 0));
const PAGE = 250;
const WARMUP_ROWS = 25_000;
/**
 * A full read of 1,000,000 changes takes minutes (4,000 pages one after another), so each side's
 * read is cut into segments of this many rows, the two sides alternating segment by segment, each
 * going on from its own cursor: a noisy neighbour hits both alike. BENCH_FEED_READS full reads a side.
 */
const SEGMENT_ROWS = 50_000;
const READS = Math.max(1, Math.round(Number(process.env.BENCH_FEED_READS ?? 1)));
/** A read's length in rows; 0 (the default): the whole log. Fewer for a quick look or a profile. */
const READ_ROWS = Math.round(Number(process.env.BENCH_FEED_ROWS ?? 0));
const BATCH = 1_000_000;

/**
 * `n` change rows of the church, made once in SQL (kept while the church holds exactly `n`):
 * `update`s of its live members (each ~n / members times), the members in a scattered order
 * (row i names member (i × 7919) mod members, so a page of 250 names 250 members), small
 * old_values and new_values (`status` or `active`), an actor and a request id, changed over the
 * last 7 days. Positions: the feed returns positions below the oldest running transaction id, and
 * a test cluster's ids are few (thousands to tens of thousands), so the rows share the positions
 * from 3 up to the current id, n / 20 at most (dozens of rows a position, in seq order: what a
 * transaction changing many records writes). Inserted directly (no trigger runs), in order,
 * 1,000,000 rows a statement; then VACUUM (ANALYZE), so that no autovacuum of the table runs into
 * a measurement.
 */
async function ensureChanges(church, n) {
  return db(async (c) => {
    const key = `changes:${church.slug}`;
    const have = (await c.query('SELECT count(*)::int AS n FROM changes WHERE tenant_id = $1', [church.id])).rows[0].n;
    const marker = (await c.query('SELECT value FROM bench_seed WHERE key = $1', [key])).rows[0]?.value;
    if (marker && marker.changes === n && have === n) return { ...marker, made_ms: null };
    const started = Date.now();
    await c.query('DELETE FROM changes WHERE tenant_id = $1', [church.id]);
    await c.query('DELETE FROM change_horizons WHERE tenant_id = $1', [church.id]);
    const ids = (
      await c.query(
        `SELECT array_agg(id ORDER BY id) AS ids FROM members WHERE tenant_id = $1 AND deleted_at IS NULL`,
        [church.id],
      )
    ).rows[0].ids;
    const xmin = BigInt((await c.query('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS x')).rows[0].x);
    const positions = Math.max(1, Math.min(Math.floor(n / 20), Number(xmin) - 10));
    await c.query('SET synchronous_commit = off');
    for (let from = 1; from <= n; from += BATCH) {
      const to = Math.min(n, from + BATCH - 1);
      await c.query(
        `INSERT INTO changes (tenant_id, position, xid, object_type, object_id, op, old_values, new_values, actor, request_id, changed_at)
         SELECT $1, 3 + ((g.i - 1) * $4::bigint) / $3, 3 + ((g.i - 1) * $4::bigint) / $3, 'member',
                ($2::uuid[])[1 + (((g.i - 1) * 7919) % array_length($2::uuid[], 1))::int], 'update',
                CASE WHEN g.i % 2 = 0 THEN jsonb_build_object('status', (ARRAY['visitor', 'regular', 'member', 'leader'])[1 + g.i % 4])
                     ELSE jsonb_build_object('active', g.i % 4 = 1) END,
                CASE WHEN g.i % 2 = 0 THEN jsonb_build_object('status', (ARRAY['regular', 'member', 'leader', 'visitor'])[1 + g.i % 4])
                     ELSE jsonb_build_object('active', g.i % 4 <> 1) END,
                '{"type": "token", "id": "tok_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f", "name": "bench import"}'::jsonb,
                'req_' || lpad(to_hex(g.i), 32, '0'),
                now() - interval '7 days' * (1 - g.i::float8 / $3)
           FROM generate_series($5::bigint, $6::bigint) AS g(i)`,
        [church.id, ids, n, positions, from, to],
      );
      log(
        `  ${church.slug}: ${to.toLocaleString('en')} of ${n.toLocaleString('en')} change rows (${Math.round((Date.now() - started) / 1000)} s)`,
      );
    }
    await c.query('VACUUM (ANALYZE) changes');
    const value = { changes: n, members: ids.length, positions, made_ms: Date.now() - started };
    await c.query(
      'INSERT INTO bench_seed (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
      [key, JSON.stringify(value)],
    );
    log(
      `  ${church.slug}: ${n.toLocaleString('en')} change rows of ${ids.length.toLocaleString('en')} members over ${positions.toLocaleString('en')} positions, vacuumed (${Math.round(value.made_ms / 1000)} s)`,
    );
    return value;
  });
}

let readCounter = 0;

/** Pages of the feed from `since` (null: the start) by bench/lib/feed-reader.mjs (its own process), with the server's CPU. */
async function readFeed(server, church, since, maxRows) {
  const dir = join(BENCH_DIR, '.build', 'load');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `feed-${process.pid}-${++readCounter}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      baseUrl: server.url(),
      path: `/v1/changes?types=member&limit=${PAGE}`,
      headers: auth(church, church.tokens[0]),
      since,
      maxRows,
    }),
  );
  const backends = await server.backendPids();
  const redis = pidsByName('redis-server');
  const before = { proc: cpuSample([server.pid]), db: cpuSample(backends), redis: cpuSample(redis) };
  const { stdout } = await run(nodeBin(), [join(BENCH_DIR, 'lib', 'feed-reader.mjs'), file]);
  const backendsAfter = [...new Set([...backends, ...(await server.backendPids())])];
  const after = { proc: cpuSample([server.pid]), db: cpuSample(backendsAfter), redis: cpuSample(redis) };
  const r = JSON.parse(stdout.trim().split('\n').pop());
  if (r.failure) throw new Error(`scenario 18: ${server.name} feed read failed after ${r.rows} rows: ${r.failure}`);
  return {
    ...r,
    cpu_us: cpuDelta(before.proc, after.proc),
    db_us: cpuDelta(before.db, after.db),
    redis_us: cpuDelta(before.redis, after.redis),
  };
}

/** One side's full read, segment by segment: rows/s over the whole read, page latencies over every page. */
class FullRead {
  constructor(server) {
    this.server = server;
    this.cursor = null;
    this.done = false;
    this.segments = [];
    this.digest = createHash('sha1');
  }

  async segment(church) {
    const read = this.segments.reduce((n, x) => n + x.rows, 0);
    const r = await readFeed(
      this.server,
      church,
      this.cursor,
      READ_ROWS > 0 ? Math.min(SEGMENT_ROWS, READ_ROWS - read) : SEGMENT_ROWS,
    );
    this.segments.push(r);
    this.digest.update(r.digest);
    this.cursor = r.next_cursor;
    this.done = !r.has_more || (READ_ROWS > 0 && read + r.rows >= READ_ROWS);
    return r;
  }

  summary() {
    const sum = (k) => this.segments.reduce((s, r) => s + r[k], 0);
    const rows = sum('rows');
    const seconds = sum('seconds');
    const latencies = this.segments.flatMap((r) => r.latencies).sort((a, b) => a - b);
    const n = Math.max(1, rows);
    return {
      rps: rows / seconds,
      rows,
      pages: latencies.length,
      seconds,
      p50_ms: percentile(latencies, 50),
      p90_ms: percentile(latencies, 90),
      p99_ms: percentile(latencies, 99),
      max_ms: latencies[latencies.length - 1],
      cpu_us_per_req: sum('cpu_us') / n,
      db_us_per_req: sum('db_us') / n,
      redis_us_per_req: sum('redis_us') / n,
      digest: this.digest.digest('hex'),
      segment_rps: this.segments.map((r) => Math.round(r.rps)),
    };
  }
}

const READ_METRICS = [
  'rps',
  'seconds',
  'p50_ms',
  'p90_ms',
  'p99_ms',
  'max_ms',
  'cpu_us_per_req',
  'db_us_per_req',
  'redis_us_per_req',
];

function summarizeReads(reads) {
  return {
    ...Object.fromEntries(READ_METRICS.map((m) => [m, median(reads.map((r) => r[m]))])),
    rows: reads[0].rows,
    pages: reads[0].pages,
    runs: reads.length,
    each: reads.map((r) => Object.fromEntries([...READ_METRICS, 'segment_rps'].map((m) => [m, r[m]]))),
  };
}

/** The first page from both servers, compared byte for byte, and their ETags (the first difference logged). */
async function compareFirstPage(ctx, church) {
  const bodies = {};
  const etags = {};
  for (const server of [ctx.api, ctx.baseline]) {
    const res = await fetch(server.url(`/v1/changes?types=member&limit=${PAGE}`), {
      headers: auth(church, church.tokens[0]),
    });
    bodies[server.name] = await res.text();
    etags[server.name] = res.headers.get('etag');
    if (res.status !== 200)
      throw new Error(`scenario 18: ${server.name} answered ${res.status}: ${bodies[server.name].slice(0, 300)}`);
  }
  const same = bodies.api === bodies.baseline && etags.api === etags.baseline;
  if (etags.api !== etags.baseline) log(`  scenario 18: ETags differ: API ${etags.api}, baseline ${etags.baseline}`);
  if (!same) {
    let i = 0;
    while (i < bodies.api.length && bodies.api[i] === bodies.baseline[i]) i++;
    log(
      `  scenario 18: first pages differ at byte ${i}:\n    API      …${bodies.api.slice(Math.max(0, i - 120), i + 200)}\n    baseline …${bodies.baseline.slice(Math.max(0, i - 120), i + 200)}`,
    );
  }
  const page = JSON.parse(bodies.api);
  if (page.data.length !== PAGE || !page.has_more)
    throw new Error(`scenario 18: the first page holds ${page.data.length} changes (has_more ${page.has_more})`);
  return same;
}

/**
 * The page SQL the build emits (ChangesRepository.feed, captured through TypeORM) for the first
 * page and for a page after the middle row of the church's log, each EXPLAIN (ANALYZE, BUFFERS)
 * as the app role: the changes must be read as a range of changes_pkey (tenant_id, position, seq),
 * with no Seq Scan and no Sort.
 */
async function explainFeed(church, total) {
  const middle = await db(
    async (c) =>
      (
        await c.query(
          // Ordered by the columns, not by the text output columns of the same names.
          'SELECT c.position::text AS position, c.seq::text AS seq FROM changes c WHERE c.tenant_id = $1 ORDER BY c.position, c.seq OFFSET $2 LIMIT 1',
          [church.id, Math.floor(total / 2)],
        )
      ).rows[0],
  );
  const plans = [];
  for (const [label, after] of [
    ['first page', { position: 0n, seq: 0n }],
    [
      `after row ${Math.floor(total / 2).toLocaleString('en')}`,
      { position: BigInt(middle.position), seq: BigInt(middle.seq) },
    ],
  ]) {
    const [statement] = await captureFeedSql(church.id, after, ['member'], PAGE + 1);
    const e = await explain(church.id, statement, 'ANALYZE, BUFFERS');
    // judgePlan's node list; the checks are the log's: the changes a range of changes_pkey, no Seq
    // Scan of them, nothing sorting more than the page (limit + 1 rows). Every Sort and Seq Scan is
    // listed besides (the outer ORDER BY of the page, change_horizons).
    const verdict = judgePlan(e.json, PAGE + 1);
    const scans = [];
    const sorts = [];
    const seqScans = [];
    const walk = (node) => {
      const rows = (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1);
      if (node['Relation Name'] === 'changes')
        scans.push({ type: node['Node Type'], index: node['Index Name'], cond: node['Index Cond'] ?? '', rows });
      if (node['Node Type'] === 'Seq Scan') seqScans.push(`Seq Scan on ${node['Relation Name']} (${rows} rows)`);
      if (node['Node Type'] === 'Sort' || node['Node Type'] === 'Incremental Sort')
        sorts.push(`${node['Node Type']} of ${rows} rows (${node['Sort Key']?.join(', ')})`);
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(e.json.Plan);
    const problems = verdict.problems.filter((x) => !x.startsWith('Seq Scan') || x.startsWith('Seq Scan on changes '));
    const range =
      scans.length > 0 &&
      scans.every((x) => /Index/.test(x.type) && x.index === 'changes_pkey' && /ROW\("position", seq\) >/.test(x.cond));
    if (!range)
      problems.push(
        `changes read by ${scans.map((x) => `${x.type} ${x.index ?? ''} ${x.cond}`).join(', ') || 'nothing'}`,
      );
    const buffers = (e.json.Plan['Shared Hit Blocks'] ?? 0) + (e.json.Plan['Shared Read Blocks'] ?? 0);
    plans.push({
      label,
      sql: statement.sql,
      params: statement.params.map(String),
      verdict: { ...verdict, problems, ok: problems.length === 0 },
      text: e.text,
      buffers,
      changes_scan: scans[0],
      sorts,
      seq_scans: seqScans,
    });
    log(`  scenario 18 EXPLAIN (${label}), ${church.slug}:\n${e.text.replace(/^/gm, '    ')}`);
  }
  return plans;
}

export async function scenario18(ctx) {
  const church = await ensureChurch(FEED_CHURCH, FEED_MEMBERS);
  const seeded = await ensureChanges(church, FEED_CHANGES);
  const big = EXPLAIN_CHANGES > 0 ? await ensureChurch(EXPLAIN_CHURCH, FEED_MEMBERS) : church;
  const bigSeed = EXPLAIN_CHANGES > 0 ? await ensureChanges(big, EXPLAIN_CHANGES) : seeded;
  const plans = await explainFeed(big, bigSeed.changes);
  const same = await compareFirstPage(ctx, church);

  // An uncounted partial read of each (25,000 rows from the start), then the full reads, the two
  // sides alternating segment by segment.
  for (const server of [ctx.api, ctx.baseline]) {
    const w = await readFeed(server, church, null, WARMUP_ROWS);
    log(
      `  warm-up 18:${server.name}: ${w.rows.toLocaleString('en')} rows in ${w.pages} pages, ${Math.round(w.rps).toLocaleString('en')} rows/s, page p50 ${w.p50_ms.toFixed(1)} ms`,
    );
  }
  const api = [];
  const base = [];
  for (let r = 1; r <= READS; r++) {
    const sides = [new FullRead(ctx.api), new FullRead(ctx.baseline)];
    while (sides.some((x) => !x.done)) {
      for (const side of sides) {
        if (side.done) continue;
        const seg = await side.segment(church);
        const total = side.segments.reduce((n, x) => n + x.rows, 0);
        log(
          `  read ${r}/${READS} 18:${side.server.name}: rows ${(total - seg.rows).toLocaleString('en')}–${total.toLocaleString('en')}, ${Math.round(seg.rps).toLocaleString('en')} rows/s, page p50 ${seg.p50_ms.toFixed(1)} ms, p99 ${seg.p99_ms.toFixed(1)} ms; ${(seg.cpu_us / seg.pages / 1000).toFixed(1)} ms server CPU, ${(seg.db_us / seg.pages / 1000).toFixed(1)} ms PostgreSQL a page`,
        );
      }
    }
    const [a, b] = sides.map((x) => x.summary());
    for (const [name, x] of [
      ['api', a],
      ['baseline', b],
    ])
      log(
        `  read ${r}/${READS} 18:${name}: ${x.rows.toLocaleString('en')} rows in ${x.pages.toLocaleString('en')} pages, ${x.seconds.toFixed(1)} s, ${Math.round(x.rps).toLocaleString('en')} rows/s; page p50 ${x.p50_ms.toFixed(1)} ms, p99 ${x.p99_ms.toFixed(1)} ms; ${x.cpu_us_per_req.toFixed(1)} µs server CPU, ${x.db_us_per_req.toFixed(1)} µs PostgreSQL per row; digest ${x.digest.slice(0, 12)}`,
      );
    api.push(a);
    base.push(b);
  }
  const digests = new Set([...api, ...base].map((x) => x.digest));
  const complete = [...api, ...base].every((x) => x.rows === (READ_ROWS > 0 ? READ_ROWS : FEED_CHANGES));
  const p = summarizeReads(api);
  const b = summarizeReads(base);
  const ratio = p.rps / b.rps;
  const allSame = same && digests.size === 1;
  const planOk = plans.every((x) => x.verdict.ok);
  const scanOf = (x) =>
    x.changes_scan
      ? `${x.changes_scan.type} on ${x.changes_scan.index} (${x.changes_scan.rows} rows), ${x.verdict.execution_ms.toFixed(2)} ms, ${x.buffers.toLocaleString('en')} buffers`
      : 'changes not read';
  const planSummary = plans
    .map((x) => `${x.label}: ${scanOf(x)}${x.verdict.problems.length ? ` [${x.verdict.problems.join('; ')}]` : ''}`)
    .join('; ');
  const besides = [...new Set(plans.flatMap((x) => [...x.sorts, ...x.seq_scans]))].join('; ') || 'nothing';
  let title = `GET /v1/changes?types=member&limit=${PAGE} from the start following next_cursor, one client: ${FEED_CHANGES.toLocaleString('en')} changes (updates of ${seeded.members.toLocaleString('en')} members, ~${Math.round(FEED_CHANGES / seeded.members)} each, 250 members a page) in ${p.pages.toLocaleString('en')} pages (rows/s)`;
  if (!allSame) title += ' (the two reads differ)';
  if (READ_ROWS > 0) title += ` (BENCH_FEED_ROWS: the first ${READ_ROWS.toLocaleString('en')} only)`;
  if (!complete) title += ' (a read did not return every change)';
  return [
    {
      id: '18',
      title,
      metric: 'rows/s',
      project: p,
      baseline: b,
      ratio,
      target: { op: '>=', value: 0.6 },
      pass: ratio >= 0.6 && allSame && complete,
      same_body: allSame,
    },
    {
      id: '18',
      title: 'the same reads: p99 page latency (info)',
      metric: 'p99 ms',
      project: { p99_ms: p.p99_ms, p50_ms: p.p50_ms },
      baseline: { p99_ms: b.p99_ms, p50_ms: b.p50_ms },
      ratio: p.p99_ms / b.p99_ms,
      target: null,
      pass: null,
    },
    {
      id: '18',
      title: `EXPLAIN (ANALYZE, BUFFERS) of the feed page SQL the build emits (ChangesRepository.feed, ${PAGE + 1} rows) on ${big.slug} (${bigSeed.changes.toLocaleString('en')} changes), the first page and one after the middle: the log read as a range of changes_pkey (tenant_id, position, seq), no Seq Scan or Sort of it`,
      metric: 'plan',
      project: { plan: planSummary },
      baseline: null,
      ratio: null,
      target: { op: 'plan', value: 'changes_pkey range; no Seq Scan of changes; no Sort over more than the page' },
      pass: planOk,
      summary: planSummary,
      failure: planOk ? undefined : planSummary,
      plans,
    },
    {
      id: '18',
      title:
        'the same plans: every other Sort and Seq Scan (info: the statement sorts its page again above the LATERAL, and reads change_horizons)',
      metric: 'text',
      project: { text: besides },
      baseline: null,
      ratio: null,
      target: null,
      pass: null,
    },
  ];
}
