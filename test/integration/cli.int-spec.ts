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
  const result = await runCliOk(['token:issue', '--tenant', slug, '--user', user, '--type', 'pat', '--name', 'cli test', '--scopes', scopes, '--json', ...extra]);
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
      const [row] = await sql<{ name: string; plan: string; status: string }>('SELECT name, plan, status FROM tenants WHERE slug = $1', [slug]);
      expect(row).toEqual({ name: 'Iglesia Central', plan: 'growth', status: 'active' });
    });

    it('prints JSON with --json and defaults the plan to starter', async () => {
      const slug = uniqueSlug('cli');
      const result = await runCliOk(['tenant:create', '--slug', slug, '--name', 'Grace Church', '--json']);
      expect(JSON.parse(result.stdout)).toMatchObject({ slug, name: 'Grace Church', plan: 'starter', status: 'active' });
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

    it.each([['Bad Slug'], ['UPPER'], ['-leading-dash'], ['con_guion_bajo'], ['']])('refuses the invalid slug %j', async (slug) => {
      const result = await runCli(['tenant:create', '--slug', slug, '--name', 'Bad']);
      expect(result.code).not.toBe(0);
      expect(result.stderr.trim()).not.toBe('');
      expect(result.stdout).toBe('');
    });

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
      const result = await runCli(['user:create', '--tenant', slug, '--email', 'Pastor@Example.org', '--role', 'org_admin', '--json']);
      expect(result.code).toBe(0);
      const body = JSON.parse(result.stdout) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['email', 'id', 'role']);
      expect(body.id).toMatch(/^usr_[0-9a-f]{32}$/);
      expect(body).toMatchObject({ email: 'pastor@example.org', role: 'org_admin' });
    });

    it('prints the user id alone without --json', async () => {
      const result = await runCliOk(['user:create', '--tenant', slug, '--email', 'staff1@example.org', '--role', 'staff']);
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
      const result = await runCli(['user:create', '--tenant', slug, '--email', 'secret@example.org', '--role', 'finance', '--password-stdin', '--json'], { input: `${password}\n` });
      expect(result.code).toBe(0);
      expect(result.stdout).not.toContain(password);
      expect(result.stderr).not.toContain(password);
      const [row] = await tenantSql<{ password_hash: string | null }>(slug, 'SELECT password_hash FROM users WHERE email = $1', ['secret@example.org']);
      expect(row.password_hash).toMatch(/^\$argon2/);
      expect(row.password_hash).not.toContain(password);
    });

    it('leaves password_hash empty without --password-stdin', async () => {
      await runCliOk(['user:create', '--tenant', slug, '--email', 'nopass@example.org', '--role', 'volunteer']);
      const [row] = await tenantSql<{ password_hash: string | null }>(slug, 'SELECT password_hash FROM users WHERE email = $1', ['nopass@example.org']);
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
      const result = await runCli(['token:issue', '--tenant', slug, '--user', admin, '--type', 'pat', '--name', 'Integración', '--scopes', 'read:members,write:members', '--json']);
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
      const stored = await tenantSql<{ n: string }>(slug, 'SELECT count(*)::text AS n FROM api_tokens t WHERE t::text LIKE $1', [`%${body.token.slice(4)}%`]);
      expect(stored[0].n).toBe('0');
    });

    it('without --json prints the token value alone and a newline', async () => {
      const result = await runCli(['token:issue', '--tenant', slug, '--user', admin, '--type', 'pat', '--name', 'plain', '--scopes', 'read:members']);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^chp_[0-9A-Za-z]{36}\n$/);
    });

    it('issues a token that works against the API', async () => {
      const issued = await issue(slug, admin, 'read:members,write:members');
      const created = await api.post<{ id: string }>('/v1/members', { token: issued.token, tenant: slug, body: { first_name: 'Lucía', last_name: 'Hernández' } });
      expect(created.status).toBe(201);
      const list = await api.get<{ data: { id: string }[] }>('/v1/members', { token: issued.token, tenant: slug });
      expect(list.status).toBe(200);
      expect(list.body.data.map((m: { id: string }) => m.id)).toContain(created.body.id);
    });

    it('the issued token carries only its scopes', async () => {
      const issued = await issue(slug, admin, 'read:members');
      const denied = await api.post<Problem>('/v1/members', { token: issued.token, tenant: slug, body: { first_name: 'No', last_name: 'Permitido' } });
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
      const unknownScope = await runCli(['token:issue', '--tenant', slug, '--user', admin, '--name', 'n', '--scopes', 'read:everything']);
      expect(unknownScope.code).not.toBe(0);
      expect(unknownScope.stderr).toMatch(/scopes/);
      const unknownType = await runCli(['token:issue', '--tenant', slug, '--user', admin, '--type', 'master', '--name', 'n', '--scopes', 'read:members']);
      expect(unknownType.code).not.toBe(0);
      expect(unknownType.stderr).toMatch(/--type/);
      const unknownUser = await runCli(['token:issue', '--tenant', slug, '--user', 'nobody@example.org', '--name', 'n', '--scopes', 'read:members']);
      expect(unknownUser.code).not.toBe(0);
      expect(unknownUser.stderr).toMatch(/user/);
      for (const r of [unknownScope, unknownType, unknownUser]) expect(r.stdout).toBe('');
    });

    it('--type service for an org_admin gives a chs_ token valid for about 365 days', async () => {
      const before = Date.now();
      const result = await runCliOk(['token:issue', '--tenant', slug, '--user', admin, '--type', 'service', '--name', 'sync', '--scopes', 'admin:*', '--json']);
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
      const result = await runCli(['token:issue', '--tenant', slug, '--user', 'volunteer@example.org', '--type', 'service', '--name', 'svc', '--scopes', 'read:members']);
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
    const ENGLISH = ['Emily', 'Grace', 'Hannah', 'Olivia', 'Abigail', 'James', 'Daniel', 'Samuel', 'David', 'Joshua', 'Caleb', 'Nathan', 'Ruth', 'Esther'];

    it('fills a church with 3 campuses and 200 members with Spanish and English names; a second run keeps 3 campuses', async () => {
      const { slug, admin } = await newChurch();
      const first = await runCli(['seed:demo', '--tenant', slug], { timeoutMs: 90_000 });
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/200/);

      const token = (await issue(slug, admin, 'read:members,read:campuses')).token;
      const campuses = await api.get<{ data: { key: string; name: string }[]; total: number }>('/v1/campuses', { token, tenant: slug });
      expect(campuses.status).toBe(200);
      expect(campuses.body.total).toBe(3);
      expect(campuses.body.data).toHaveLength(3);

      type Member = { first_name: string; last_name: string; campus: { key: string } | null };
      const members = await api.get<{ data: Member[]; total: number }>('/v1/members?limit=250', { token, tenant: slug });
      expect(members.status).toBe(200);
      expect(members.body.total).toBe(200);
      expect(members.body.data).toHaveLength(200);
      const firstNames = new Set(members.body.data.map((m: Member) => m.first_name));
      expect(SPANISH.some((n) => firstNames.has(n))).toBe(true);
      expect(ENGLISH.some((n) => firstNames.has(n))).toBe(true);
      // accents survive the round trip
      expect([...firstNames, ...members.body.data.map((m: Member) => m.last_name)].some((n) => /[áéíóúñ]/i.test(n))).toBe(true);
      // every member is on one of the demo campuses
      const keys = new Set(campuses.body.data.map((c: { key: string }) => c.key));
      expect(members.body.data.every((m: Member) => m.campus !== null && keys.has(m.campus.key))).toBe(true);

      const second = await runCli(['seed:demo', '--tenant', slug, '--json'], { timeoutMs: 90_000 });
      expect(second.code).toBe(0);
      expect(JSON.parse(second.stdout)).toMatchObject({ tenant: slug, campuses: 3 });
      const again = await api.get<{ total: number }>('/v1/campuses', { token, tenant: slug });
      expect(again.body.total).toBe(3);
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
      const document = JSON.parse(result.stdout) as { openapi: string; paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
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
      for (const command of ['tenant:create', 'user:create', 'token:issue', 'token:revoke', 'migration:run', 'openapi:export', 'seed:demo']) expect(text).toContain(command);
    });

    it('a bad configuration value stops the CLI with a message naming it', async () => {
      const result = await runCli(['migration:run'], { env: { ...process.env, DB_POOL_SIZE: 'lots' } });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('DB_POOL_SIZE');
    });
  });
});
