import { randomUUID } from 'node:crypto';
import { TenantContext } from '../../src/common/context/tenant-context';
import { fetchPage } from '../../src/common/lists/keyset-page';
import { parseListQuery } from '../../src/common/lists/list-query';
import { MemberEntity } from '../../src/modules/members/member.entity';
import { MEMBER_LIST } from '../../src/modules/members/members.list';
import { TestApi } from '../support/api';
import { nodesOf, PlanNode } from '../support/query-plan';
import { inTenant, newTenant, TestTenant } from '../support/factories';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import { BadListParams, itRefusesBadListParams } from '../support/http';
import type { MemberResponse as Member } from '../../src/modules/members/dto/member.response';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';

/**
 * CONTRACT §6 acceptance: with 10,000 members, paging with limit=250 to the end repeats and skips
 * nothing under every sortable field (and mixed multi-field sorts), stays stable under inserts, and
 * every page's query is answered by a (tenant_id, <column>, id) index.
 */

const MEMBERS = 10_000;
const LIMIT = 250;

// ASCII, capitalized, letters only: every collation orders them like a byte comparison does.
const LAST_NAMES = [
  'Garcia',
  'Garcias',
  'Gar',
  'Lopez',
  'Martinez',
  'Rodriguez',
  'Hernandez',
  'Gonzalez',
  'Perez',
  'Sanchez',
  'Ramirez',
  'Torres',
  'Flores',
  'Rivera',
  'Gomez',
  'Diaz',
  'Cruz',
  'Morales',
  'Reyes',
  'Ortiz',
];
const FIRST_NAMES = [
  'Ana',
  'Anabel',
  'Maria',
  'Jose',
  'Juan',
  'Luis',
  'Carlos',
  'Sofia',
  'Lucia',
  'Pedro',
  'Jorge',
  'Elena',
  'Diego',
];
const TIE_CREATED_AT = '2024-01-01T00:40:00.000Z';

const sqlArray = (values: string[]) => `ARRAY[${values.map((v) => `'${v}'`).join(', ')}]::text[]`;

/**
 * 10,000 live members with many duplicates: 20 last names, 13 first names, ~20% NULL birthdates
 * and a 200-row group sharing one birthdate, 600 rows sharing one exact created_at (more than two
 * pages of ties) and otherwise triples sharing a created_at. UUIDs are random (v4), so the id
 * tie-breaker is uncorrelated with every sort field. Plus soft-deleted rows that must never show.
 */
function membersInsert(count: number, extra: { deleted?: boolean; offset?: number } = {}): string {
  const offset = extra.offset ?? 0;
  return `
    INSERT INTO members (tenant_id, id, first_name, last_name, email, birthdate, gender, status, active, custom_fields, created_at, updated_at, deleted_at)
    SELECT $1::uuid, gen_random_uuid(),
      (${sqlArray(FIRST_NAMES)})[1 + (i * 7) % ${FIRST_NAMES.length}],
      (${sqlArray(LAST_NAMES)})[1 + (i * 3 + i / 7) % ${LAST_NAMES.length}],
      'm' || i || '@example.org',
      CASE WHEN i % 5 = 0 THEN NULL
           WHEN i % 50 = 1 THEN DATE '1980-05-05'
           ELSE DATE '1940-01-01' + (i * 37) % 3001 END,
      (ARRAY['male', 'female', 'unspecified'])[1 + i % 3],
      (ARRAY['visitor', 'regular', 'member', 'leader'])[1 + i % 4],
      i % 10 <> 0,
      '{}'::jsonb,
      CASE WHEN i <= 600 THEN TIMESTAMPTZ '${TIE_CREATED_AT}'
           ELSE TIMESTAMPTZ '2024-01-01T00:00:00Z' + (i / 3) * interval '1.5 seconds' END,
      now(),
      ${extra.deleted ? 'now()' : 'NULL'}
    FROM generate_series(${offset + 1}, ${offset + count}) AS i`;
}

// ---- the sort order, independently of the implementation ----

/** What a member list sorts by. */
type Sorted = Pick<Member, 'id' | 'first_name' | 'last_name' | 'birthdate' | 'created_at'>;

interface Key {
  value: (m: Sorted) => string | null;
  desc: boolean;
}

