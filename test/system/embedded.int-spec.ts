import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uniqueSlug } from '../support/factories';
import { Env, freePort, pidAlive, runCli, ServerProcess, startServer } from '../support/processes';

/**
 * Acceptance: `npm start` on a machine with no database server. DATABASE_URL is unset, so the API
 * runs on the embedded PostgreSQL (PGlite) under PGLITE_DATA_DIR; the CLI works both before the
 * server starts (it opens the files itself) and while it runs (it connects to the server's
 * database through `<dir>.address.json`).
 */

const PGLITE_START_MS = 60_000;

describe('embedded database (DATABASE_URL unset)', () => {
  let root: string;
  let dataDir: string;
  let env: Env;
  let server: ServerProcess | undefined;
  const slug = uniqueSlug('embedded');
  const admin = 'pastora@example.org';

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'church-embedded-'));
    dataDir = join(root, 'pglite');
    env = {
      ...process.env,
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      PGLITE_DATA_DIR: dataDir,
      PORT: String(await freePort()),
      DB_MIGRATE_ON_START: 'true', // the test setup turns it off for the shared test database
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
    };
  });

  afterAll(async () => {
    if (server) {
      await server.stop(10_000);
      expect(pidAlive(server.pid)).toBe(false);
    }
    rmSync(root, { recursive: true, force: true });
  }, 30_000);

  const http = async <T = Record<string, unknown>>(
    path: string,
    init: { method?: string; token?: string; body?: unknown } = {},
  ) => {
    const headers: Record<string, string> = { 'Accept-Language': 'en' };
    if (init.token) Object.assign(headers, { Authorization: `Bearer ${init.token}`, 'X-Tenant': slug });
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${server!.baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json: json as T };
  };

  it(
    'creates a church and its admin with the CLI before the server runs (the CLI opens and migrates the files itself)',
    async () => {
      const tenant = await runCli(['tenant:create', '--slug', slug, '--name', 'Iglesia Embebida'], {
        env,
        timeoutMs: PGLITE_START_MS + 30_000,
      });
      expect({ code: tenant.code, stderr: tenant.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
      expect(tenant.stdout).toBe(`${slug}\n`);
      expect(existsSync(dataDir)).toBe(true);

      const user = await runCli(['user:create', '--tenant', slug, '--email', admin, '--role', 'org_admin', '--json'], {
        env,
        timeoutMs: PGLITE_START_MS + 30_000,
      });
      expect(user.code).toBe(0);
      expect(JSON.parse(user.stdout)).toMatchObject({ email: admin, role: 'org_admin' });
    },
    2 * PGLITE_START_MS + 60_000,
  );

  it(
    'boots dist/main.js on the embedded database; GET /healthz reports it',
    async () => {
      server = await startServer({ env, port: Number(env.PORT), readyTimeoutMs: PGLITE_START_MS });
      const health = await http('/healthz');
      expect(health.status).toBe(200);
      expect(health.json).toMatchObject({ status: 'ok', database: 'embedded' });

      // the server publishes where its database listens, for the CLI
      const address = JSON.parse(readFileSync(`${dataDir}.address.json`, 'utf8')) as { url: string; pid: number };
      expect(address.pid).toBe(server.pid);
      expect(address.url).toMatch(/^postgres:\/\/[^@]+@127\.0\.0\.1:\d+\//);
    },
    PGLITE_START_MS + 30_000,
  );

  it('issues a token with the CLI while the server runs, then creates and lists a member over HTTP', async () => {
    expect(server?.isRunning()).toBe(true);
    const issued = await runCli(
      [
        'token:issue',
        '--tenant',
        slug,
        '--user',
        admin,
        '--type',
        'pat',
        '--name',
        'smoke',
        '--scopes',
        'read:members,write:members,read:campuses,write:campuses',
        '--json',
      ],
      { env, timeoutMs: 60_000 },
    );
    expect({ code: issued.code, stderr: issued.code === 0 ? '' : issued.stderr }).toEqual({ code: 0, stderr: '' });
    const { token } = JSON.parse(issued.stdout) as { token: string };
    expect(token).toMatch(/^chp_/);
    expect(server!.isRunning()).toBe(true);

    const campus = await http('/v1/campuses', {
      method: 'POST',
      token,
      body: { key: 'central', name: 'Campus Central' },
    });
    expect(campus.status).toBe(201);

    const created = await http<{ id: string }>('/v1/members', {
      method: 'POST',
      token,
      body: {
        first_name: 'Guadalupe',
        last_name: 'Núñez',
        email: 'lupe@example.org',
        birthdate: '1990-05-17',
        campus: 'central',
        status: 'member',
      },
    });
    expect(created.status).toBe(201);
    expect(created.json.id).toMatch(/^mem_[0-9a-f]{32}$/);
    expect(created.headers.get('location')).toBe(`/v1/members/${created.json.id}`);
    expect(created.json).toMatchObject({ first_name: 'Guadalupe', last_name: 'Núñez', campus: { key: 'central' } });

    const list = await http<{ total: number; data: { id: string }[] }>('/v1/members', { token });
    expect(list.status).toBe(200);
    expect(list.json.total).toBe(1);
    expect(list.json.data.map((m) => m.id)).toEqual([created.json.id]);

    const filtered = await http<{ data: { id: string }[] }>('/v1/members?age[gte]=18&campus=central', { token });
    expect(filtered.status).toBe(200);
    expect(filtered.json.data.map((m) => m.id)).toEqual([created.json.id]);

    // errors are problem details on the embedded database too
    const missing = await http(`/v1/members/mem_${'0'.repeat(32)}`, { token });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(missing.json.code).toBe('resource_not_found');
  }, 90_000);

  it('serves the OpenAPI description and the docs', async () => {
    const json = await http('/v1/openapi.json');
    expect(json.status).toBe(200);
    expect(json.json.openapi).toMatch(/^3\.1\./);
    expect(json.json.paths).toHaveProperty(['/v1/members']);
    const docs = await http('/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('stops cleanly on SIGTERM with no process left behind', async () => {
    const running = server!;
    const ended = await running.stop(15_000);
    expect(ended.signal === 'SIGKILL').toBe(false); // it stopped on SIGTERM, not by force
    expect(running.isRunning()).toBe(false);
    expect(pidAlive(running.pid)).toBe(false);
    server = undefined;
  }, 30_000);

  it('removes its address file when it stops, so no client is sent to a dead database', () => {
    expect(existsSync(dataDir)).toBe(true);
    expect(existsSync(`${dataDir}.address.json`)).toBe(false);
  });

  it(
    'keeps the data: the CLI, opening the files again, still finds the church and its admin',
    async () => {
      const again = await runCli(
        ['token:issue', '--tenant', slug, '--user', admin, '--name', 'after restart', '--scopes', 'read:members'],
        { env, timeoutMs: PGLITE_START_MS + 30_000 },
      );
      expect({ code: again.code, stderr: again.code === 0 ? '' : again.stderr }).toEqual({ code: 0, stderr: '' });
      expect(again.stdout).toMatch(/^chp_[0-9A-Za-z]{36}\n$/);
    },
    PGLITE_START_MS + 60_000,
  );
});

describe('embedded database start-up failures', () => {
  it('a bad configuration value stops the server with a message naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'church-embedded-bad-'));
    try {
      const env = {
        ...process.env,
        DATABASE_URL: undefined,
        PGLITE_DATA_DIR: join(dir, 'pg'),
        WEBHOOK_TIMEOUT_MS: 'soon',
      };
      await expect(startServer({ env, readyTimeoutMs: 20_000 })).rejects.toThrow(/WEBHOOK_TIMEOUT_MS/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
