import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { Client } from 'pg';
import request from 'supertest';
import { TestApi } from '../support/api';
import { uniqueSlug } from '../support/factories';
import { runCli, runCliOk } from '../support/processes';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import { parsePublicId } from '../../src/common/ids/id';

/**
 * The CLI of CONTRACT §9, run as a user runs it: `node dist/cli.js …` on the test database
 * (process.env carries DATABASE_URL from the global setup).
 */

interface IssuedJson {
  id: string;
  token: string;
  type: string;
  scopes: string[];
  expires_at: string | null;
}

const DAY_MS = 86_400_000;
const CAMPUS_ZONES: Record<string, string> = {
  central: 'America/Mexico_City',
  norte: 'America/Mexico_City',
  online: 'UTC',
};

async function sql<T>(text: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Reads tenant rows whatever the connecting role (RLS is forced on tenant tables). */
async function tenantSql<T>(slug: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const [tenant] = (await client.query<{ id: string }>('SELECT id FROM tenants WHERE slug = $1', [slug])).rows;
    if (!tenant) throw new Error(`no tenant ${slug}`);
    await client.query('BEGIN');
    await client.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenant.id]);
    const rows = (await client.query(text, params)).rows as T[];
    await client.query('COMMIT');
    return rows;
  } finally {
    await client.end();
  }
}

async function newChurch(): Promise<{ slug: string; admin: string }> {
  const slug = uniqueSlug('cli');
  const admin = `admin-${slug}@example.org`;
  await runCliOk(['tenant:create', '--slug', slug, '--name', 'Iglesia CLI']);
  await runCliOk(['user:create', '--tenant', slug, '--email', admin, '--role', 'org_admin']);
  return { slug, admin };
}

async function issue(slug: string, user: string, scopes: string, extra: string[] = []): Promise<IssuedJson> {
  const result = await runCliOk([
    'token:issue',
    '--tenant',
    slug,
    '--user',
    user,
    '--type',
    'pat',
    '--name',
    'cli test',
    '--scopes',
    scopes,
    '--json',
    ...extra,
  ]);
  return JSON.parse(result.stdout) as IssuedJson;
}

