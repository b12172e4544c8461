// Seeds the bench database: the app's migrations, then churches, staff, campuses, tags, custom-field
// definitions, members (with households, tags and custom fields), funds, donations and tokens in
// plain SQL (generate_series), then VACUUM ANALYZE. Idempotent: a marker row records what was
// seeded; a different size (BENCH_MEMBERS, ...) or seed version recreates the database.
import { config, DIST_DIR, log, nodeBin, requireFromDist, requireFromRepo, run, withDatabase } from './util.mjs';
import { join } from 'node:path';

const { Client } = requireFromRepo('pg');

/** Bumped whenever the seeded data changes shape. */
const SEED_VERSION = 7;

export const BIG = 'bench-big';
export const BULK = 'bench-bulk';
export const HOOKS = 'bench-hooks';
export const churchSlug = (i) => `bench-c${String(i + 1).padStart(2, '0')}`;
const TOKENS_PER_CHURCH = 2;
/**
 * Service tokens with the donation scopes per church with members (scenario 8): POST /v1/donations
 * has a fixed quota of 30 a minute per token that no plan or override raises, so the bench spreads
 * its load over enough tokens that none reaches it (see bench/README.md).
 */
export const GIVING_TOKENS_PER_CHURCH = 30;
const CAMPUSES = [
  ['central', 'Central Campus', 'America/Mexico_City'],
  ['north', 'North Campus', 'America/Chicago'],
  ['south', 'South Campus', 'America/Bogota'],
  ['east', 'East Campus', 'America/New_York'],
  ['west', 'West Campus', 'America/Los_Angeles'],
];
/**
 * Ten tags per church, [name, color, share of the tags put on members in %]: skewed, as real tag use
 * is (a few broad tags, a long tail). Members carry 0–3 tags (see insertMemberTags).
 */
export const TAGS = [
  ['Volunteers', 'green', 30],
  ['Small Group', 'blue', 18],
  ['Choir', 'purple', 13],
  ['Youth Group', 'orange', 10],
  ['Prayer Team', 'pink', 8],
  ['Ushers', 'brown', 6],
  ['New Believers', 'red', 5],
  ['Missions', 'grey', 4],
  ['Baptism Class', 'blue', 3],
  ['Welcome Team', 'green', 3],
];
/** Three custom-field definitions per church (text, select, date); members' values in insertMembers. */
export const CUSTOM_FIELDS = [
  { key: 'occupation', label: 'Occupation', type: 'text', options: null },
  {
    key: 'ministry',
    label: 'Ministry',
    type: 'select',
    options: ['worship', 'children', 'youth', 'hospitality', 'outreach'],
  },
  { key: 'baptism_date', label: 'Baptism date', type: 'date', options: null },
];
/**
 * Four funds per church with members, [name, ledger code, tax deductible, share of the gifts in %];
 * the camp fund is not tax-deductible (statements leave its gifts out).
 */
export const FUNDS = [
  ['General Fund', '4000', true, 60],
  ['Building Fund', '4100', true, 15],
  ['Missions', '4200', true, 17],
  ['Youth Camp', '4300', false, 8],
];
/** How gifts are given, [method, share in %]. */
const METHODS = [
  ['card', 35],
  ['online', 20],
  ['ach', 10],
  ['cash', 15],
  ['check', 18],
  ['other', 2],
];
/** Members who give: the church's earliest live members (households included), by church size. */
export const DONOR_POOL = { big: 20_000, church: 1_600 };
const OCCUPATIONS = [
  'Teacher',
  'Nurse',
  'Engineer',
  'Student',
  'Retired',
  'Accountant',
  'Driver',
  'Sales',
  'Homemaker',
  'Electrician',
  'Pastor',
  'Chef',
];
/**
 * Households: in every block of 50 members (created one after another, as families join), the
 * first 20 form 7 households of 2, 4, 3, 1, 5, 2 and 3 members (40% of members in a household);
 * the household of each position (0-based within the block) and its role there.
 */
const HOUSEHOLD_OF = [0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 4, 4, 4, 4, 4, 5, 5, 6, 6, 6];
const HOUSEHOLD_ROLE = [
  'head',
  'spouse',
  'head',
  'spouse',
  'child',
  'child',
  'head',
  'spouse',
  'child',
  'head',
  'head',
  'spouse',
  'adult',
  'child',
  'child',
  'head',
  'spouse',
  'head',
  'spouse',
  'child',
];
const FIRST = [
  'María',
  'José',
  'Juan',
  'Ana',
  'Luis',
  'Carmen',
  'Carlos',
  'Lucía',
  'Jorge',
  'Sofía',
  'Miguel',
  'Elena',
  'Pedro',
  'Isabel',
  'Andrés',
  'Gabriela',
  'Diego',
  'Valentina',
  'Fernando',
  'Camila',
  'James',
  'Mary',
  'John',
  'Patricia',
  'Robert',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'William',
  'Susan',
  'Richard',
  'Jessica',
  'Thomas',
  'Sarah',
  'Daniel',
  'Karen',
  'Matthew',
  'Nancy',
  'João',
  'Beatriz',
];
const LAST = [
  'González',
  'Rodríguez',
  'Hernández',
  'García',
  'Martínez',
  'López',
  'Pérez',
  'Sánchez',
  'Ramírez',
  'Torres',
  'Flores',
  'Rivera',
  'Gómez',
  'Díaz',
  'Cruz',
  'Morales',
  'Reyes',
  'Gutiérrez',
  'Ortiz',
  'Chávez',
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Miller',
  'Davis',
  'Wilson',
  'Anderson',
  'Taylor',
  'Thomas',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Thompson',
  'White',
  'Harris',
  'Clark',
  'Lewis',
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
];

