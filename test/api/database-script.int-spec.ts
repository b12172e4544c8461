import { randomUUID } from 'node:crypto';
import { jsonLiteral } from '../../src/database/sql-literal';
import { TestApi } from '../support/api';
import { newTenant, TestTenant } from '../support/factories';

/** Database.runScriptInTenant: the one-round-trip transaction the webhook worker books deliveries with. */
describe('Database.runScriptInTenant', () => {
  let api: TestApi;
  let a: TestTenant;
  let b: TestTenant;
  const prepared = {
    script_spec_campuses:
      'SELECT key FROM campuses WHERE key = ANY(ARRAY(SELECT json_array_elements_text($1::json))) ORDER BY key',
    script_spec_add: `INSERT INTO campuses (tenant_id, id, key, name) SELECT $1::uuid, gen_random_uuid(), c->>'key', c->>'name' FROM json_array_elements($2::json) c RETURNING key`,
  };

  beforeAll(async () => {
    api = await TestApi.start();
    [a, b] = [await newTenant(api), await newTenant(api)];
  });
  afterAll(() => api.close());

  const run = (tenant: TestTenant, statements: string[]) =>
    api.db.runScriptInTenant(tenant.id, statements, { prepared });
  const keysOf = async (tenant: TestTenant, keys: string[]) =>
    (await run(tenant, [`EXECUTE script_spec_campuses(${jsonLiteral(keys)})`]))[0].map((r) => r.key);

  it('runs prepared statements in the church only (row-level security), and commits them together', async () => {
    const [inserted, seen] = await run(a, [
      `EXECUTE script_spec_add('${a.id}', ${jsonLiteral([
        { key: 'north', name: 'North' },
        { key: 'south', name: 'South' },
      ])})`,
      `EXECUTE script_spec_campuses(${jsonLiteral(['north', 'south'])})`,
    ]);
    expect(inserted.map((r) => r.key).sort()).toEqual(['north', 'south']);
    expect(seen.map((r) => r.key)).toEqual(['north', 'south']);
    expect(await keysOf(b, ['north', 'south'])).toEqual([]);
    // Another church's id in the statement is refused by the policy, not written.
    await expect(
      run(b, [`EXECUTE script_spec_add('${a.id}', ${jsonLiteral([{ key: 'west', name: 'West' }])})`]),
    ).rejects.toThrow(/row-level security/);
    expect(await keysOf(a, ['west'])).toEqual([]);
  });

  it('writes nothing when a statement fails, and the connection works afterwards', async () => {
    // The second insert breaks the unique (tenant_id, key): the first must not survive.
    await expect(
      run(a, [
        `EXECUTE script_spec_add('${a.id}', ${jsonLiteral([{ key: 'east', name: 'East' }])})`,
        `EXECUTE script_spec_add('${a.id}', ${jsonLiteral([{ key: 'north', name: 'North again' }])})`,
      ]),
    ).rejects.toThrow(/duplicate key/);
    expect(await keysOf(a, ['east'])).toEqual([]);
    // Every pooled connection still answers (the failed one was rolled back and re-prepares).
    const again = await Promise.all(Array.from({ length: 8 }, () => keysOf(a, ['north'])));
    expect(again).toEqual(Array.from({ length: 8 }, () => ['north']));
  });

  it('runs prepared statements on their generic plan, never planning them per call', async () => {
    // PostgreSQL would try custom plans for the first executions (and keep them for cheap ones).
    const counts = async () =>
      (
        await run(a, [
          `EXECUTE script_spec_campuses(${jsonLiteral(['north'])})`,
          `SELECT generic_plans::int AS g, custom_plans::int AS c FROM pg_prepared_statements WHERE name = 'script_spec_campuses'`,
        ])
      )[1][0];
    let last = await counts();
    for (let i = 0; i < 12; i++) last = await counts();
    expect(last.c).toBe(0);
    expect(last.g).toBeGreaterThan(0);
  });

  it('carries any string through jsonLiteral unchanged', async () => {
    const nasty = `it's a \\ "test"; DROP TABLE campuses; -- ${randomUUID()} \u00e9\u4e2d`;
    const [rows] = await run(a, [`SELECT (${jsonLiteral({ s: nasty })})->>'s' AS s`]);
    expect(rows[0].s).toBe(nasty);
  });

  it('refuses a tenant id that is not a uuid', async () => {
    await expect(api.db.runScriptInTenant("x'; DROP TABLE campuses; --", ['SELECT 1'])).rejects.toThrow(/not a uuid/);
  });
});