/** The ORDER BY a sort means: columns with PostgreSQL's NULL placement (NULLS LAST asc, FIRST desc), id last in the last column's direction. */
function keysOf(sort: string): Key[] {
  const keys: Key[] = sort.split(',').map((term) => {
    const desc = term.startsWith('-');
    const field = desc ? term.slice(1) : term;
    switch (field) {
      case 'created_at':
        return { value: (m: Sorted) => m.created_at, desc };
      case 'last_name':
        return { value: (m: Sorted) => m.last_name, desc };
      case 'first_name':
        return { value: (m: Sorted) => m.first_name, desc };
      case 'age':
        // Older first = earlier birthdate first: age ascending is birthdate descending.
        return { value: (m: Sorted) => m.birthdate, desc: !desc };
      default:
        throw new Error(`no key for ${field}`);
    }
  });
  // Public ids are mem_ + the UUID's hex: their string order is PostgreSQL's uuid order.
  keys.push({ value: (m) => m.id, desc: keys[keys.length - 1].desc });
  return keys;
}

/** < 0 when a comes first. NULL sorts as larger than every value (hence last ascending, first descending). */
function compare(keys: Key[], a: Sorted, b: Sorted): number {
  for (const key of keys) {
    const x = key.value(a);
    const y = key.value(b);
    let c: number;
    if (x === null && y === null) c = 0;
    else if (x === null) c = 1;
    else if (y === null) c = -1;
    else c = x < y ? -1 : x > y ? 1 : 0;
    if (c !== 0) return key.desc ? -c : c;
  }
  return 0;
}

function describeMember(m: Member): string {
  return JSON.stringify({
    id: m.id,
    created_at: m.created_at,
    last_name: m.last_name,
    first_name: m.first_name,
    birthdate: m.birthdate,
  });
}

// ---- EXPLAIN plans ----