/**
 * What a bench database holds: `churches` churches of `members` members with `churchDonations`
 * donations each and `givingTokens` donation tokens each, and with `extras` the big church
 * (`bigMembers`, `donations`), bench-bulk and bench-hooks. The default is church_bench as the
 * settings make it; scenario 20 seeds databases of 1, 20 and 200 churches with the same code.
 */
export function seedSpec(overrides = {}) {
  return {
    dbName: config.dbName,
    churches: config.churches,
    members: config.members,
    churchDonations: config.churchDonations,
    givingTokens: GIVING_TOKENS_PER_CHURCH,
    extras: true,
    bigMembers: config.bigMembers,
    donations: config.donations,
    ...overrides,
  };
}

export function plannedChurches(spec = seedSpec()) {
  const list = [];
  for (let i = 0; i < spec.churches; i++) list.push({ slug: churchSlug(i), members: spec.members });
  if (!spec.extras) return list;
  list.push({ slug: BIG, members: spec.bigMembers });
  list.push({ slug: BULK, members: 0 });
  list.push({ slug: HOOKS, members: 0 });
  return list;
}

function signature(spec) {
  return {
    version: SEED_VERSION,
    churches: spec.churches,
    members: spec.members,
    big: spec.extras ? spec.bigMembers : 0,
    donations: spec.extras ? spec.donations : 0,
    church_donations: spec.churchDonations,
    // Only where they differ from church_bench's, so that its marker stays as it was.
    ...(spec.givingTokens === GIVING_TOKENS_PER_CHURCH ? {} : { giving_tokens: spec.givingTokens }),
    ...(spec.extras ? {} : { extras: false }),
  };
}

async function withClient(url, fn) {
  const client = new Client({ connectionString: url, application_name: 'church-bench-seed' });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function databaseExists(dbName) {
  return withClient(
    config.adminUrl,
    async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName])).rowCount > 0,
  );
}

async function recreateDatabase(dbName) {
  await withClient(config.adminUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${dbName}"`);
  });
}

export async function migrate(databaseUrl = config.databaseUrl) {
  const started = Date.now();
  await run(nodeBin(), [join(DIST_DIR, 'cli.js'), 'migration:run'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', REDIS_URL: '' },
  });
  log(`migrations applied (${Date.now() - started} ms)`);
}

async function currentSeed(client) {
  const exists = (await client.query(`SELECT to_regclass('public.bench_seed') IS NOT NULL AS ok`)).rows[0].ok;
  if (!exists) return null;
  const rows = (await client.query(`SELECT value FROM bench_seed WHERE key = 'signature'`)).rows;
  return rows[0]?.value ?? null;
}

/**
 * Ensures the database of `spec` (seedSpec(): church_bench as configured) is seeded; returns the
 * churches with their ids and token values.
 */
export async function ensureSeeded({ force = false, spec = seedSpec() } = {}) {
  const wanted = signature(spec);
  const url = withDatabase(config.adminUrl, spec.dbName);
  let fresh = false;
  if (force || !(await databaseExists(spec.dbName))) {
    await recreateDatabase(spec.dbName);
    fresh = true;
  } else {
    const have = await withClient(url, currentSeed);
    const same =
      have &&
      Object.keys(wanted).length === Object.keys(have).length &&
      Object.keys(wanted).every((k) => have[k] === wanted[k]);
    if (!same) {
      log(`bench database ${spec.dbName} holds ${have ? JSON.stringify(have) : 'no seed'}; recreating it`);
      await recreateDatabase(spec.dbName);
      fresh = true;
    }
  }
  await migrate(url);
  if (fresh) await seed(spec, wanted, url);
  else log(`bench database ${spec.dbName} already seeded (${JSON.stringify(wanted)})`);
  return loadFixtures(url);
}

