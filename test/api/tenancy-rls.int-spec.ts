import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { TenantContext } from '../../src/common/context/tenant-context';
import { parsePublicId } from '../../src/common/ids/id';
import { APP_ROLE } from '../../src/database/app-role';
import { MembersService } from '../../src/modules/members/members.service';
import { TestApi } from '../support/api';
import { inTenant, newMembers, newTenant, TestTenant } from '../support/factories';

/** The tenant-owned tables of the foundation; any other table with a tenant_id column is checked too. */
const TENANT_TABLES = ['users', 'api_tokens', 'campuses', 'members'];
const RLS_TABLES = [...TENANT_TABLES, 'tenants'];

/** A row of `table` owned by `tenantId` (other NOT NULL columns filled with throwaway values). */
function insertRow(table: string, tenantId: string): { sql: string; params: unknown[] } {
  const id = randomUUID();
  switch (table) {
    case 'members':
      return {
        sql: `INSERT INTO members (tenant_id, id, first_name, last_name) VALUES ($1, $2, 'Rls', 'Probe')`,
        params: [tenantId, id],
      };
    case 'campuses':
      return {
        sql: `INSERT INTO campuses (tenant_id, id, key, name) VALUES ($1, $2, $3, 'RLS probe')`,
        params: [tenantId, id, `rls-${id.slice(0, 8)}`],
      };
    case 'users':
      return {
        sql: `INSERT INTO users (tenant_id, id, email, role) VALUES ($1, $2, $3, 'staff')`,
        params: [tenantId, id, `rls-${id}@example.org`],
      };
    case 'api_tokens':
      return {
        sql: `INSERT INTO api_tokens (tenant_id, id, type, name, scopes, token_hash, token_prefix, last4) VALUES ($1, $2, 'pat', 'rls probe', '{read:members}', $3, 'chp_', 'abcd')`,
        params: [tenantId, id, createHash('sha256').update(id).digest()],
      };
    default:
      throw new Error(`no probe row for ${table}`);
  }
}

function sqlState(error: unknown): string | undefined {
  const e = error as { code?: string; driverError?: { code?: string } };
  return e?.driverError?.code ?? e?.code;
}

/** The error `work` fails with (null when it succeeds). TypeORM's console log of the expected failure is kept quiet. */
async function failure(work: () => Promise<unknown>): Promise<unknown> {
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    await work();
    return null;
  } catch (error) {
    return error;
  } finally {
    log.mockRestore();
  }
}