describe('CLI (node dist/cli.js)', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(async () => {
    await api?.close();
  });

  describe('tenant:create', () => {
    it('creates a church, prints its slug and exits 0', async () => {
      const slug = uniqueSlug('cli');
      const result = await runCli(['tenant:create', '--slug', slug, '--name', 'Iglesia Central', '--plan', 'growth']);
      expect(result).toMatchObject({ code: 0 });
      expect(result.stdout).toBe(`${slug}\n`);
      const [row] = await sql<{ name: string; plan: string; status: string }>(
        'SELECT name, plan, status FROM tenants WHERE slug = $1',
        [slug],
      );
      expect(row).toEqual({ name: 'Iglesia Central', plan: 'growth', status: 'active' });
    });

    it('prints JSON with --json and defaults the plan to starter', async () => {
      const slug = uniqueSlug('cli');
      const result = await runCliOk(['tenant:create', '--slug', slug, '--name', 'Grace Church', '--json']);
      expect(JSON.parse(result.stdout)).toMatchObject({
        slug,
        name: 'Grace Church',
        plan: 'starter',
        status: 'active',
      });
    });

    it('refuses a duplicate slug with a non-zero exit and a conflict message on stderr', async () => {
      const slug = uniqueSlug('cli');
      await runCliOk(['tenant:create', '--slug', slug, '--name', 'First']);
      const again = await runCli(['tenant:create', '--slug', slug, '--name', 'Second']);
      expect(again.code).not.toBe(0);
      expect(again.stdout).toBe('');
      expect(again.stderr).toMatch(/conflict/);
      expect(again.stderr).toContain(slug);
      const rows = await sql<{ name: string }>('SELECT name FROM tenants WHERE slug = $1', [slug]);
      expect(rows).toEqual([{ name: 'First' }]);
    });

    it.each([['Bad Slug'], ['UPPER'], ['-leading-dash'], ['con_guion_bajo'], ['']])(
      'refuses the invalid slug %j',
      async (slug) => {
        const result = await runCli(['tenant:create', '--slug', slug, '--name', 'Bad']);
        expect(result.code).not.toBe(0);
        expect(result.stderr.trim()).not.toBe('');
        expect(result.stdout).toBe('');
      },
    );

    it('refuses an unknown plan', async () => {
      const result = await runCli(['tenant:create', '--slug', uniqueSlug('cli'), '--name', 'X', '--plan', 'platinum']);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/plan/);
    });
  });

  describe('user:create', () => {
    let slug: string;
    beforeAll(async () => {
      slug = uniqueSlug('cli');
      await runCliOk(['tenant:create', '--slug', slug, '--name', 'Usuarios']);
    });

    it('creates an org_admin and prints {id, email, role} with --json', async () => {
      const result = await runCli([
        'user:create',
        '--tenant',
        slug,
        '--email',
        'Pastor@Example.org',
        '--role',
        'org_admin',
        '--json',
      ]);
      expect(result.code).toBe(0);
      const body = JSON.parse(result.stdout) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['email', 'id', 'role']);
      expect(body.id).toMatch(/^usr_[0-9a-f]{32}$/);
      expect(body).toMatchObject({ email: 'pastor@example.org', role: 'org_admin' });
    });

    it('prints the user id alone without --json', async () => {
      const result = await runCliOk([
        'user:create',
        '--tenant',
        slug,
        '--email',
        'staff1@example.org',
        '--role',
        'staff',
      ]);
      expect(result.stdout).toMatch(/^usr_[0-9a-f]{32}\n$/);
    });

    it('refuses an unknown role', async () => {
      const result = await runCli(['user:create', '--tenant', slug, '--email', 'boss@example.org', '--role', 'boss']);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/role/);
      expect(await tenantSql(slug, 'SELECT 1 FROM users WHERE email = $1', ['boss@example.org'])).toHaveLength(0);
    });

    it('refuses an unknown church with a message', async () => {
      const missing = uniqueSlug('missing');
      const result = await runCli(['user:create', '--tenant', missing, '--email', 'x@example.org', '--role', 'staff']);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/resource_not_found|not found|no church/i);
      expect(result.stderr).toMatch(/church|tenant/i);
    });

    it('refuses a duplicate email (case-insensitive) with conflict', async () => {
      await runCliOk(['user:create', '--tenant', slug, '--email', 'dup@example.org', '--role', 'staff']);
      const again = await runCli(['user:create', '--tenant', slug, '--email', 'DUP@example.org', '--role', 'staff']);
      expect(again.code).not.toBe(0);
      expect(again.stderr).toMatch(/conflict/);
    });

    it('reads the password from stdin with --password-stdin and stores an argon2 hash', async () => {
      const password = 'correct horse battery staple';
      const result = await runCli(
        [
          'user:create',
          '--tenant',
          slug,
          '--email',
          'secret@example.org',
          '--role',
          'finance',
          '--password-stdin',
          '--json',
        ],
        { input: `${password}\n` },
      );
      expect(result.code).toBe(0);
      expect(result.stdout).not.toContain(password);
      expect(result.stderr).not.toContain(password);
      const [row] = await tenantSql<{ password_hash: string | null }>(
        slug,
        'SELECT password_hash FROM users WHERE email = $1',
        ['secret@example.org'],
      );
      expect(row.password_hash).toMatch(/^\$argon2/);
      expect(row.password_hash).not.toContain(password);
    });

    it('leaves password_hash empty without --password-stdin', async () => {
      await runCliOk(['user:create', '--tenant', slug, '--email', 'nopass@example.org', '--role', 'volunteer']);
      const [row] = await tenantSql<{ password_hash: string | null }>(
        slug,
        'SELECT password_hash FROM users WHERE email = $1',
        ['nopass@example.org'],
      );
      expect(row.password_hash).toBeNull();
    });
  });

  describe('token:issue and token:revoke', () => {
    let slug: string;
    let admin: string;
    beforeAll(async () => {
      ({ slug, admin } = await newChurch());
      await runCliOk(['user:create', '--tenant', slug, '--email', 'volunteer@example.org', '--role', 'volunteer']);
    });

    it('--json prints exactly one JSON line {id, token, type, scopes, expires_at} and nothing else', async () => {
      const before = Date.now();
      const result = await runCli([
        'token:issue',
        '--tenant',
        slug,
        '--user',
        admin,
        '--type',
        'pat',
        '--name',
        'Integración',
        '--scopes',
        'read:members,write:members',
        '--json',
      ]);
      expect(result.code).toBe(0);
      expect(result.stdout.endsWith('\n')).toBe(true);
      const lines = result.stdout.split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toBe('');
      const body = JSON.parse(lines[0]) as IssuedJson;
      expect(Object.keys(body).sort()).toEqual(['expires_at', 'id', 'scopes', 'token', 'type']);
      expect(body.id).toMatch(/^tok_[0-9a-f]{32}$/);
      expect(body.token).toMatch(/^chp_[0-9A-Za-z]{36}$/);
      expect(body.type).toBe('pat');
      expect(body.scopes).toEqual(['read:members', 'write:members']);
      // a PAT lives 90 days
      const expires = Date.parse(body.expires_at!);
      expect(expires).toBeGreaterThanOrEqual(before + 90 * DAY_MS - 60_000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 90 * DAY_MS + 60_000);
      // the secret is never stored in clear
      const stored = await tenantSql<{ n: string }>(
        slug,
        'SELECT count(*)::text AS n FROM api_tokens t WHERE t::text LIKE $1',
        [`%${body.token.slice(4)}%`],
      );
      expect(stored[0].n).toBe('0');
    });

    it('without --json prints the token value alone and a newline', async () => {
      const result = await runCli([
        'token:issue',
        '--tenant',
        slug,
        '--user',
        admin,
        '--type',
        'pat',
        '--name',
        'plain',
        '--scopes',
        'read:members',
      ]);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^chp_[0-9A-Za-z]{36}\n$/);
    });

    it('issues a token that works against the API', async () => {
      const issued = await issue(slug, admin, 'read:members,write:members');
      const created = await api.post<{ id: string }>('/v1/members', {
        token: issued.token,
        tenant: slug,
        body: { first_name: 'Lucía', last_name: 'Hernández' },
      });
      expect(created.status).toBe(201);
      const list = await api.get<{ data: { id: string }[] }>('/v1/members', { token: issued.token, tenant: slug });
      expect(list.status).toBe(200);
      expect(list.body.data.map((m: { id: string }) => m.id)).toContain(created.body.id);
    });

    it('the issued token carries only its scopes', async () => {
      const issued = await issue(slug, admin, 'read:members');
      const denied = await api.post<Problem>('/v1/members', {
        token: issued.token,
        tenant: slug,
        body: { first_name: 'No', last_name: 'Permitido' },
      });
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe('scope_insufficient');
    });

    it('refuses a scope beyond the role (volunteer + write:members) with scope_not_allowed', async () => {
      const result = await runCli([
        'token:issue',
        '--tenant',
        slug,
        '--user',
        'volunteer@example.org',
        '--type',
        'pat',
        '--name',
        'too much',
        '--scopes',
        'read:members,write:members',
        '--json',
      ]);
      expect(result.code).not.toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('scope_not_allowed');
      expect(result.stderr).toContain('write:members');
    });

    it('refuses an unknown scope, an unknown type and an unknown user', async () => {
      const unknownScope = await runCli([
        'token:issue',
        '--tenant',
        slug,
        '--user',
        admin,
        '--name',
        'n',
        '--scopes',
        'read:everything',
      ]);
      expect(unknownScope.code).not.toBe(0);
      expect(unknownScope.stderr).toMatch(/scopes/);
      const unknownType = await runCli([
        'token:issue',
        '--tenant',
        slug,
        '--user',
        admin,
        '--type',
        'master',
        '--name',
        'n',
        '--scopes',
        'read:members',
      ]);
      expect(unknownType.code).not.toBe(0);
      expect(unknownType.stderr).toMatch(/--type/);
      const unknownUser = await runCli([
        'token:issue',
        '--tenant',
        slug,
        '--user',
        'nobody@example.org',
        '--name',
        'n',
        '--scopes',
        'read:members',
      ]);
      expect(unknownUser.code).not.toBe(0);
      expect(unknownUser.stderr).toMatch(/user/);
      for (const r of [unknownScope, unknownType, unknownUser]) expect(r.stdout).toBe('');
    });

    it('--type service for an org_admin gives a chs_ token valid for about 365 days', async () => {
      const before = Date.now();
      const result = await runCliOk([
        'token:issue',
        '--tenant',
        slug,
        '--user',
        admin,
        '--type',
        'service',
        '--name',
        'sync',
        '--scopes',
        'admin:*',
        '--json',
      ]);
      const body = JSON.parse(result.stdout) as IssuedJson;
      expect(body.type).toBe('service');
      expect(body.token).toMatch(/^chs_[0-9A-Za-z]{36}$/);
      expect(body.scopes).toEqual(['admin:*']);
      const expires = Date.parse(body.expires_at!);
      expect(expires).toBeGreaterThanOrEqual(before + 365 * DAY_MS - 60_000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 365 * DAY_MS + 60_000);
      const res = await api.get('/v1/campuses', { token: body.token, tenant: slug });
      expect(res.status).toBe(200);
    });

    it('refuses a service token for a role other than org_admin', async () => {
      const result = await runCli([
        'token:issue',
        '--tenant',
        slug,
        '--user',
        'volunteer@example.org',
        '--type',
        'service',
        '--name',
        'svc',
        '--scopes',
        'read:members',
      ]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('scope_not_allowed');
    });

    it('token:revoke revokes at once: the token then gets 401 token_revoked', async () => {
      const issued = await issue(slug, admin, 'read:members');
      expect((await api.get('/v1/members', { token: issued.token, tenant: slug })).status).toBe(200);
      const result = await runCli(['token:revoke', '--tenant', slug, '--id', issued.id]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(issued.id);
      const after = await api.get<Problem>('/v1/members', { token: issued.token, tenant: slug, lang: 'en' });
      expect(after.status).toBe(401);
      expect(after.body.code).toBe('token_revoked');
      expect(after.headers['www-authenticate']).toMatch(/^Bearer/);
      // revoking again is harmless
      expect((await runCli(['token:revoke', '--tenant', slug, '--id', issued.id])).code).toBe(0);
    });

    it('token:revoke refuses an unknown, malformed or other church’s token id', async () => {
      const unknown = await runCli(['token:revoke', '--tenant', slug, '--id', `tok_${'0'.repeat(32)}`]);
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toMatch(/resource_not_found|not found/i);
      const malformed = await runCli(['token:revoke', '--tenant', slug, '--id', 'mem_123']);
      expect(malformed.code).not.toBe(0);
      expect(malformed.stderr.trim()).not.toBe('');

      const other = await newChurch();
      const foreign = await issue(other.slug, other.admin, 'read:members');
      const crossTenant = await runCli(['token:revoke', '--tenant', slug, '--id', foreign.id]);
      expect(crossTenant.code).not.toBe(0);
      expect((await api.get('/v1/members', { token: foreign.token, tenant: other.slug })).status).toBe(200);
    });
  });

  describe('migration:run', () => {
    it('exits 0 and says there is nothing pending on stderr', async () => {
      const result = await runCli(['migration:run']);
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(/no pending migrations/);
      expect(result.stdout).toBe('');
    });
  });

  describe('seed:demo', () => {
    const SPANISH = [
      'María',
      'Guadalupe',
      'Sofía',
      'Valentina',
      'Camila',
      'Lucía',
      'Ximena',
      'Daniela',
      'José',
      'Juan',
      'Luis',
      'Carlos',
      'Miguel',
      'Santiago',
      'Mateo',
      'Diego',
      'Andrés',
      'Javier',
      'Fernanda',
      'Pedro',
      'Tomás',
      'Emilio',
      'Rebeca',
      'Isabel',
    ];
    const ENGLISH = [
      'Emily',
      'Grace',
      'Hannah',
      'Olivia',
      'Abigail',
      'James',
      'Daniel',
      'Samuel',
      'David',
      'Joshua',
      'Caleb',
      'Nathan',
      'Ruth',
      'Esther',
    ];

    it('fills a church: 3 campuses, 200 members with Spanish and English names, households, tags, custom fields, prospects (some converted), prayer requests, two years of giving (funds, weekly and occasional donors, recurring gifts, pledges, a committed batch), a year of Sunday services per campus with attendance, 12 cell groups, upcoming events with registrations; a second run adds as many again and keeps the campuses, tags, custom fields, funds, services, groups and events', async () => {
      const { slug, admin } = await newChurch();
      const first = await runCli(['seed:demo', '--tenant', slug], { timeoutMs: 90_000 });
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(
        /200 members, 70 households, 10 tags, 3 custom fields, 30 prospects, 20 prayer requests, 4 funds, \d+ donations, 5 recurring gifts, 12 pledges, 1 batch, 156 services, \d+ attendance records, 12 groups, \d+ group members, 3 upcoming events, \d+ registrations/,
      );
      const donationCount = Number(/(\d+) donations/.exec(first.stdout)![1]);
      const attendanceCount = Number(/(\d+) attendance records/.exec(first.stdout)![1]);
      const groupMemberCount = Number(/(\d+) group members/.exec(first.stdout)![1]);
      const registrationCount = Number(/(\d+) registrations/.exec(first.stdout)![1]);

      const token = (await issue(slug, admin, 'read:members,read:campuses,read:prayer_requests,read:donations')).token;
      const campuses = await api.get<{ data: { key: string; name: string }[]; total: number }>('/v1/campuses', {
        token,
        tenant: slug,
      });
      expect(campuses.status).toBe(200);
      expect(campuses.body.total).toBe(3);
      expect(campuses.body.data).toHaveLength(3);

      type Member = { first_name: string; last_name: string; campus: { key: string } | null };
      const members = await api.get<{ data: Member[]; total: number }>('/v1/members?limit=250', {
        token,
        tenant: slug,
      });
      expect(members.status).toBe(200);
      expect(members.body.total).toBe(200);
      expect(members.body.data).toHaveLength(200);
      const firstNames = new Set(members.body.data.map((m: Member) => m.first_name));
      expect(SPANISH.some((n) => firstNames.has(n))).toBe(true);
      expect(ENGLISH.some((n) => firstNames.has(n))).toBe(true);
      // accents survive the round trip
      expect(
        [...firstNames, ...members.body.data.map((m: Member) => m.last_name)].some((n) => /[áéíóúñ]/i.test(n)),
      ).toBe(true);
      // every member is on one of the demo campuses
      const keys = new Set(campuses.body.data.map((c: { key: string }) => c.key));
      expect(members.body.data.every((m: Member) => m.campus !== null && keys.has(m.campus.key))).toBe(true);

      const get = <T>(path: string) =>
        api.get<T>(path, { token, tenant: slug }).then((r) => (expect(r.status).toBe(200), r.body));

      // ~70 households: a head (the primary contact), often a spouse, children; one last name and one address each
      type Household = {
        name: string;
        address: object | null;
        primary_contact_id: string;
        members: { id: string; last_name: string; household_role: string }[];
      };
      const households = await get<{ data: Household[]; total: number }>('/v1/households?limit=100');
      expect(households.total).toBe(70);
      for (const h of households.data) {
        const heads = h.members.filter((m) => m.household_role === 'head');
        expect(heads).toHaveLength(1);
        expect(h.primary_contact_id).toBe(heads[0].id);
        expect(new Set(h.members.map((m) => m.last_name)).size).toBe(1);
        expect(h.name).toContain(h.members[0].last_name);
        expect(h.address).not.toBeNull();
      }
      const roles = new Set(households.data.flatMap((h) => h.members.map((m) => m.household_role)));
      expect([...roles].sort()).toEqual(['adult', 'child', 'head', 'spouse']);
      const [placed] = await tenantSql<{ members: number; addresses: number; households: number }>(
        slug,
        `SELECT count(*)::int AS members, count(DISTINCT (household_id, address::text))::int AS addresses, count(DISTINCT household_id)::int AS households
           FROM members WHERE tenant_id = current_setting('app.tenant_id')::uuid AND household_id IS NOT NULL AND deleted_at IS NULL`,
      );
      expect(placed.households).toBe(70);
      expect(placed.addresses).toBe(70); // members share their household's address
      expect(placed.members).toBeGreaterThan(120);
      expect(placed.members).toBeLessThan(200);

      // 10 tags, each on some members, on a realistic share of the church; `?tag=` finds them
      const tags = await get<{ data: { name: string }[]; total: number }>('/v1/tags?limit=100');
      expect(tags.total).toBe(10);
      const tagged = await tenantSql<{ name: string; members: number }>(
        slug,
        `SELECT t.name, count(mt.member_id)::int AS members FROM tags t LEFT JOIN member_tags mt ON mt.tenant_id = t.tenant_id AND mt.tag_id = t.id
           WHERE t.tenant_id = current_setting('app.tenant_id')::uuid GROUP BY t.name`,
      );
      expect(tagged).toHaveLength(10);
      for (const tag of tagged) expect(tag.members).toBeGreaterThan(0);
      const [share] = await tenantSql<{ members: number }>(
        slug,
        `SELECT count(DISTINCT member_id)::int AS members FROM member_tags WHERE tenant_id = current_setting('app.tenant_id')::uuid`,
      );
      expect(share.members).toBeGreaterThan(40);
      expect(share.members).toBeLessThan(200);
      const youth = tagged.find((t) => t.name === 'Youth')!;
      expect((await get<{ total: number }>('/v1/members?tag=youth&limit=1')).total).toBe(youth.members);

      // 3 custom fields (text, select, date), with values on members that their filter finds
      const fields = await get<{ data: { key: string; type: string }[]; total: number }>('/v1/custom-fields?limit=100');
      expect(fields.data.map((f) => `${f.key}:${f.type}`).sort()).toEqual([
        'allergies:text',
        'baptism_date:date',
        'tshirt_size:select',
      ]);
      const [valued] = await tenantSql<{
        allergies: number;
        tshirt_size: number;
        baptism_date: number;
        medium: number;
      }>(
        slug,
        `SELECT count(*) FILTER (WHERE custom_fields ? 'allergies')::int AS allergies, count(*) FILTER (WHERE custom_fields ? 'tshirt_size')::int AS tshirt_size,
                count(*) FILTER (WHERE custom_fields ? 'baptism_date')::int AS baptism_date, count(*) FILTER (WHERE custom_fields->>'tshirt_size' = 'M')::int AS medium
           FROM members WHERE tenant_id = current_setting('app.tenant_id')::uuid AND deleted_at IS NULL`,
      );
      for (const n of [valued.allergies, valued.tshirt_size, valued.baptism_date]) expect(n).toBeGreaterThan(5);
      expect((await get<{ total: number }>('/v1/members?custom_fields.tshirt_size=M&limit=1')).total).toBe(
        valued.medium,
      );
      expect(
        (await get<{ total: number }>('/v1/members?custom_fields.baptism_date[lte]=2000-01-01&limit=1')).total,
      ).toBeGreaterThan(0);

      // 30 prospects across the stages; the converted ones through convert, so their member exists
      type Prospect = { stage: string; member_id: string | null; converted_at: string | null };
      const prospects = await get<{ data: Prospect[]; total: number }>('/v1/prospects?limit=100');
      expect(prospects.total).toBe(30);
      expect(new Set(prospects.data.map((p) => p.stage))).toEqual(
        new Set(['new', 'contacted', 'visited', 'connecting', 'converted', 'lost']),
      );
      const converted = prospects.data.filter((p) => p.stage === 'converted');
      expect(converted.length).toBeGreaterThan(0);
      for (const p of converted) {
        expect(p.member_id).toMatch(/^mem_[0-9a-f]{32}$/);
        expect(p.converted_at).not.toBeNull();
        await get(`/v1/members/${p.member_id}`);
      }
      expect(prospects.data.filter((p) => p.stage !== 'converted').every((p) => p.member_id === null)).toBe(true);

      // 20 prayer requests of every visibility, some answered; the private ones are hidden from staff
      type Prayer = {
        visibility: string;
        answered_at: string | null;
        member: { id: string } | null;
        name: string | null;
      };
      const prayers = await get<{ data: Prayer[]; total: number }>('/v1/prayer-requests?limit=100');
      expect(prayers.total).toBe(20);
      expect(new Set(prayers.data.map((p) => p.visibility))).toEqual(new Set(['private', 'staff', 'public']));
      const answered = prayers.data.filter((p) => p.answered_at !== null).length;
      expect(answered).toBeGreaterThan(0);
      expect(answered).toBeLessThan(20);
      expect(
        prayers.data.some((p) => p.member !== null) && prayers.data.some((p) => p.member === null && p.name !== null),
      ).toBe(true);
      const staff = `staff-${slug}@example.org`;
      await runCliOk(['user:create', '--tenant', slug, '--email', staff, '--role', 'staff']);
      const staffToken = (await issue(slug, staff, 'read:prayer_requests')).token;
      const seenByStaff = await api.get<{ total: number }>('/v1/prayer-requests?limit=1', {
        token: staffToken,
        tenant: slug,
      });
      expect(seenByStaff.body.total).toBe(prayers.data.filter((p) => p.visibility !== 'private').length);

      // every write raised its event, as through the API
      const events = await tenantSql<{ type: string; n: number }>(
        slug,
        `SELECT type, count(*)::int AS n FROM webhook_events WHERE tenant_id = current_setting('app.tenant_id')::uuid GROUP BY type`,
      );
      const count = (type: string) => events.find((e) => e.type === type)?.n ?? 0;
      expect(count('member.created')).toBe(200);
      expect(count('tag.added')).toBe(tagged.reduce((sum, t) => sum + t.members, 0));
      expect(count('prospect.created')).toBe(30);
      expect(count('prospect.converted')).toBe(converted.length);
      expect(count('prayer_request.created')).toBe(20);
      expect(count('prayer_request.answered')).toBe(answered);
      expect(count('member.updated')).toBe(placed.members); // each one's move into their household

      // Giving: 4 funds (one not tax-deductible), two years of donations through the services.
      type Fund = { id: string; name: string; tax_deductible: boolean; active: boolean };
      const funds = await get<{ data: Fund[]; total: number }>('/v1/funds?limit=10');
      expect(funds.total).toBe(4);
      expect(funds.data.filter((f) => !f.tax_deductible).map((f) => f.name)).toEqual(['Campamento de jóvenes']);
      expect((await get<{ total: number }>('/v1/donations?limit=1')).total).toBe(donationCount);
      const [span] = await tenantSql<{ first: Date; last: Date; donors: number; currencies: string[]; future: number }>(
        slug,
        `SELECT min(received_at) AS first, max(received_at) AS last, count(DISTINCT donor_id)::int AS donors, array_agg(DISTINCT currency ORDER BY currency) AS currencies,
                count(*) FILTER (WHERE received_at > now())::int AS future
           FROM donations WHERE tenant_id = current_setting('app.tenant_id')::uuid`,
      );
      expect((span.last.getTime() - span.first.getTime()) / DAY_MS).toBeGreaterThan(700);
      expect((Date.now() - span.last.getTime()) / DAY_MS).toBeLessThan(8);
      expect(span.future).toBe(0);
      expect(span.currencies).toEqual(['MXN', 'USD']);
      // Weekly givers (most of 104 Sundays) and occasional ones (a few gifts).
      const perDonor = await tenantSql<{ n: number }>(
        slug,
        `SELECT count(*)::int AS n FROM donations WHERE tenant_id = current_setting('app.tenant_id')::uuid AND donor_id IS NOT NULL AND recurring_gift_id IS NULL GROUP BY donor_id`,
      );
      expect(perDonor.filter((d) => d.n >= 70).length).toBeGreaterThanOrEqual(10);
      expect(perDonor.filter((d) => d.n <= 10).length).toBeGreaterThanOrEqual(10);
      expect(span.donors).toBe(perDonor.length + 5); // and the five who give by recurring card gifts only

      // 5 recurring gifts (active, paused, canceled), charged by the processor: card donations with recurring_gift_id; one failed charge.
      type Recurring = { id: string; status: string };
      const recurring = await get<{ data: Recurring[]; total: number }>('/v1/recurring-gifts?limit=10');
      expect(recurring.total).toBe(5);
      expect(recurring.data.map((r) => r.status).sort()).toEqual(['active', 'active', 'active', 'canceled', 'paused']);
      const charged = await tenantSql<{ n: number; cards: number; processor: number }>(
        slug,
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE method = 'card')::int AS cards, count(processor_id)::int AS processor
           FROM donations WHERE tenant_id = current_setting('app.tenant_id')::uuid AND recurring_gift_id IS NOT NULL GROUP BY recurring_gift_id`,
      );
      expect(charged).toHaveLength(5);
      for (const gift of charged) expect(gift).toEqual({ n: gift.n, cards: gift.n, processor: gift.n });

      // 12 pledges to the building fund (this year and last), given towards: `given` is the net of the donor's gifts to it in the window.
      type Pledge = {
        id: string;
        donor_id: string;
        fund_id: string;
        amount: number;
        starts_on: string;
        ends_on: string;
        given: number;
        remaining: number;
      };
      const pledges = await get<{ data: Pledge[]; total: number }>('/v1/pledges?limit=20');
      expect(pledges.total).toBe(12);
      const building = funds.data.find((f) => f.name === 'Fondo de construcción')!;
      expect(pledges.data.every((p) => p.fund_id === building.id)).toBe(true);
      expect(pledges.data.filter((p) => p.given > 0).length).toBeGreaterThanOrEqual(6);
      for (const p of pledges.data) {
        const [sum] = await tenantSql<{ given: number }>(
          slug,
          `SELECT COALESCE(sum(amount - refunded_amount), 0)::int AS given FROM donations
            WHERE tenant_id = current_setting('app.tenant_id')::uuid AND donor_id = $1 AND fund_id = $2 AND currency = 'MXN' AND status IN ('succeeded', 'partially_refunded', 'refunded')
              AND received_at >= $3::date AND received_at < $4::date + 1`,
          [parsePublicId('mem', p.donor_id), parsePublicId('fnd', building.id), p.starts_on, p.ends_on],
        );
        expect({ id: p.id, given: p.given, remaining: p.remaining }).toEqual({
          id: p.id,
          given: sum.given,
          remaining: Math.max(p.amount - sum.given, 0),
        });
      }

      // One committed batch (last Sunday's loose offering) whose total is its expected total.
      type Batch = { status: string; count: number; total: number; expected_total: number | null; currency: string };
      const batches = await get<{ data: Batch[]; total: number }>('/v1/batches?limit=10');
      expect(batches.total).toBe(1);
      expect(batches.data[0]).toMatchObject({
        status: 'committed',
        count: 12,
        currency: 'MXN',
        expected_total: batches.data[0].total,
      });

      // Every gift raised its donation.created once (the batch's at its commit); a refund and a failed charge raised theirs.
      expect(count('donation.created')).toBe(donationCount);
      expect(count('donation.refunded')).toBe(1); // a camp fee given back
      expect(count('recurring.created')).toBe(5);
      expect(count('recurring.updated')).toBe(1);
      expect(count('recurring.canceled')).toBe(1);
      expect(count('recurring.charge_failed')).toBe(1);

      // A year of Sunday services per campus (52 × 3 calendar events, in the campus's time zone), each with a realistic share of its campus's members.
      const ministry = (await issue(slug, admin, 'read:events,read:attendance,read:groups,read:members')).token;
      const read = <T>(path: string) =>
        api.get<T>(path, { token: ministry, tenant: slug }).then((r) => (expect(r.status).toBe(200), r.body));
      type CalendarEvent = {
        id: string;
        name: string;
        timezone: string;
        starts_at: string;
        capacity: number | null;
        registration_count: number;
        attendance_count: number;
        campus: { key: string } | null;
      };
      const calendar = await read<{ data: CalendarEvent[]; total: number }>('/v1/events?limit=250');
      expect(calendar.total).toBe(159);
      const services = calendar.data.filter((e) => e.name.startsWith('Servicio dominical'));
      expect(services).toHaveLength(156);
      const campusSize = new Map<string, number>();
      for (const m of members.body.data) campusSize.set(m.campus!.key, (campusSize.get(m.campus!.key) ?? 0) + 1);
      for (const key of ['central', 'norte', 'online']) {
        const mine = services.filter((e) => e.campus?.key === key);
        expect(mine).toHaveLength(52);
        expect(new Set(mine.map((e) => new Date(e.starts_at).getUTCDay()))).toEqual(new Set([0])); // Sundays
        expect(mine.every((e) => e.timezone === CAMPUS_ZONES[key])).toBe(true);
        const share = mine.reduce((sum, e) => sum + e.attendance_count, 0) / (52 * campusSize.get(key)!);
        expect(share).toBeGreaterThan(0.4);
        expect(share).toBeLessThan(0.85);
        expect(mine.every((e) => e.attendance_count > 0 && e.attendance_count <= campusSize.get(key)!)).toBe(true);
      }
      const [span2] = await tenantSql<{ weeks: number; n: number; kinds: string[]; late: number }>(
        slug,
        `SELECT count(DISTINCT date_trunc('week', e.starts_at))::int AS weeks, count(*)::int AS n, array_agg(DISTINCT a.kind::text ORDER BY a.kind::text) AS kinds,
                count(*) FILTER (WHERE a.checked_in_at > e.ends_at OR a.checked_in_at < e.starts_at - interval '2 hours')::int AS late
           FROM attendance a JOIN events e ON e.tenant_id = a.tenant_id AND e.id = a.event_id WHERE a.tenant_id = current_setting('app.tenant_id')::uuid`,
      );
      expect(span2).toEqual({ weeks: 52, n: attendanceCount, kinds: ['regular', 'volunteer'], late: 0 });
      expect(count('attendance.recorded')).toBe(attendanceCount);
      expect(count('event.created')).toBe(159);

      // 12 cell groups, each with one leader and members of its campus.
      type Group = { id: string; name: string; member_count: number; campus: { key: string } | null };
      const groups = await read<{ data: Group[]; total: number }>('/v1/groups?limit=50');
      expect(groups.total).toBe(12);
      expect(groups.data.reduce((sum, g) => sum + g.member_count, 0)).toBe(groupMemberCount);
      for (const g of groups.data) {
        expect(g.member_count).toBeGreaterThanOrEqual(5);
        const roster = await read<{ data: { group_role: string; campus: { key: string } | null }[] }>(
          `/v1/groups/${g.id}/members?limit=50`,
        );
        expect(roster.data.filter((m) => m.group_role === 'leader')).toHaveLength(1);
        expect(roster.data.every((m) => m.campus?.key === g.campus?.key)).toBe(true);
      }
      expect(count('group.created')).toBe(12);

      // Upcoming events with seats: members and a guest registered, within capacity.
      const upcoming = calendar.data.filter((e) => !e.name.startsWith('Servicio dominical'));
      expect(upcoming).toHaveLength(3);
      expect(upcoming.reduce((sum, e) => sum + e.registration_count, 0)).toBe(registrationCount);
      for (const e of upcoming) {
        expect(new Date(e.starts_at).getTime()).toBeGreaterThan(Date.now());
        expect(e.capacity).not.toBeNull();
        expect(e.registration_count).toBeLessThanOrEqual(e.capacity!);
        const regs = await read<{ data: { member: object | null; guest: object | null }[] }>(
          `/v1/events/${e.id}/registrations?limit=250`,
        );
        expect(regs.data.filter((r) => r.guest !== null)).toHaveLength(1);
        expect(regs.data.filter((r) => r.member !== null).length).toBeGreaterThan(5);
      }
      expect(count('event.registration')).toBe(registrationCount);

      // a second run adds as many again, reusing the campuses, tags and custom fields (unique by key, name and key)
      const second = await runCli(['seed:demo', '--tenant', slug, '--json'], { timeoutMs: 90_000 });
      expect(second.code).toBe(0);
      expect(JSON.parse(second.stdout)).toEqual({
        tenant: slug,
        campuses: 3,
        members: 200,
        households: 70,
        tags: 10,
        custom_fields: 3,
        prospects: 30,
        prayer_requests: 20,
        funds: 4,
        donations: donationCount,
        recurring_gifts: 5,
        pledges: 12,
        batches: 1,
        services: 156,
        attendance: expect.any(Number),
        groups: 12,
        group_members: expect.any(Number),
        upcoming_events: 3,
        registrations: expect.any(Number),
      });
      expect((await get<{ total: number }>('/v1/campuses')).total).toBe(3);
      expect((await get<{ total: number }>('/v1/tags?limit=1')).total).toBe(10);
      expect((await get<{ total: number }>('/v1/custom-fields?limit=1')).total).toBe(3);
      expect((await get<{ total: number }>('/v1/households?limit=1')).total).toBe(140);
      expect((await get<{ total: number }>('/v1/members?limit=1')).total).toBe(400);
      expect((await get<{ total: number }>('/v1/funds?limit=1')).total).toBe(4);
      expect((await get<{ total: number }>('/v1/donations?limit=1')).total).toBe(2 * donationCount);
      // the services, groups and upcoming events are reused: this run's members are added to their attendance, groups and registrations
      const again = JSON.parse(second.stdout) as { attendance: number; group_members: number; registrations: number };
      expect((await read<{ total: number }>('/v1/events?limit=1')).total).toBe(159);
      expect((await read<{ total: number }>('/v1/attendance?limit=1')).total).toBe(attendanceCount + again.attendance);
      const groupsAfter = await read<{ data: Group[]; total: number }>('/v1/groups?limit=50');
      expect(groupsAfter.total).toBe(12);
      expect(groupsAfter.data.reduce((sum, g) => sum + g.member_count, 0)).toBe(groupMemberCount + again.group_members);
      const upcomingAfter = (await read<{ data: CalendarEvent[] }>('/v1/events?limit=250')).data.filter(
        (e) => !e.name.startsWith('Servicio dominical'),
      );
      expect(upcomingAfter.reduce((sum, e) => sum + e.registration_count, 0)).toBe(
        registrationCount + again.registrations,
      );
      expect(upcomingAfter.every((e) => e.registration_count <= e.capacity!)).toBe(true);
    }, 180_000);

    it('refuses an unknown church', async () => {
      const result = await runCli(['seed:demo', '--tenant', uniqueSlug('missing')]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/resource_not_found|not found/i);
    });
  });

  describe('openapi:export', () => {
    const offline = { ...process.env, DATABASE_URL: 'postgres://x@127.0.0.1:1/none', REDIS_URL: undefined };
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'openapi-export-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('writes valid JSON to stdout without a database', async () => {
      const result = await runCli(['openapi:export'], { env: offline });
      expect(result.code).toBe(0);
      const document = JSON.parse(result.stdout) as {
        openapi: string;
        paths: Record<string, unknown>;
        components: { schemas: Record<string, unknown> };
      };
      expect(document.openapi).toMatch(/^3\.1\.\d+$/);
      expect(document.paths).toHaveProperty(['/v1/members']);
      expect(document.paths).toHaveProperty(['/v1/campuses']);
      expect(document.components.schemas).toHaveProperty('Problem');
    });

    it('--yaml --out FILE writes YAML starting with "openapi:" that matches the JSON', async () => {
      const yamlFile = join(dir, 'openapi.yaml');
      const jsonFile = join(dir, 'openapi.json');
      const yaml = await runCli(['openapi:export', '--yaml', '--out', yamlFile], { env: offline });
      expect(yaml.code).toBe(0);
      expect(yaml.stdout).toBe('');
      const text = readFileSync(yamlFile, 'utf8');
      expect(text.startsWith('openapi:')).toBe(true);
      const json = await runCli(['openapi:export', '--out', jsonFile], { env: offline });
      expect(json.code).toBe(0);
      expect(load(text)).toEqual(JSON.parse(readFileSync(jsonFile, 'utf8')));
    });

    it('exports the same document the running API serves', async () => {
      const result = await runCliOk(['openapi:export'], { env: offline });
      const served = await request(api.app.getHttpServer()).get('/v1/openapi.json');
      expect(served.status).toBe(200);
      expect(JSON.parse(result.stdout)).toEqual(served.body);
    });
  });

  describe('usage errors', () => {
    // a real church, so that the missing option (not the church) is what fails
    const church = uniqueSlug('usage');
    beforeAll(async () => {
      await runCliOk(['tenant:create', '--slug', church, '--name', 'Usage']);
      await runCliOk(['user:create', '--tenant', church, '--email', 'a@example.org', '--role', 'org_admin']);
    });

    it('an unknown command exits non-zero with one clear message', async () => {
      const result = await runCli(['members:explode']);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/unknown command/i);
      expect(result.stderr).toContain('members:explode');
      expect(result.stderr).not.toMatch(/error: error:/);
      expect(result.stdout).toBe('');
    });

    it.each([
      [['tenant:create', '--name', 'Sin clave'], '--slug'],
      [['tenant:create', '--slug', 'sin-nombre'], '--name'],
      [['user:create', '--email', 'a@example.org', '--role', 'staff'], '--tenant'],
      [['token:issue', '--tenant', church, '--user', 'a@example.org', '--scopes', 'read:members'], '--name'],
      [['token:issue', '--tenant', church, '--name', 'n', '--scopes', 'read:members'], '--user'],
      [['token:revoke', '--tenant', church], '--id'],
      [['user:create', '--tenant', church, '--role', 'staff'], '--email'],
      [['seed:demo'], '--tenant'],
    ])('%j without a required option exits non-zero naming %s', async (args, option) => {
      const result = await runCli(args);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(option);
      expect(result.stdout).toBe('');
    });

    it('--help lists the commands and exits 0', async () => {
      const result = await runCli(['--help']);
      expect(result.code).toBe(0);
      const text = result.stdout + result.stderr;
      for (const command of [
        'tenant:create',
        'user:create',
        'token:issue',
        'token:revoke',
        'migration:run',
        'openapi:export',
        'seed:demo',
      ])
        expect(text).toContain(command);
    });

    it('a bad configuration value stops the CLI with a message naming it', async () => {
      const result = await runCli(['migration:run'], { env: { ...process.env, DB_POOL_SIZE: 'lots' } });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('DB_POOL_SIZE');
    });
  });
});