export async function loadFixtures(url = config.databaseUrl) {
  return withClient(url, async (c) => {
    const tokens = (await c.query(`SELECT value FROM bench_seed WHERE key = 'tokens'`)).rows[0].value;
    const givingTokens = (await c.query(`SELECT value FROM bench_seed WHERE key = 'giving_tokens'`)).rows[0].value;
    const rows = (
      await c.query(
        `SELECT t.id, t.slug, (SELECT count(*) FROM members m WHERE m.tenant_id = t.id AND m.deleted_at IS NULL)::int AS live FROM tenants t WHERE t.slug LIKE 'bench-%' ORDER BY t.slug`,
      )
    ).rows;
    const churches = {};
    for (const r of rows)
      churches[r.slug] = {
        id: r.id,
        slug: r.slug,
        live: r.live,
        tokens: tokens[r.slug],
        givingTokens: givingTokens[r.slug] ?? [],
      };
    return { churches };
  });
}

async function seed(spec, sig, url) {
  const started = Date.now();
  const { generateToken, hashToken } = requireFromDist('platform/auth/token-format.js');
  const planned = plannedChurches(spec);
  const total = planned.reduce((n, c) => n + c.members, 0);
  const gifts = (spec.extras ? spec.donations : 0) + spec.churches * spec.churchDonations;
  log(
    `seeding ${spec.dbName}: ${planned.length} churches, ${total.toLocaleString('en')} members, ${gifts.toLocaleString('en')} donations …`,
  );
  await withClient(url, async (c) => {
    await c.query(`SET synchronous_commit = off`);
    await c.query(`SET maintenance_work_mem = '512MB'`);
    // Foreign-key triggers off while loading: the rows are consistent by construction.
    await c.query(`SET session_replication_role = replica`);
    await c.query(`SELECT setseed(0.42)`);
    await c.query(`CREATE TABLE bench_seed (key text PRIMARY KEY, value jsonb NOT NULL)`);
    await c.query('BEGIN');

    // Churches on the enterprise plan with a quota override far above any bench load: the rate limiter
    // runs on every request (one Redis script call) but never refuses.
    await c.query(
      `INSERT INTO tenants (id, slug, name, plan, status, quota_rpm, quota_per_day, quota_burst, created_at, updated_at)
       SELECT gen_random_uuid(), s, 'Bench ' || s, 'enterprise', 'active', 100000000, 2000000000, 100000000, now() - interval '4 years', now() - interval '4 years'
         FROM unnest($1::text[]) AS s`,
      [planned.map((p) => p.slug)],
    );
    await c.query(
      `INSERT INTO users (tenant_id, id, email, name, role, created_at, updated_at)
       SELECT id, gen_random_uuid(), 'admin@' || slug || '.example', 'Bench Admin', 'org_admin', created_at, created_at FROM tenants`,
    );
    await c.query(
      `INSERT INTO campuses (tenant_id, id, key, name, timezone, created_at, updated_at)
       SELECT t.id, gen_random_uuid(), k.key, k.name, k.tz, t.created_at + k.n * interval '1 day', t.created_at + k.n * interval '1 day'
         FROM tenants t CROSS JOIN unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS k(key, name, tz, n)`,
      [CAMPUSES.map((x) => x[0]), CAMPUSES.map((x) => x[1]), CAMPUSES.map((x) => x[2])],
    );
    // Tags in the churches with members; custom-field definitions in every church (scenario 4's
    // bulk body sets them too: a key without a definition is refused).
    await c.query(
      `INSERT INTO tags (tenant_id, id, name, color, created_at, updated_at)
       SELECT t.id, gen_random_uuid(), k.name, k.color, t.created_at + k.n * interval '1 hour', t.created_at + k.n * interval '1 hour'
         FROM tenants t CROSS JOIN unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(name, color, n)
        WHERE t.slug = ANY($3::text[])`,
      [TAGS.map((x) => x[0]), TAGS.map((x) => x[1]), planned.filter((p) => p.members > 0).map((p) => p.slug)],
    );
    await c.query(
      `INSERT INTO custom_field_definitions (tenant_id, id, key, label, type, options, required, created_at, updated_at)
       SELECT t.id, gen_random_uuid(), f.key, f.label, f.type, CASE WHEN f.options IS NOT NULL THEN ARRAY(SELECT jsonb_array_elements_text(f.options)) END, false,
              t.created_at + f.n * interval '1 hour', t.created_at + f.n * interval '1 hour'
         FROM tenants t CROSS JOIN jsonb_to_recordset($1::jsonb) AS f(key text, label text, type text, options jsonb, n int)`,
      [JSON.stringify(CUSTOM_FIELDS.map((f, i) => ({ ...f, n: i + 1 })))],
    );

    // Service tokens (admin:*), created by the church's org_admin; the values stay in bench_seed.
    const tokens = {};
    const slugs = [];
    const values = [];
    for (const { slug } of planned) {
      tokens[slug] = [];
      for (let i = 0; i < TOKENS_PER_CHURCH; i++) {
        const value = generateToken('service');
        tokens[slug].push(value);
        slugs.push(slug);
        values.push(value);
      }
    }
    await c.query(
      `INSERT INTO api_tokens (tenant_id, id, type, name, scopes, token_hash, token_prefix, last4, user_id, created_by, created_at, expires_at)
       SELECT t.id, gen_random_uuid(), 'service', 'bench ' || x.n, '{admin:*}', x.hash, left(x.value, 4), right(x.value, 4), NULL, u.id, now(), now() + interval '1 year'
         FROM unnest($1::text[], $2::text[], $3::bytea[]) WITH ORDINALITY AS x(slug, value, hash, n)
         JOIN tenants t ON t.slug = x.slug
         JOIN users u ON u.tenant_id = t.id AND u.role = 'org_admin'`,
      [slugs, values, values.map((v) => hashToken(v))],
    );
    await c.query(`INSERT INTO bench_seed VALUES ('tokens', $1)`, [JSON.stringify(tokens)]);

    // Donation tokens of a giving integration (scenario 8), and four funds, in the churches with members.
    const giving = {};
    const givingSlugs = [];
    const givingValues = [];
    for (const { slug } of planned.filter((p) => p.members > 0 && p.slug !== BIG)) {
      giving[slug] = [];
      for (let i = 0; i < spec.givingTokens; i++) {
        const value = generateToken('service');
        giving[slug].push(value);
        givingSlugs.push(slug);
        givingValues.push(value);
      }
    }
    await c.query(
      `INSERT INTO api_tokens (tenant_id, id, type, name, scopes, token_hash, token_prefix, last4, user_id, created_by, created_at, expires_at)
       SELECT t.id, gen_random_uuid(), 'service', 'giving ' || x.n, '{read:donations,write:donations}', x.hash, left(x.value, 4), right(x.value, 4), NULL, u.id, now(), now() + interval '1 year'
         FROM unnest($1::text[], $2::text[], $3::bytea[]) WITH ORDINALITY AS x(slug, value, hash, n)
         JOIN tenants t ON t.slug = x.slug
         JOIN users u ON u.tenant_id = t.id AND u.role = 'org_admin'`,
      [givingSlugs, givingValues, givingValues.map((v) => hashToken(v))],
    );
    await c.query(`INSERT INTO bench_seed VALUES ('giving_tokens', $1)`, [JSON.stringify(giving)]);
    await c.query(
      `INSERT INTO funds (tenant_id, id, name, description, ledger_code, active, tax_deductible, created_at, updated_at)
       SELECT t.id, gen_random_uuid(), f.name, 'Gifts to the ' || f.name, f.code, true, f.deductible, t.created_at + f.n * interval '1 hour', t.created_at + f.n * interval '1 hour'
         FROM tenants t CROSS JOIN unnest($1::text[], $2::text[], $3::boolean[]) WITH ORDINALITY AS f(name, code, deductible, n)
        WHERE t.slug = ANY($4::text[])`,
      [
        FUNDS.map((f) => f[0]),
        FUNDS.map((f) => f[1]),
        FUNDS.map((f) => f[2]),
        planned.filter((p) => p.members > 0).map((p) => p.slug),
      ],
    );
    await c.query('COMMIT');

    // Members, households and member_tags: secondary indexes dropped during the load and rebuilt
    // after (much faster than maintaining them row by row); their definitions come from the
    // catalog, i.e. the migrations.
    const indexes = (
      await c.query(
        `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS def FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
          WHERE x.indrelid IN ('members'::regclass, 'households'::regclass, 'member_tags'::regclass, 'donations'::regclass, 'donation_refunds'::regclass)
            AND NOT x.indisprimary AND NOT x.indisunique`,
      )
    ).rows;
    for (const ix of indexes) await c.query(`DROP INDEX ${ix.name}`);
    let loaded = 0;
    for (const church of planned.filter((p) => p.members > 0)) {
      await insertMembers(c, church.slug, church.members);
      await insertHouseholds(c, church.slug);
      await insertMemberTags(c, church.slug);
      loaded += church.members;
      log(
        `  members: ${church.slug} (${loaded.toLocaleString('en')}/${total.toLocaleString('en')}, ${Math.round((Date.now() - started) / 1000)} s)`,
      );
    }
    for (const church of planned.filter((p) => p.members > 0)) {
      const big = church.slug === BIG;
      await insertDonations(
        c,
        church.slug,
        big ? spec.donations : spec.churchDonations,
        big ? DONOR_POOL.big : DONOR_POOL.church,
      );
    }
    log(`  donations (${Math.round((Date.now() - started) / 1000)} s)`);
    for (const ix of indexes) await c.query(ix.def);
    log(`  indexes rebuilt (${Math.round((Date.now() - started) / 1000)} s)`);
    await c.query(`SET session_replication_role = DEFAULT`);
    // The load ran without triggers: the giving report's daily rollup is built once per church, in
    // the zone the API reads (the seed has no statement settings: the first campus's).
    await c.query(
      `SELECT giving_days_rebuild(t.id, COALESCE((SELECT timezone FROM campuses WHERE tenant_id = t.id AND timezone IS NOT NULL ORDER BY created_at, id LIMIT 1), 'UTC')) FROM tenants t`,
    );
    log(`  giving rollup built (${Math.round((Date.now() - started) / 1000)} s)`);
    await c.query(`VACUUM (ANALYZE)`);
    // Rows made later (scenario 8's donations) are told from the seed's by this time.
    await c.query(`INSERT INTO bench_seed VALUES ('seeded_at', to_jsonb(now()))`);
    await c.query(`INSERT INTO bench_seed VALUES ('signature', $1)`, [JSON.stringify(sig)]);
  });
  log(`seeded and vacuumed in ${Math.round((Date.now() - started) / 1000)} s`);
}

