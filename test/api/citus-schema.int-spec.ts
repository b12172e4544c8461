import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestApi } from '../support/api';

/**
 * The schema rules docker/citus/distribute.sql relies on (CONTRACT §22), read from the migrated
 * catalog: a church table (NOT NULL tenant_id) can be distributed by tenant_id only if its primary
 * key and unique indexes include tenant_id and its foreign keys to other church tables join on it;
 * every other table becomes a reference table, which may not point at a distributed one.
 */

/** The tables that are not a church's: reference tables on Citus. A new one is a decision, made here. */
const REFERENCE_TABLES = ['platform_jobs', 'schema_migrations', 'tenants'];

interface Violation {
  table: string;
  what: string;
}

describe('the schema is ready for Citus (distribution by tenant_id)', () => {
  let api: TestApi;
  let churchTables: string[];

  const query = <T>(sql: string, params: unknown[] = []) => api.db.platform.query<T[]>(sql, params);

  beforeAll(async () => {
    api = await TestApi.start();
    const rows = await query<{ relname: string }>(
      `SELECT c.relname FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id' AND a.attnotnull
        WHERE c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace ORDER BY c.relname`,
    );
    churchTables = rows.map((r) => r.relname);
  });

  afterAll(() => api?.close());

  it('every table is a church table (NOT NULL tenant_id) or one of the known reference tables; no tenant_id is nullable', async () => {
    const rows = await query<{ relname: string; tenant_id: boolean | null }>(
      `SELECT c.relname, a.attnotnull AS tenant_id FROM pg_class c
         LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped
        WHERE c.relkind IN ('r', 'p') AND c.relnamespace = 'public'::regnamespace ORDER BY c.relname`,
    );
    expect(rows.filter((r) => r.tenant_id === false).map((r) => r.relname)).toEqual([]);
    expect(rows.filter((r) => r.tenant_id === null).map((r) => r.relname)).toEqual(REFERENCE_TABLES);
    expect(churchTables.length).toBeGreaterThan(50);
  });

  it("every church table's primary key and unique indexes include tenant_id", async () => {
    const rows = await query<Violation>(
      `SELECT c.relname AS table, i.indexrelid::regclass::text AS what
         FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id'
        WHERE c.relname = ANY($1) AND c.relnamespace = 'public'::regnamespace AND (i.indisunique OR i.indisprimary)
          AND NOT (a.attnum = ANY (i.indkey::int2[]))`,
      [churchTables],
    );
    expect(rows).toEqual([]);
    const withoutKey = await query<{ relname: string }>(
      `SELECT c.relname FROM pg_class c WHERE c.relname = ANY($1) AND c.relnamespace = 'public'::regnamespace
          AND NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary)`,
      [churchTables],
    );
    expect(withoutKey).toEqual([]);
  });

  it('every foreign key between church tables joins tenant_id to tenant_id', async () => {
    const rows = await query<Violation>(
      `SELECT c.relname AS table, con.conname AS what
         FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid JOIN pg_class r ON r.oid = con.confrelid
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id'
         JOIN pg_attribute ra ON ra.attrelid = r.oid AND ra.attname = 'tenant_id'
        WHERE con.contype = 'f' AND c.relname = ANY($1) AND r.relname = ANY($1)
          AND NOT EXISTS (SELECT 1 FROM generate_subscripts(con.conkey, 1) k
                           WHERE con.conkey[k] = a.attnum AND con.confkey[k] = ra.attnum)`,
      [churchTables],
    );
    expect(rows).toEqual([]);
  });

  it('no reference table points at a church table, and no church table has an exclusion constraint', async () => {
    const rows = await query<Violation>(
      `SELECT c.relname AS table, con.conname AS what FROM pg_constraint con
         JOIN pg_class c ON c.oid = con.conrelid JOIN pg_class r ON r.oid = con.confrelid
        WHERE (con.contype = 'f' AND c.relname = ANY($2) AND r.relname = ANY($1))
           OR (con.contype = 'x' AND c.relname = ANY($1))`,
      [churchTables, REFERENCE_TABLES],
    );
    expect(rows).toEqual([]);
  });

  it('distribute.sql distributes the NOT NULL tenant_id tables and references the rest, and puts back the foreign keys it drops', () => {
    const script = readFileSync(join(__dirname, '../../docker/citus/distribute.sql'), 'utf8');
    expect(script).toMatch(/a\.attname = 'tenant_id' AND a\.attnotnull/);
    expect(script).toMatch(/create_distributed_table\(t\.tbl, 'tenant_id', colocate_with => first::text\)/);
    expect(script).toMatch(/create_reference_table\(t\.tbl\)/);
    expect(script).toMatch(/DROP CONSTRAINT[\s\S]*create_distributed_table[\s\S]*ADD CONSTRAINT/);
  });
});