describe('tenancy and row-level security', () => {
  let api: TestApi;
  let a: TestTenant;
  let b: TestTenant;
  let aMembers: string[];
  let bMembers: string[];

  /** Runs `fn` in a transaction as the application role, with app.tenant_id set to `tenantId` (or not set). */
  const asAppRole = <T>(tenantId: string | null, fn: (m: EntityManager) => Promise<T>): Promise<T> =>
    api.db.dataSource.transaction(async (m) => {
      await m.query(`SET LOCAL ROLE ${APP_ROLE}`);
      if (tenantId) await m.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenantId]);
      return fn(m);
    });

  const count = async (m: EntityManager, table: string): Promise<number> => {
    const [{ n }] = await m.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${table}`);
    return n;
  };

  beforeAll(async () => {
    api = await TestApi.start();
    a = await newTenant(api, { plan: 'business' });
    b = await newTenant(api, { plan: 'business' });
    aMembers = await newMembers(api, a, [
      { first_name: 'Ana', last_name: 'A' },
      { first_name: 'Alba', last_name: 'A' },
    ]);
    bMembers = await newMembers(api, b, [
      { first_name: 'Beto', last_name: 'B' },
      { first_name: 'Bruno', last_name: 'B' },
      { first_name: 'Blanca', last_name: 'B' },
    ]);
    for (const t of [a, b]) {
      const res = await api.post('/v1/campuses', {
        token: t.token,
        tenant: t.slug,
        body: { key: 'main', name: 'Main' },
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(() => api.close());

  describe('raw queries under the application role', () => {
    it('the application role does not bypass RLS and is not a superuser', async () => {
      const [role] = await api.db.platform.query<{ rolsuper: boolean; rolbypassrls: boolean }[]>(
        'SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = $1',
        [APP_ROLE],
      );
      expect(role).toEqual({ rolsuper: false, rolbypassrls: false });
    });

    it('members exist (seen by the owner connection)', async () => {
      const [{ n }] = await api.db.platform.query<{ n: number }[]>(
        'SELECT count(*)::int AS n FROM members WHERE tenant_id = ANY($1)',
        [[a.id, b.id]],
      );
      expect(n).toBe(aMembers.length + bMembers.length);
    });

    it.each(TENANT_TABLES)('%s: no tenant set means no rows, not an error', async (table) => {
      const n = await asAppRole(null, (m) => count(m, table));
      expect(n).toBe(0);
    });

    it.each(TENANT_TABLES)('%s: an empty tenant setting means no rows', async (table) => {
      const n = await api.db.dataSource.transaction(async (m) => {
        await m.query(`SET LOCAL ROLE ${APP_ROLE}`);
        await m.query(`SELECT set_config('app.tenant_id', '', true)`);
        return count(m, table);
      });
      expect(n).toBe(0);
    });

    it.each(TENANT_TABLES)("%s: with app.tenant_id = A only A's rows are visible", async (table) => {
      const tenants = await asAppRole(a.id, async (m) =>
        (await m.query<{ tenant_id: string }[]>(`SELECT DISTINCT tenant_id FROM ${table}`)).map((r) => r.tenant_id),
      );
      expect(tenants).toEqual([a.id]);
      const [{ n: owned }] = await api.db.platform.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = $1`,
        [a.id],
      );
      expect(await asAppRole(a.id, (m) => count(m, table))).toBe(owned);
    });

    it("members: A's setting shows exactly A's members, B's setting exactly B's", async () => {
      const ids = (tenantId: string) =>
        asAppRole(tenantId, async (m) =>
          (await m.query<{ id: string }[]>('SELECT id FROM members ORDER BY id')).map((r) => r.id),
        );
      expect(await ids(a.id)).toEqual(aMembers.map((id) => parsePublicId('mem', id)).sort());
      expect(await ids(b.id)).toEqual(bMembers.map((id) => parsePublicId('mem', id)).sort());
    });

    it("members: a query naming B's rows explicitly under A's setting finds nothing", async () => {
      const n = await asAppRole(a.id, async (m) => {
        const [{ n }] = await m.query<{ n: number }[]>('SELECT count(*)::int AS n FROM members WHERE tenant_id = $1', [
          b.id,
        ]);
        return n;
      });
      expect(n).toBe(0);
    });

    it("members: an UPDATE or DELETE aimed at B's rows under A's setting touches nothing", async () => {
      const bId = parsePublicId('mem', bMembers[0]);
      const affected = await asAppRole(a.id, async (m) => {
        const updated = await m.query<[unknown[], number]>(`UPDATE members SET first_name = 'Hacked' WHERE id = $1`, [
          bId,
        ]);
        const deleted = await m.query<[unknown[], number]>('DELETE FROM members WHERE id = $1', [bId]);
        return [updated[1], deleted[1]];
      });
      expect(affected).toEqual([0, 0]);
      const [row] = await api.db.platform.query<{ first_name: string }[]>(
        'SELECT first_name FROM members WHERE id = $1',
        [bId],
      );
      expect(row.first_name).toBe('Beto');
    });

    it.each(TENANT_TABLES)("%s: an INSERT of the tenant's own row passes the policy (control)", async (table) => {
      const probe = insertRow(table, a.id);
      // Rolled back: the row only proves that the grants and the policy let a tenant write its own rows.
      const outcome = await asAppRole(a.id, async (m) => {
        const before = await count(m, table);
        await m.query(probe.sql, probe.params);
        const after = await count(m, table);
        throw Object.assign(new Error('rollback'), { before, after });
      }).catch((e: { message: string; before?: number; after?: number }) => e);
      expect(outcome).toMatchObject({ message: 'rollback' });
      expect(outcome.after).toBe(outcome.before! + 1);
    });

    it.each(TENANT_TABLES)(
      "%s: an INSERT with B's tenant_id under A's setting fails the WITH CHECK (42501)",
      async (table) => {
        const probe = insertRow(table, b.id);
        const error = await failure(() => asAppRole(a.id, (m) => m.query(probe.sql, probe.params)));
        expect(error).not.toBeNull();
        expect(sqlState(error)).toBe('42501');
      },
    );

    it.each(TENANT_TABLES)('%s: an INSERT with no tenant set fails too (42501)', async (table) => {
      const probe = insertRow(table, a.id);
      const error = await failure(() => asAppRole(null, (m) => m.query(probe.sql, probe.params)));
      expect(sqlState(error)).toBe('42501');
    });

    it("members: an UPDATE moving A's row to B fails the WITH CHECK (42501)", async () => {
      const aId = parsePublicId('mem', aMembers[0]);
      const error = await failure(() =>
        asAppRole(a.id, (m) => m.query('UPDATE members SET tenant_id = $1 WHERE id = $2', [b.id, aId])),
      );
      expect(sqlState(error)).toBe('42501');
    });
  });

  describe('catalog', () => {
    let tenantOwned: string[];

    beforeAll(async () => {
      const rows: { table_name: string }[] = await api.db.platform.query(
        `SELECT c.table_name FROM information_schema.columns c
           JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
          WHERE c.table_schema = 'public' AND c.column_name = 'tenant_id' AND t.table_type = 'BASE TABLE'`,
      );
      tenantOwned = [...new Set([...TENANT_TABLES, ...rows.map((r) => r.table_name)])].sort();
    });

    it('the foundation tables all carry tenant_id', () => {
      expect(tenantOwned).toEqual(expect.arrayContaining(TENANT_TABLES));
    });

    it('row-level security is enabled and forced on every tenant-owned table and on tenants', async () => {
      const tables = [...new Set([...RLS_TABLES, ...tenantOwned])].sort();
      const rows: { relname: string; relrowsecurity: boolean; relforcerowsecurity: boolean }[] =
        await api.db.platform.query(
          `SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relname = ANY($1)
          ORDER BY c.relname`,
          [tables],
        );
      expect(rows).toEqual(tables.map((relname) => ({ relname, relrowsecurity: true, relforcerowsecurity: true })));
    });

    it('every tenant-owned table has a tenant isolation policy on app.tenant_id', async () => {
      const rows: { tablename: string; qual: string; with_check: string | null }[] = await api.db.platform.query(
        `SELECT tablename, qual, with_check FROM pg_policies WHERE schemaname = 'public' AND tablename = ANY($1) AND 'public' = ANY(roles)`,
        [tenantOwned],
      );
      for (const table of tenantOwned) {
        const policies = rows.filter((r) => r.tablename === table);
        expect({
          table,
          isolated: policies.some((p) => p.qual.includes('app.tenant_id') && p.qual.includes('tenant_id')),
        }).toEqual({ table, isolated: true });
      }
    });

    it('every primary key and unique index of a tenant-owned table leads with tenant_id', async () => {
      const rows: { table: string; index: string; primary: boolean; first_column: string | null }[] =
        await api.db.platform.query(
          `SELECT t.relname AS table, i.relname AS index, x.indisprimary AS primary, a.attname AS first_column
           FROM pg_index x
           JOIN pg_class t ON t.oid = x.indrelid
           JOIN pg_namespace n ON n.oid = t.relnamespace
           JOIN pg_class i ON i.oid = x.indexrelid
           LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = x.indkey[0]
          WHERE n.nspname = 'public' AND (x.indisprimary OR x.indisunique) AND t.relname = ANY($1)
          ORDER BY t.relname, i.relname`,
          [tenantOwned],
        );
      // Each table has a primary key, and the known unique indexes are among the rows checked.
      for (const table of tenantOwned) expect(rows.some((r) => r.table === table && r.primary)).toBe(true);
      expect(rows.map((r) => r.index)).toEqual(
        expect.arrayContaining(['users_tenant_email_key', 'api_tokens_tenant_hash_key', 'campuses_tenant_key_key']),
      );
      const offenders = rows.filter((r) => r.first_column !== 'tenant_id');
      expect(offenders).toEqual([]);
    });

    it('the application role sees only its own church in tenants', async () => {
      const ids = await asAppRole(a.id, async (m) =>
        (await m.query<{ id: string }[]>('SELECT id FROM tenants')).map((r) => r.id),
      );
      expect(ids).toEqual([a.id]);
      expect(await asAppRole(null, (m) => count(m, 'tenants'))).toBe(0);
    });

    it('tenants is the exception: keyed by id, with a unique slug', async () => {
      const rows: { index: string; first_column: string | null }[] = await api.db.platform.query(
        `SELECT i.relname AS index, a.attname AS first_column
           FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
           LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = x.indkey[0]
          WHERE t.relname = 'tenants' AND (x.indisprimary OR x.indisunique) ORDER BY i.relname`,
      );
      expect(rows.map((r) => r.first_column).sort()).toEqual(['id', 'slug']);
    });
  });

  describe('Database.runInTenant', () => {
    it("MembersService.list sees only the tenant's members although another church has members", async () => {
      const { body: listA } = await inTenant(api, a.id, () => api.app.get(MembersService).list({}));
      expect(listA.data.map((m) => m.id).sort()).toEqual([...aMembers].sort());
      expect(listA.total).toBe(aMembers.length);
      const { body: listB } = await inTenant(api, b.id, () => api.app.get(MembersService).list({}));
      expect(listB.data.map((m) => m.id).sort()).toEqual([...bMembers].sort());
    });

    it('runs as the application role with app.tenant_id set, so a raw query is confined too', async () => {
      const seen = await inTenant(api, a.id, async () => {
        const { manager } = TenantContext.current();
        const [who] = await manager.query<{ role: string; tenant: string }[]>(
          `SELECT current_user AS role, current_setting('app.tenant_id', true) AS tenant`,
        );
        const tenants = (await manager.query<{ tenant_id: string }[]>('SELECT DISTINCT tenant_id FROM members')).map(
          (r) => r.tenant_id,
        );
        return { ...who, tenants };
      });
      expect(seen).toEqual({ role: APP_ROLE, tenant: a.id, tenants: [a.id] });
    });

    it('the setting does not outlive the transaction on a pooled connection', async () => {
      await inTenant(api, a.id, async () => undefined);
      const rows = await api.db.dataSource.transaction(async (m) => {
        await m.query(`SET LOCAL ROLE ${APP_ROLE}`);
        return await m.query<{ tenant: string | null; role: string }[]>(
          `SELECT nullif(current_setting('app.tenant_id', true), '') AS tenant, current_user AS role`,
        );
      });
      expect(rows[0]).toEqual({ tenant: null, role: APP_ROLE });
      const [outside] = await api.db.platform.query<{ role: string }[]>('SELECT current_user AS role');
      expect(outside.role).not.toBe(APP_ROLE);
    });

    it('the first statement opens the transaction in its own round trip, its parameters of every kind intact', async () => {
      const values = [
        "O'Brien \\ back\\slash $1 -- not a comment",
        42,
        null,
        true,
        [parsePublicId('mem', aMembers[0]), parsePublicId('mem', aMembers[1])],
        new Date('2026-01-02T03:04:05.678Z'),
        { note: "it's", list: [1, 2] },
        Buffer.from([0, 1, 254, 255]),
      ];
      const seen = await inTenant(api, a.id, async () => {
        const { manager } = TenantContext.current();
        const [first] = await manager.query<Record<string, unknown>[]>(
          `SELECT $1::text AS text, $2::int AS int, $3::text AS "null", $4::boolean AS bool,
                  (SELECT count(*)::int FROM members WHERE id = ANY($5::uuid[])) AS members,
                  $6::timestamptz AS at, $7::jsonb AS json, $8::bytea AS bytes, '$2' AS literal, -- $3
                  current_user AS role, now() AS started /* $4 */`,
          values,
        );
        const [second] = await manager.query<{ started: Date }[]>('SELECT now() AS started');
        return { ...first, sameTransaction: (first.started as Date).getTime() === second.started.getTime() };
      });
      expect(seen).toMatchObject({
        text: values[0],
        int: 42,
        null: null,
        bool: true,
        members: 2,
        at: values[5],
        json: values[6],
        bytes: values[7],
        literal: '$2',
        role: APP_ROLE,
        sameTransaction: true,
      });
    });

    it('a failing statement rolls back what the transaction wrote before it, the first statement included', async () => {
      const id = randomUUID();
      const error = await failure(() =>
        inTenant(api, a.id, async () => {
          const { manager } = TenantContext.current();
          await manager.query(
            `INSERT INTO members (tenant_id, id, first_name, last_name) VALUES ($1, $2, 'Roll', 'Back')`,
            [a.id, id],
          );
          await manager.query('SELECT 1/0');
        }),
      );
      expect(sqlState(error)).toBe('22012');
      const rows = await api.db.platform.query('SELECT 1 FROM members WHERE id = $1', [id]);
      expect(rows).toEqual([]);
    });

    it('a read-only run confines each statement to the tenant, refuses writes, and leaves nothing on the connection', async () => {
      const readOnly = <T>(fn: () => Promise<T>) =>
        api.db.runInTenant({ tenantId: a.id, actor: { kind: 'cli' }, lang: 'en', readOnly: true }, fn);
      const seen = await readOnly(async () => {
        const { manager } = TenantContext.current();
        const tenants = await manager.query<{ tenant_id: string }[]>(
          'SELECT DISTINCT tenant_id FROM members WHERE tenant_id = ANY($1::uuid[])',
          [[a.id, b.id]],
        );
        const [who] = await manager.query<{ role: string; tenant: string }[]>(
          `SELECT current_user AS role, current_setting('app.tenant_id', true) AS tenant`,
        );
        return { tenants: tenants.map((r) => r.tenant_id), ...who };
      });
      expect(seen).toEqual({ tenants: [a.id], role: APP_ROLE, tenant: a.id });

      const id = randomUUID();
      const error = await failure(() =>
        readOnly(() =>
          TenantContext.current().manager.query(
            `INSERT INTO members (tenant_id, id, first_name, last_name) VALUES ($1, $2, 'Read', 'Only')`,
            [a.id, id],
          ),
        ),
      );
      expect(sqlState(error)).toBe('25006'); // read_only_sql_transaction
      expect(await api.db.platform.query('SELECT 1 FROM members WHERE id = $1', [id])).toEqual([]);

      // The pool's connections (size 1 in tests or not) are back to the pool's own role, outside any tenant.
      for (let i = 0; i < 3; i++) {
        const [outside] = await api.db.platform.query<{ role: string; tenant: string | null; ro: string }[]>(
          `SELECT current_user AS role, nullif(current_setting('app.tenant_id', true), '') AS tenant,
                  current_setting('transaction_read_only') AS ro`,
        );
        expect(outside).toEqual({ role: expect.not.stringMatching(`^${APP_ROLE}$`), tenant: null, ro: 'off' });
      }
    });

    it("over HTTP, B's member is a 404 for A's token", async () => {
      const res = await api.get(`/v1/members/${bMembers[0]}`, { token: a.token, tenant: a.slug });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'resource_not_found' });
    });
  });
});