/**
 * A church a scenario adds to the seed (scenario 18's `bench-feed`), made once and kept: as the
 * seed's churches (enterprise plan with the quota override, an org_admin, the five campuses, the
 * ten tags, the three custom fields, two `admin:*` service tokens, `members` members with
 * households and tags), without the change-log triggers (its changes are the scenario's to make).
 * The token values are kept in bench_seed under `tokens:<slug>`. Returns {id, slug, tokens, live}.
 */
export async function ensureChurch(slug, members) {
  return withClient(config.databaseUrl, async (c) => {
    const key = `tokens:${slug}`;
    const kept = (await c.query('SELECT value FROM bench_seed WHERE key = $1', [key])).rows[0]?.value;
    if (!kept) {
      const started = Date.now();
      const { generateToken, hashToken } = requireFromDist('platform/auth/token-format.js');
      const tokens = Array.from({ length: TOKENS_PER_CHURCH }, () => generateToken('service'));
      await c.query('BEGIN');
      await c.query(`SET LOCAL session_replication_role = replica`);
      await c.query(
        `INSERT INTO tenants (id, slug, name, plan, status, quota_rpm, quota_per_day, quota_burst, created_at, updated_at)
         VALUES (gen_random_uuid(), $1, 'Bench ' || $1, 'enterprise', 'active', 100000000, 2000000000, 100000000, now() - interval '4 years', now() - interval '4 years')`,
        [slug],
      );
      await c.query(
        `INSERT INTO users (tenant_id, id, email, name, role, created_at, updated_at)
         SELECT t.id, gen_random_uuid(), 'admin@' || t.slug || '.example', 'Bench Admin', 'org_admin', t.created_at, t.created_at
           FROM tenants t WHERE t.slug = $1`,
        [slug],
      );
      await c.query(
        `INSERT INTO campuses (tenant_id, id, key, name, timezone, created_at, updated_at)
         SELECT t.id, gen_random_uuid(), k.key, k.name, k.tz, t.created_at + k.n * interval '1 day', t.created_at + k.n * interval '1 day'
           FROM tenants t CROSS JOIN unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS k(key, name, tz, n)
          WHERE t.slug = $4`,
        [CAMPUSES.map((x) => x[0]), CAMPUSES.map((x) => x[1]), CAMPUSES.map((x) => x[2]), slug],
      );
      await c.query(
        `INSERT INTO tags (tenant_id, id, name, color, created_at, updated_at)
         SELECT t.id, gen_random_uuid(), k.name, k.color, t.created_at + k.n * interval '1 hour', t.created_at + k.n * interval '1 hour'
           FROM tenants t CROSS JOIN unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(name, color, n)
          WHERE t.slug = $3`,
        [TAGS.map((x) => x[0]), TAGS.map((x) => x[1]), slug],
      );
      await c.query(
        `INSERT INTO custom_field_definitions (tenant_id, id, key, label, type, options, required, created_at, updated_at)
         SELECT t.id, gen_random_uuid(), f.key, f.label, f.type, CASE WHEN f.options IS NOT NULL THEN ARRAY(SELECT jsonb_array_elements_text(f.options)) END, false,
                t.created_at + f.n * interval '1 hour', t.created_at + f.n * interval '1 hour'
           FROM tenants t CROSS JOIN jsonb_to_recordset($1::jsonb) AS f(key text, label text, type text, options jsonb, n int)
          WHERE t.slug = $2`,
        [JSON.stringify(CUSTOM_FIELDS.map((f, i) => ({ ...f, n: i + 1 }))), slug],
      );
      await c.query(
        `INSERT INTO api_tokens (tenant_id, id, type, name, scopes, token_hash, token_prefix, last4, user_id, created_by, created_at, expires_at)
         SELECT t.id, gen_random_uuid(), 'service', 'bench ' || x.n, '{admin:*}', x.hash, left(x.value, 4), right(x.value, 4), NULL, u.id, now(), now() + interval '1 year'
           FROM unnest($1::text[], $2::bytea[]) WITH ORDINALITY AS x(value, hash, n)
           JOIN tenants t ON t.slug = $3
           JOIN users u ON u.tenant_id = t.id AND u.role = 'org_admin'`,
        [tokens, tokens.map((v) => hashToken(v)), slug],
      );
      await insertMembers(c, slug, members);
      await insertHouseholds(c, slug);
      await insertMemberTags(c, slug);
      await c.query('INSERT INTO bench_seed (key, value) VALUES ($1, $2)', [key, JSON.stringify(tokens)]);
      await c.query('COMMIT');
      await c.query('ANALYZE members, households, member_tags');
      log(`  ${slug}: a church of ${members.toLocaleString('en')} members made (${Date.now() - started} ms)`);
    }
    const row = (
      await c.query(
        `SELECT t.id, (SELECT count(*) FROM members m WHERE m.tenant_id = t.id AND m.deleted_at IS NULL)::int AS live FROM tenants t WHERE t.slug = $1`,
        [slug],
      )
    ).rows[0];
    const tokens = (await c.query('SELECT value FROM bench_seed WHERE key = $1', [key])).rows[0].value;
    return { id: row.id, slug, tokens, live: row.live };
  });
}