describe('keyset pagination over 10,000 members', () => {
  let api: TestApi;
  let church: TestTenant;
  let other: TestTenant;
  let allIds: Set<string>;

  const auth = () => ({ token: church.token, tenant: church.slug });

  async function list(params: Record<string, string>): Promise<{ status: number; body: List<Member> & Problem }> {
    const res = await api.get(`/v1/members?${new URLSearchParams(params).toString()}`, auth());
    return { status: res.status, body: res.body as List<Member> & Problem };
  }

  /** Follows next_cursor to the end; `between` runs after every page (before the next fetch). */
  async function pageAll(sort: string, between?: (page: List<Member>, index: number) => Promise<void>) {
    const members: Member[] = [];
    const totals: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(cursor ? { sort, limit: String(LIMIT), cursor } : { sort, limit: String(LIMIT) });
      if (res.status !== 200)
        throw new Error(`sort=${sort} page ${pages + 1}: ${res.status} ${JSON.stringify(res.body)}`);
      const page = res.body;
      expect(page.data.length).toBeLessThanOrEqual(LIMIT);
      if (page.next_cursor !== null) expect(page.data).toHaveLength(LIMIT);
      members.push(...page.data);
      totals.push(page.total!); // counted: no total=false here
      cursor = page.next_cursor;
      pages++;
      if (pages > 100) throw new Error(`sort=${sort}: more than 100 pages; the cursor does not advance`);
      if (between) await between(page, pages);
    } while (cursor);
    return { members, totals, pages };
  }

  beforeAll(async () => {
    api = await TestApi.start();
    // The largest plan, so that the ~500 list calls of this file stay inside the rate limits.
    church = await newTenant(api, { plan: 'enterprise' });
    other = await newTenant(api, { plan: 'enterprise' });
    await inTenant(api, church.id, async () => {
      const { manager } = TenantContext.current();
      await manager.query(membersInsert(MEMBERS), [church.id]);
      await manager.query(membersInsert(40, { deleted: true, offset: 20_000 }), [church.id]);
    });
    // Another church's members never leak into the list or its total.
    await inTenant(api, other.id, () => TenantContext.current().manager.query(membersInsert(25), [other.id]));
    await api.db.platform.query('ANALYZE members');

    const stats = await inTenant(api, church.id, () =>
      TenantContext.current().manager.query<
        { live: number; no_birthdate: number; tied_created: number; last_names: number; created_values: number }[]
      >(
        `SELECT count(*)::int AS live, count(*) FILTER (WHERE birthdate IS NULL)::int AS no_birthdate,
                count(*) FILTER (WHERE created_at = $1)::int AS tied_created, count(DISTINCT last_name)::int AS last_names,
                count(DISTINCT created_at)::int AS created_values
           FROM members WHERE deleted_at IS NULL`,
        [TIE_CREATED_AT],
      ),
    );
    expect(stats[0]).toMatchObject({ live: MEMBERS, no_birthdate: 2000, last_names: LAST_NAMES.length });
    expect(stats[0].tied_created).toBeGreaterThanOrEqual(600);
    expect(stats[0].created_values).toBeLessThan(MEMBERS / 2);
    const ids: { id: string }[] = await inTenant(api, church.id, () =>
      TenantContext.current().manager.query(
        `SELECT replace(id::text, '-', '') AS id FROM members WHERE deleted_at IS NULL`,
      ),
    );
    allIds = new Set(ids.map((r) => `mem_${r.id}`));
    expect(allIds.size).toBe(MEMBERS);
  }, 120_000);

  afterAll(() => api?.close());

  describe.each([
    'created_at',
    '-created_at',
    'last_name',
    '-last_name',
    'first_name',
    '-first_name',
    'age',
    '-age',
    '-created_at,last_name',
    'last_name,-first_name',
  ])('sort=%s', (sort) => {
    it('pages with limit=250 to the end: every member exactly once, in order, total 10,000 on every page', async () => {
      const { members, totals, pages } = await pageAll(sort);

      expect(pages).toBe(MEMBERS / LIMIT);
      expect(totals.every((t) => t === MEMBERS)).toBe(true);

      const seen = members.map((m) => m.id);
      const once = new Set<string>();
      const repeated = seen.filter((id) => (once.has(id) ? true : (once.add(id), false)));
      expect(repeated).toEqual([]);
      const skipped = [...allIds].filter((id) => !once.has(id));
      expect(skipped).toEqual([]);
      expect(seen.filter((id) => !allIds.has(id))).toEqual([]);
      expect(seen).toHaveLength(MEMBERS);

      const keys = keysOf(sort);
      const outOfOrder: string[] = [];
      for (let i = 1; i < members.length; i++) {
        if (compare(keys, members[i - 1], members[i]) >= 0)
          outOfOrder.push(`#${i - 1} ${describeMember(members[i - 1])} !< #${i} ${describeMember(members[i])}`);
      }
      expect(outOfOrder.slice(0, 5)).toEqual([]);
    });
  });

  describe('parameters', () => {
    it('limit=250 is accepted and returns 250 rows', async () => {
      const res = await list({ limit: '250' });
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(250);
      expect(res.body.total).toBe(MEMBERS);
      expect(res.body.next_cursor).toEqual(expect.any(String));
    });

    it('the default is 50 rows sorted by created_at', async () => {
      const res = await list({});
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(50);
      const keys = keysOf('created_at');
      for (let i = 1; i < 50; i++) expect(compare(keys, res.body.data[i - 1], res.body.data[i])).toBeLessThan(0);
    });

    itRefusesBadListParams(
      () => api,
      '/v1/members',
      auth,
      ['0', '251', 'abc', '-1', '1.5', ''].map((limit): BadListParams => [{ limit }, 'limit']),
    );

    it('an unknown sort field is a 400, never ignored', async () => {
      const res = await list({ sort: 'email' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_parameter');
      expect(res.body.errors).toEqual([expect.objectContaining({ field: 'sort', issue: 'not_sortable' })]);
    });

    it('a cursor from one sort used with another sort is a 400 invalid_parameter', async () => {
      const first = await list({ sort: 'last_name', limit: '10' });
      expect(first.status).toBe(200);
      const cursor = first.body.next_cursor!;
      expect(cursor).toEqual(expect.any(String));
      expect((await list({ sort: 'last_name', limit: '10', cursor })).status).toBe(200);
      for (const sort of ['-last_name', 'first_name', 'created_at', 'last_name,first_name', 'age']) {
        const res = await list({ sort, limit: '10', cursor });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('invalid_parameter');
        expect(res.body.errors).toEqual([expect.objectContaining({ field: 'cursor' })]);
      }
      // Omitting sort means the default sort (created_at), not the cursor's.
      const res = await list({ limit: '10', cursor });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_parameter');
    });

    it('a cursor with another limit is fine: the limit is not part of it', async () => {
      const first = await list({ sort: 'first_name', limit: '100' });
      const a = await list({ sort: 'first_name', limit: '50', cursor: first.body.next_cursor! });
      const b = await list({ sort: 'first_name', limit: '250', cursor: first.body.next_cursor! });
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(b.body.data.slice(0, 50).map((m) => m.id)).toEqual(a.body.data.map((m) => m.id));
    });

    it.each(['garbage', 'bm90IGpzb24', 'W10', '%%%', 'eyJ'])(
      'a garbage cursor %j is a 400 invalid_parameter',
      async (cursor) => {
        const res = await list({ cursor });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('invalid_parameter');
        expect(res.body.errors).toEqual([expect.objectContaining({ field: 'cursor' })]);
      },
    );

    it.each([
      ['created_at', ['not-a-date'], '0192f0c1-a2b3-7c4d-8e9f-0a1b2c3d4e5f'],
      ['created_at', [12345], '0192f0c1-a2b3-7c4d-8e9f-0a1b2c3d4e5f'],
      ['age', ['1980-02-30'], '0192f0c1-a2b3-7c4d-8e9f-0a1b2c3d4e5f'],
      ['age', [7], '0192f0c1-a2b3-7c4d-8e9f-0a1b2c3d4e5f'],
      ['last_name', ['Garcia'], '------------------------------------'],
      ['last_name', ['Garcia'], 'ffffffff-ffff-ffff-ffff-fffffffffff-'],
    ])('a forged cursor %j %j %j is a 400, never a 500', async (sort, values, id) => {
      const cursor = Buffer.from(JSON.stringify([sort, values, id])).toString('base64url');
      const res = await list({ sort, cursor });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_parameter');
    });
  });

  describe('EXPLAIN: every page query is an index scan', () => {
    /** The cursor that asks for page 3 (returned with page 2) of `sort`, through the API. */
    async function cursorFromPage2(sort: string): Promise<{ cursor: string; page3: string[] }> {
      const page1 = await list({ sort, limit: String(LIMIT) });
      const page2 = await list({ sort, limit: String(LIMIT), cursor: page1.body.next_cursor! });
      const cursor = page2.body.next_cursor!;
      const page3 = await list({ sort, limit: String(LIMIT), cursor });
      return { cursor, page3: page3.body.data.map((m) => m.id) };
    }

    /**
     * Runs the repository's page query (MembersRepository.list: the live rows of the tenant, then
     * fetchPage) in a tenant transaction, then EXPLAINs exactly the SQL and parameters that the
     * query builder executed.
     */
    async function explain(sort: string, cursor: string | null, analyze = false) {
      return inTenant(api, church.id, async () => {
        const { manager, tenantId } = TenantContext.current();
        const qb = manager
          .getRepository(MemberEntity)
          .createQueryBuilder('m')
          .where('m.tenant_id = :tenantId AND m.deleted_at IS NULL', { tenantId });
        const params: Record<string, string> = { sort, limit: String(LIMIT) };
        if (cursor) params.cursor = cursor;
        const page = await fetchPage(qb, parseListQuery(params, MEMBER_LIST), MEMBER_LIST);
        const [sql, values] = qb.getQueryAndParameters();
        expect(sql).toMatch(/LIMIT 251/);
        const rows: { 'QUERY PLAN': { Plan: PlanNode }[] }[] = await manager.query(
          `EXPLAIN (${analyze ? 'ANALYZE, ' : ''}FORMAT JSON) ${sql}`,
          values,
        );
        return { sql, plan: rows[0]['QUERY PLAN'][0].Plan, ids: page.rows.map((r) => `mem_${r.id.replace(/-/g, '')}`) };
      });
    }

    function expectIndexPlan(plan: PlanNode, index: string) {
      const nodes = nodesOf(plan);
      const summary = nodes
        .map(
          (n) =>
            `${n['Node Type']}${n['Index Name'] ? ` using ${n['Index Name']}` : ''}${n['Relation Name'] ? ` on ${n['Relation Name']}` : ''}`,
        )
        .join(' > ');
      expect(
        nodes.filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'members').map(() => summary),
      ).toEqual([]);
      const scans = nodes.filter(
        (n) =>
          (n['Node Type'] === 'Index Scan' || n['Node Type'] === 'Index Only Scan') && n['Relation Name'] === 'members',
      );
      expect({ summary, indexes: scans.map((n) => n['Index Name']) }).toEqual({ summary, indexes: [index] });
      // The index delivers the order: no sort of the whole table for one page.
      expect({
        summary,
        sorts: nodes.filter((n) => n['Node Type'] === 'Sort' || n['Node Type'] === 'Incremental Sort').length,
      }).toEqual({ summary, sorts: 0 });
    }

    it.each([
      ['last_name', 'members_tenant_last_name_idx'],
      ['-created_at', 'members_tenant_created_idx'],
      ['age', 'members_tenant_birthdate_idx'],
      ['-age', 'members_tenant_birthdate_idx'],
      ['created_at', 'members_tenant_created_idx'],
      ['-first_name', 'members_tenant_first_name_idx'],
    ])('sort=%s with a cursor from page 2 uses %s', async (sort, index) => {
      const { cursor, page3 } = await cursorFromPage2(sort);
      const { plan, ids } = await explain(sort, cursor);
      // The query explained is the one the API ran: same rows as page 3 through HTTP.
      expect(ids).toEqual(page3);
      expectIndexPlan(plan, index);
    });

    it.each([
      ['last_name', 'members_tenant_last_name_idx'],
      ['-created_at', 'members_tenant_created_idx'],
      ['age', 'members_tenant_birthdate_idx'],
    ])('sort=%s, first page (no cursor) uses %s', async (sort, index) => {
      expectIndexPlan((await explain(sort, null)).plan, index);
    });

    it.each([
      ['last_name', 'last_name'],
      ['-created_at', 'created_at'],
    ])('sort=%s: the keyset condition is an index condition (the scan starts at the cursor)', async (sort, column) => {
      // A cursor deep in the list: if the keyset were only a filter the scan would read ~7,500 rows first.
      let cursor: string | null = null;
      for (let i = 0; i < 30; i++)
        cursor = (await list(cursor ? { sort, limit: String(LIMIT), cursor } : { sort, limit: String(LIMIT) })).body
          .next_cursor;
      const { plan } = await explain(sort, cursor, true);
      const scan = nodesOf(plan).find((n) => n['Relation Name'] === 'members')!;
      expect(scan['Index Cond']).toContain(column);
      expect(scan['Rows Removed by Filter'] ?? 0).toBeLessThan(LIMIT);
      expect(scan['Actual Rows']).toBeLessThanOrEqual(LIMIT + 1);
    });
  });

  describe('stable under inserts', () => {
    it('sort=created_at: members inserted while paging never make an original member repeat or go missing', async () => {
      const inserted: { id: string; createdAt: string; ahead: boolean }[] = [];
      const keys = keysOf('created_at');
      const publicId = (uuid: string) => `mem_${uuid.replace(/-/g, '')}`;

      const insertAt = async (createdAt: string, last: Member) => {
        const id = randomUUID();
        await inTenant(api, church.id, () =>
          TenantContext.current().manager.query(
            `INSERT INTO members (tenant_id, id, first_name, last_name, status, active, custom_fields, created_at, updated_at) VALUES ($1, $2, 'New', 'Member', 'visitor', true, '{}', $3, now())`,
            [church.id, id, createdAt],
          ),
        );
        const row = {
          id: publicId(id),
          created_at: createdAt,
          first_name: 'New',
          last_name: 'Member',
          birthdate: null,
        };
        inserted.push({ id: row.id, createdAt, ahead: compare(keys, last, row) < 0 });
      };

      const { members, totals } = await pageAll('created_at', async (page, index) => {
        if (!page.next_cursor) return;
        const last = page.data[page.data.length - 1];
        // Behind the cursor (before everything), ahead of it (after everything), exactly tied with
        // the last row's created_at (ahead or behind by id), and one more through the API (now).
        await insertAt('2023-06-01T00:00:00.000Z', last);
        await insertAt('2030-01-01T00:00:00.000Z', last);
        await insertAt(last.created_at, last);
        await insertAt(new Date(Date.parse(last.created_at) + 1).toISOString(), last);
        if (index % 10 === 0) {
          const res = await api.post<{ id: string }>('/v1/members', {
            ...auth(),
            body: { first_name: 'Api', last_name: 'Member' },
          });
          expect(res.status).toBe(201);
          inserted.push({ id: res.body.id, createdAt: 'now', ahead: true });
        }
      });

      const seen = members.map((m) => m.id);
      const originals = seen.filter((id) => allIds.has(id));
      expect(originals.length - new Set(originals).size).toBe(0);
      const originalSet = new Set(originals);
      expect([...allIds].filter((id) => !originalSet.has(id))).toEqual([]);
      expect(new Set(seen).size).toBe(seen.length);

      // Keyset semantics: rows inserted ahead of the cursor are reached, rows behind it are not.
      const seenSet = new Set(seen);
      expect(inserted.filter((r) => r.ahead && !seenSet.has(r.id))).toEqual([]);
      expect(inserted.filter((r) => !r.ahead && seenSet.has(r.id))).toEqual([]);
      expect(inserted.length).toBeGreaterThan(100);

      for (let i = 1; i < members.length; i++) expect(compare(keys, members[i - 1], members[i])).toBeLessThan(0);
      // total is the live count at each request: it grows as members are inserted.
      expect(totals[0]).toBe(MEMBERS);
      for (let i = 1; i < totals.length; i++) expect(totals[i]).toBeGreaterThan(totals[i - 1]);
    });
  });
});