/**
 * `n` members of one church: created over the last three years in id order (UUIDv7 built from
 * created_at, as the API makes them), 1% soft-deleted, 90% active, 90% with a birthdate, 80% with
 * an e-mail, half with an address, 90% on one of the five campuses, 40% in a household (sharing
 * its last name; see HOUSEHOLD_OF). Custom fields: occupation on 30%, ministry on 40% (worship 35%,
 * children 25%, youth 20%, hospitality 12%, outreach 8% of them), baptism_date on half (8 to 40 years after the birthdate).
 */
async function insertMembers(c, slug, n) {
  const ministries = CUSTOM_FIELDS.find((f) => f.key === 'ministry').options;
  await c.query(
    `WITH t AS (
       SELECT id, (SELECT array_agg(cp.id ORDER BY cp.key) FROM campuses cp WHERE cp.tenant_id = tenants.id) AS campuses
         FROM tenants WHERE slug = $1
     ),
     g0 AS (
       SELECT i,
              date_trunc('milliseconds', now() - interval '1 day' - interval '1095 days' * (1 - (i - random()) / $2::float8)) AS created,
              random() AS r1, random() AS r2, random() AS r3, random() AS r4, random() AS r5, random() AS r6, random() AS r7,
              random() AS r8, random() AS r9, random() AS r10, random() AS r11,
              md5(random()::text) AS h,
              ($3::text[])[1 + floor(random() * $5)::int] AS first,
              ($4::text[])[1 + floor(random() * $6)::int] AS last,
              CASE WHEN (i - 1) % 50 < 20 THEN ((i - 1) / 50) * 7 + ($7::int[])[1 + (i - 1) % 50] END AS hh,
              CASE WHEN (i - 1) % 50 < 20 THEN ($8::text[])[1 + (i - 1) % 50] END AS role
         FROM generate_series(1, $2::int) AS i
     ),
     g AS (
       SELECT g0.*, CASE WHEN hh IS NULL THEN last ELSE ($4::text[])[1 + (hh * 7919) % $6::int] END AS family
         FROM g0
     )
     INSERT INTO members (tenant_id, id, first_name, last_name, email, phone, birthdate, gender, status, campus_id, active,
                          household_id, household_role, address, custom_fields, created_at, updated_at, deleted_at)
     SELECT t.id,
            (lpad(to_hex((extract(epoch FROM g.created) * 1000)::bigint), 12, '0') || '7' || substr(g.h, 1, 3)
              || substr('89ab', 1 + (g.i % 4), 1) || substr(g.h, 4, 15))::uuid,
            g.first, g.family,
            CASE WHEN g.r1 < 0.8 THEN lower(translate(g.first || '.' || g.family, 'áéíóúãçÁÉÍÓÚ', 'aeiouacAEIOU')) || g.i || '@example.org' END,
            CASE WHEN g.r2 < 0.7 THEN '+1555' || lpad((g.i % 10000000)::text, 7, '0') END,
            CASE WHEN g.r3 < 0.9 THEN date '1940-01-01' + (g.r4 * 29000)::int END,
            (ARRAY['male', 'female', 'unspecified', NULL])[1 + (g.i % 4)],
            (ARRAY['visitor', 'regular', 'member', 'member', 'leader'])[1 + floor(g.r5 * 5)::int],
            CASE WHEN g.r6 < 0.9 THEN t.campuses[1 + (g.i % array_length(t.campuses, 1))] END,
            g.r7 < 0.9,
            CASE WHEN g.hh IS NOT NULL THEN md5($1 || ':household:' || g.hh)::uuid END,
            g.role,
            CASE WHEN g.r2 < 0.5 THEN jsonb_build_object('line1', (g.i % 900 + 100) || ' Main St', 'city', (ARRAY['Monterrey', 'Houston', 'Bogotá', 'Miami', 'Los Angeles'])[1 + (g.i % 5)], 'country', 'US') END,
            jsonb_strip_nulls(jsonb_build_object(
              'occupation', CASE WHEN g.r8 < 0.3 THEN ($9::text[])[1 + floor(g.r8 / 0.3 * $10)::int] END,
              'ministry', CASE WHEN g.r9 < 0.4 THEN ($11::text[])[1 + width_bucket(g.r10, ARRAY[0.35, 0.60, 0.80, 0.92]::float8[])] END,
              'baptism_date', CASE WHEN g.r11 < 0.5 THEN to_char(least(current_date - 1, date '1940-01-01' + (g.r4 * 29000)::int + 2920 + floor(g.r11 * 24000)::int), 'YYYY-MM-DD') END
            )),
            g.created,
            least(now(), g.created + interval '1 hour' * floor(g.r5 * 500)),
            CASE WHEN g.r6 > 0.99 THEN g.created + interval '30 days' END
       FROM g CROSS JOIN t`,
    [
      slug,
      n,
      FIRST,
      LAST,
      FIRST.length,
      LAST.length,
      HOUSEHOLD_OF,
      HOUSEHOLD_ROLE,
      OCCUPATIONS,
      OCCUPATIONS.length,
      ministries,
    ],
  );
}

/** The households of one church's members: one per head, named after the family, the head as its primary contact. */
async function insertHouseholds(c, slug) {
  await c.query(
    `INSERT INTO households (tenant_id, id, name, address, primary_contact_id, created_at, updated_at)
     SELECT m.tenant_id, m.household_id, m.last_name, m.address, CASE WHEN m.deleted_at IS NULL THEN m.id END, m.created_at, m.created_at
       FROM members m JOIN tenants t ON t.id = m.tenant_id
      WHERE t.slug = $1 AND m.household_role = 'head'`,
    [slug],
  );
}

/**
 * member_tags of one church: half its members carry no tag, 28% one, 15% two, 7% three (a repeat
 * of the same tag collapses), each drawn by the shares of TAGS; put on within 90 days of joining.
 */
async function insertMemberTags(c, slug) {
  const cumulative = [];
  let sum = 0;
  for (const [, , share] of TAGS.slice(0, -1)) cumulative.push((sum += share) / 100);
  await c.query(
    `WITH t AS (
       SELECT id, (SELECT array_agg(g.id ORDER BY g.created_at) FROM tags g WHERE g.tenant_id = tenants.id) AS tags FROM tenants WHERE slug = $1
     ),
     k AS (
       SELECT m.tenant_id, m.id, m.created_at, random() AS r FROM members m JOIN t ON t.id = m.tenant_id
     )
     INSERT INTO member_tags (tenant_id, tag_id, member_id, created_at)
     SELECT tenant_id, tag_id, member_id, min(created_at)
       FROM (SELECT k.tenant_id, t.tags[1 + width_bucket(random(), $2::float8[])] AS tag_id, k.id AS member_id,
                    least(now(), k.created_at + interval '1 day' * floor(random() * 90)) AS created_at
               FROM k CROSS JOIN t
               CROSS JOIN LATERAL generate_series(1, CASE WHEN k.r < 0.5 THEN 0 WHEN k.r < 0.78 THEN 1 WHEN k.r < 0.93 THEN 2 ELSE 3 END) AS s) x
      GROUP BY tenant_id, tag_id, member_id`,
    [slug, cumulative],
  );
}

/**
 * `n` donations of one church over the last three years, in time order (UUIDv7 ids from
 * created_at, as the API makes them): methods by METHODS; cash, checks and "other" received on a
 * Sunday morning and entered a day or two later, the rest entered as received; log-uniform amounts
 * from 5 to 2,000 (whole units in cash and checks, cents in 30% of card and online gifts); 96% USD,
 * 3% MXN (×17), 1% CAD; funds by the shares of FUNDS; 75% with a donor from the church's
 * earliest `pool` live members, skewed (a few weekly givers, many occasional; cash mostly
 * anonymous); 85% on a campus; check numbers on checks, a note on 2%; 97.5% succeeded, 1% refunded,
 * 0.5% partially refunded (half), 0.5% failed, 0.5% disputed; online gifts carry a processor id.
 * Refunds get their donation_refunds row.
 */
async function insertDonations(c, slug, n, pool) {
  const cumulative = (shares) => {
    let sum = 0;
    return shares.slice(0, -1).map((x) => (sum += x) / 100);
  };
  await c.query(
    `WITH t AS (
       SELECT id,
              (SELECT array_agg(f.id ORDER BY f.created_at) FROM funds f WHERE f.tenant_id = tenants.id) AS funds,
              (SELECT array_agg(cp.id ORDER BY cp.key) FROM campuses cp WHERE cp.tenant_id = tenants.id) AS campuses
         FROM tenants WHERE slug = $1
     ),
     -- The donors by number (a join: indexing a large array per row would copy it every time).
     pool AS (
       SELECT row_number() OVER (ORDER BY m.id) AS n, m.id FROM members m, t WHERE m.tenant_id = t.id AND m.deleted_at IS NULL ORDER BY m.id LIMIT $3
     ),
     g0 AS (
       SELECT i, now() - interval '1 day' - interval '1095 days' * (1 - (i - random()) / $2::float8) AS t0,
              ($4::text[])[1 + width_bucket(random(), $5::float8[])] AS method,
              random() AS r1, random() AS r2, random() AS r3, random() AS r4, random() AS r5, random() AS r6, random() AS r7, random() AS r8,
              1 + floor(power(random(), 1.5) * least($3::int, (SELECT count(*) FROM pool)))::int AS donor_n,
              md5(random()::text) AS h
         FROM generate_series(1, $2::int) AS i
     ),
     g1 AS (
       SELECT g0.*,
              date_trunc('milliseconds', CASE WHEN method IN ('cash', 'check', 'other')
                THEN least(now() - interval '1 hour', date_trunc('week', t0, 'UTC') + interval '6 days 9 hours' + r1 * interval '4 hours')
                ELSE t0 END) AS received,
              floor(exp(ln(5) + r2 * ln(400)))::bigint AS units,
              CASE WHEN r3 < 0.96 THEN 'USD' WHEN r3 < 0.99 THEN 'MXN' ELSE 'CAD' END AS currency,
              (ARRAY['succeeded', 'refunded', 'partially_refunded', 'failed', 'disputed'])[1 + width_bucket(r4, ARRAY[0.975, 0.985, 0.99, 0.995]::float8[])] AS status
         FROM g0
     ),
     g AS (
       SELECT g1.*,
              date_trunc('milliseconds', least(now(), received + CASE WHEN method IN ('cash', 'check', 'other') THEN interval '1 day' + r5 * interval '2 days' ELSE r5 * interval '5 seconds' END)) AS created,
              (units * 100 + CASE WHEN method IN ('card', 'online') AND r6 < 0.3 THEN floor(r6 * 330)::int ELSE 0 END) * CASE currency WHEN 'MXN' THEN 17 ELSE 1 END AS amount
         FROM g1
     )
     INSERT INTO donations (tenant_id, id, amount, currency, fund_id, donor_id, campus_id, method, check_number, received_at, note, status,
                            batch_id, recurring_gift_id, processor_id, refunded_amount, dispute, created_at, updated_at)
     SELECT t.id,
            (lpad(to_hex((extract(epoch FROM g.created) * 1000)::bigint), 12, '0') || '7' || substr(g.h, 1, 3)
              || substr('89ab', 1 + (g.i % 4), 1) || substr(g.h, 4, 15))::uuid,
            g.amount, g.currency,
            t.funds[1 + width_bucket(g.r7, $6::float8[])],
            CASE WHEN g.r8 < (CASE g.method WHEN 'cash' THEN 0.2 ELSE 0.85 END) THEN p.id END,
            CASE WHEN g.r1 < 0.85 THEN t.campuses[1 + (g.i % array_length(t.campuses, 1))] END,
            g.method,
            CASE WHEN g.method = 'check' THEN (1000 + (g.i * 7) % 9000)::text END,
            g.received,
            CASE WHEN g.r2 < 0.02 THEN (ARRAY['In memory of Rosa Ortiz.', 'For the new roof.', 'Thank you for the food pantry.'])[1 + g.i % 3] END,
            g.status,
            NULL, NULL,
            CASE WHEN g.method = 'online' THEN 'pi_bench' || lpad(g.i::text, 9, '0') END,
            CASE g.status WHEN 'refunded' THEN g.amount WHEN 'partially_refunded' THEN g.amount / 2 ELSE 0 END,
            CASE WHEN g.status = 'disputed' THEN jsonb_build_object('reason', 'fraudulent', 'status', 'needs_response', 'amount', g.amount) END,
            g.created,
            CASE WHEN g.status IN ('refunded', 'partially_refunded', 'disputed') THEN least(now(), g.created + interval '3 days') ELSE g.created END
       FROM g CROSS JOIN t LEFT JOIN pool p ON p.n = g.donor_n`,
    [slug, n, pool, METHODS.map((m) => m[0]), cumulative(METHODS.map((m) => m[1])), cumulative(FUNDS.map((f) => f[3]))],
  );
  await c.query(
    `INSERT INTO donation_refunds (tenant_id, id, donation_id, amount, processor_refund_id, created_at)
     SELECT d.tenant_id, gen_random_uuid(), d.id, d.refunded_amount, CASE WHEN d.processor_id IS NOT NULL THEN 're_' || substr(d.processor_id, 4) END, d.updated_at
       FROM donations d JOIN tenants t ON t.id = d.tenant_id
      WHERE t.slug = $1 AND d.status IN ('refunded', 'partially_refunded')`,
    [slug],
  );
}
