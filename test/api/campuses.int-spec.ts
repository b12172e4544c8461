import { JsonObject, TestApi } from '../support/api';
import { newCampus, newTenant, newToken, TestTenant } from '../support/factories';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import { sleep } from '../support/wait';
import { as, issuesOf, itRefusesBadListParams, qs } from '../support/http';
import type { CampusResponse as Campus } from '../../src/modules/campuses/dto/campus.response';

// ---------------------------------------------------------------------------------------------
// Types and small helpers
// ---------------------------------------------------------------------------------------------

const CAMPUS_ID = /^cmp_[0-9a-f]{32}$/;
const UTC_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function listCampuses(
  api: TestApi,
  church: TestTenant,
  params: Record<string, string> = {},
): Promise<List<Campus>> {
  const res = await api.get<List<Campus>>(`/v1/campuses${qs(params)}`, as(church));
  if (res.status !== 200) throw new Error(`list failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

// ---------------------------------------------------------------------------------------------

describe('campuses', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api.close());

  // -------------------------------------------------------------------------------------------
  describe('POST /v1/campuses', () => {
    let church: TestTenant;

    beforeAll(async () => {
      church = await newTenant(api);
    });

    it('creates a campus: 201, Location, cmp_ id, fields echoed', async () => {
      const before = Date.now();
      const res = await api.post<Campus>(
        '/v1/campuses',
        as(church, { body: { key: 'north', name: 'North Campus', timezone: 'America/Mexico_City' } }),
      );

      expect(res.status).toBe(201);
      expect(res.body.id).toMatch(CAMPUS_ID);
      expect(res.headers.location).toBe(`/v1/campuses/${res.body.id}`);
      expect(res.body).toEqual({
        id: res.body.id,
        key: 'north',
        name: 'North Campus',
        timezone: 'America/Mexico_City',
        created_at: expect.stringMatching(UTC_ISO),
        updated_at: expect.stringMatching(UTC_ISO),
      });
      expect(res.body.updated_at).toBe(res.body.created_at);
      expect(Date.parse(res.body.created_at)).toBeGreaterThanOrEqual(before - 1000);

      const fetched = await api.get<Campus>(res.headers.location, as(church));
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(res.body);
    });

    it('defaults timezone to null and trims the name', async () => {
      const campus = await newCampus(api, church, { key: 'online', name: '  Online  ' });
      expect(campus.timezone).toBeNull();
      expect(campus.name).toBe('Online');
    });

    it('refuses a duplicate key in the same church with 409 conflict (key duplicate)', async () => {
      await newCampus(api, church, { key: 'dup', name: 'First' });
      const res = await api.post<Problem>('/v1/campuses', as(church, { body: { key: 'dup', name: 'Second' } }));

      expect(res.status).toBe(409);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('conflict');
      expect(issuesOf(res.body)).toEqual([{ field: 'key', issue: 'duplicate' }]);

      const list = await listCampuses(api, church, { key: 'dup' });
      expect(list.data.map((c) => c.name)).toEqual(['First']);
      expect(list.total).toBe(1);
    });

    it('allows the same key in another church', async () => {
      const other = await newTenant(api);
      await newCampus(api, church, { key: 'shared', name: 'Ours' });
      const theirs = await api.post<Campus>('/v1/campuses', as(other, { body: { key: 'shared', name: 'Theirs' } }));
      expect(theirs.status).toBe(201);
      expect(theirs.body.name).toBe('Theirs');
      expect((await listCampuses(api, church, { key: 'shared' })).data.map((c) => c.name)).toEqual(['Ours']);
    });

    it('refuses a key that is not a slug with 422', async () => {
      for (const key of [
        'North Campus',
        'North',
        'north_campus',
        '-north',
        'north-',
        'ñorth',
        'a'.repeat(41),
        `cmp_${'0'.repeat(32)}`,
      ]) {
        const res = await api.post<Problem>('/v1/campuses', as(church, { body: { key, name: 'Bad' } }));
        expect({ key, status: res.status, code: res.body.code, errors: issuesOf(res.body) }).toEqual({
          key,
          status: 422,
          code: 'validation_failed',
          errors: [{ field: 'key', issue: 'invalid_format' }],
        });
      }
      for (const key of ['a', 'north-2', 'a'.repeat(40)]) {
        const ok = await api.post<Campus>('/v1/campuses', as(church, { body: { key, name: 'Good' } }));
        expect({ key, status: ok.status }).toEqual({ key, status: 201 });
      }
    });

    it('refuses an invalid time zone with 422', async () => {
      for (const timezone of ['Mars/Olympus_Mons', 'GMT+25', 'mexico']) {
        const res = await api.post<Problem>(
          '/v1/campuses',
          as(church, { body: { key: 'tz-bad', name: 'TZ', timezone } }),
        );
        expect({ timezone, status: res.status, code: res.body.code, errors: issuesOf(res.body) }).toEqual({
          timezone,
          status: 422,
          code: 'validation_failed',
          errors: [{ field: 'timezone', issue: 'invalid_format' }],
        });
      }
      expect((await listCampuses(api, church, { key: 'tz-bad' })).total).toBe(0);
    });

    it('requires key and name, and refuses unknown fields', async () => {
      const res = await api.post<Problem>('/v1/campuses', as(church, { body: { capacity: 300 } }));
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      const issues = issuesOf(res.body).sort((a, b) => a.field.localeCompare(b.field));
      expect(issues).toEqual([
        { field: 'capacity', issue: 'unknown_field' },
        { field: 'key', issue: 'required' },
        { field: 'name', issue: 'required' },
      ]);

      const long = await api.post<Problem>(
        '/v1/campuses',
        as(church, { body: { key: 'long', name: 'x'.repeat(121) } }),
      );
      expect(long.status).toBe(422);
      expect(issuesOf(long.body)).toEqual([{ field: 'name', issue: 'too_long' }]);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('GET /v1/campuses/{id}', () => {
    let church: TestTenant;
    let campus: Campus;

    beforeAll(async () => {
      church = await newTenant(api);
      campus = await newCampus(api, church, { key: 'central', name: 'Central Campus', timezone: 'America/Bogota' });
    });

    it('returns the campus with an ETag; If-None-Match answers 304', async () => {
      const res = await api.get<Campus>(`/v1/campuses/${campus.id}`, as(church));
      expect(res.status).toBe(200);
      expect(res.body).toEqual(campus);
      expect(res.headers.etag).toBeDefined();
      expect(res.headers['cache-control']).toContain('private');

      const again = await api.get(
        `/v1/campuses/${campus.id}`,
        as(church, { headers: { 'If-None-Match': res.headers.etag } }),
      );
      expect(again.status).toBe(304);
      expect(again.text ?? '').toBe('');
    });

    it('answers unknown and malformed ids with 404 resource_not_found', async () => {
      const hex = campus.id.slice(4);
      for (const id of [`cmp_${'0'.repeat(32)}`, 'cmp_123', `mem_${hex}`, `cmp_${hex.toUpperCase()}`, 'central']) {
        const res = await api.get<Problem>(`/v1/campuses/${id}`, as(church));
        expect({ id, status: res.status, code: res.body.code }).toEqual({
          id,
          status: 404,
          code: 'resource_not_found',
        });
      }
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('GET /v1/campuses', () => {
    let church: TestTenant;
    const c: Record<string, Campus> = {};

    beforeAll(async () => {
      church = await newTenant(api);
      c.north = await newCampus(api, church, { key: 'north', name: 'North Campus' });
      c.central = await newCampus(api, church, { key: 'central', name: 'Central Campus' });
      c.south = await newCampus(api, church, { key: 'south', name: 'South Campus' });
    });

    it('lists every campus of the church, oldest first by default', async () => {
      const list = await listCampuses(api, church);
      expect(list.data.map((x) => x.key)).toEqual(['north', 'central', 'south']);
      expect(list.total).toBe(3);
      expect(list.next_cursor).toBeNull();
      expect(list.data[0]).toEqual(c.north);
    });

    it('filters by key and key[in]', async () => {
      const one = await listCampuses(api, church, { key: 'central' });
      expect(one.data).toEqual([c.central]);
      expect(one.total).toBe(1);

      const two = await listCampuses(api, church, { 'key[in]': 'north,south' });
      expect(two.data.map((x) => x.key).sort()).toEqual(['north', 'south']);
      expect(two.total).toBe(2);

      const none = await listCampuses(api, church, { key: 'west' });
      expect(none).toEqual({ data: [], next_cursor: null, total: 0 });
    });

    it('sorts by name and -name', async () => {
      expect((await listCampuses(api, church, { sort: 'name' })).data.map((x) => x.name)).toEqual([
        'Central Campus',
        'North Campus',
        'South Campus',
      ]);
      expect((await listCampuses(api, church, { sort: '-name' })).data.map((x) => x.name)).toEqual([
        'South Campus',
        'North Campus',
        'Central Campus',
      ]);
    });

    it('pages with limit and cursor', async () => {
      const first = await listCampuses(api, church, { sort: 'name', limit: '2' });
      expect(first.data.map((x) => x.key)).toEqual(['central', 'north']);
      expect(first.total).toBe(3);
      expect(first.next_cursor).toEqual(expect.any(String));
      const second = await listCampuses(api, church, { sort: 'name', limit: '2', cursor: first.next_cursor! });
      expect(second.data.map((x) => x.key)).toEqual(['south']);
      expect(second.next_cursor).toBeNull();
    });

    itRefusesBadListParams(
      () => api,
      '/v1/campuses',
      () => as(church),
      [
        [{ name: 'North Campus' }, 'name'],
        [{ sort: 'key' }, 'sort'],
        [{ 'key[gt]': 'a' }, 'key[gt]'],
        [{ limit: '500' }, 'limit'],
      ],
    );
  });

  // -------------------------------------------------------------------------------------------
  describe('PATCH /v1/campuses/{id}', () => {
    let church: TestTenant;

    beforeAll(async () => {
      church = await newTenant(api);
    });

    it('changes the name only, and advances updated_at', async () => {
      const campus = await newCampus(api, church, { key: 'east', name: 'East', timezone: 'America/Lima' });
      await sleep(15);
      const res = await api.patch<Campus>(`/v1/campuses/${campus.id}`, as(church, { body: { name: 'East Campus' } }));

      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...campus, name: 'East Campus', updated_at: res.body.updated_at });
      expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(campus.updated_at));
      expect((await api.get<Campus>(`/v1/campuses/${campus.id}`, as(church))).body).toEqual(res.body);
    });

    it('changes the key; members then resolve the new key and show it', async () => {
      const campus = await newCampus(api, church, { key: 'old-key', name: 'Renamed' });
      const member = await api.post<{ id: string; campus: unknown }>(
        '/v1/members',
        as(church, { body: { first_name: 'A', last_name: 'B', campus: 'old-key' } }),
      );
      expect(member.status).toBe(201);

      const res = await api.patch<Campus>(`/v1/campuses/${campus.id}`, as(church, { body: { key: 'new-key' } }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: campus.id, key: 'new-key', name: 'Renamed' });

      expect((await listCampuses(api, church, { key: 'old-key' })).total).toBe(0);
      expect((await listCampuses(api, church, { key: 'new-key' })).data.map((x) => x.id)).toEqual([campus.id]);

      const fetched = await api.get<{ campus: unknown }>(`/v1/members/${member.body.id}`, as(church));
      expect(fetched.body.campus).toEqual({ id: campus.id, key: 'new-key', name: 'Renamed' });

      const byOld = await api.post<Problem>(
        '/v1/members',
        as(church, { body: { first_name: 'A', last_name: 'B', campus: 'old-key' } }),
      );
      expect(byOld.status).toBe(422);
      expect(issuesOf(byOld.body)).toEqual([{ field: 'campus', issue: 'not_found' }]);
    });

    it('refuses a key change to an existing key with 409 conflict, and changes nothing', async () => {
      await newCampus(api, church, { key: 'taken', name: 'Taken' });
      const campus = await newCampus(api, church, { key: 'mine', name: 'Mine' });
      const res = await api.patch<Problem>(
        `/v1/campuses/${campus.id}`,
        as(church, { body: { key: 'taken', name: 'Hijack' } }),
      );

      expect(res.status).toBe(409);
      expect(res.body.code).toBe('conflict');
      expect(issuesOf(res.body)).toEqual([{ field: 'key', issue: 'duplicate' }]);
      expect((await api.get<Campus>(`/v1/campuses/${campus.id}`, as(church))).body).toEqual(campus);
    });

    it('accepts its own key unchanged (no false conflict)', async () => {
      const campus = await newCampus(api, church, { key: 'same', name: 'Same' });
      const res = await api.patch<Campus>(
        `/v1/campuses/${campus.id}`,
        as(church, { body: { key: 'same', name: 'Same Again' } }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ key: 'same', name: 'Same Again' });
    });

    it('sets and clears the time zone; validates key, name and time zone', async () => {
      const campus = await newCampus(api, church, { key: 'tz', name: 'TZ' });
      const set = await api.patch<Campus>(
        `/v1/campuses/${campus.id}`,
        as(church, { body: { timezone: 'America/Santiago' } }),
      );
      expect(set.body.timezone).toBe('America/Santiago');
      const cleared = await api.patch<Campus>(`/v1/campuses/${campus.id}`, as(church, { body: { timezone: null } }));
      expect(cleared.status).toBe(200);
      expect(cleared.body.timezone).toBeNull();

      const cases: [JsonObject, { field: string; issue: string }][] = [
        [{ key: 'Bad Key' }, { field: 'key', issue: 'invalid_format' }],
        [{ timezone: 'Nowhere/Land' }, { field: 'timezone', issue: 'invalid_format' }],
        [{ name: null }, { field: 'name', issue: 'required' }],
        [{ key: null }, { field: 'key', issue: 'required' }],
        [{ color: 'red' }, { field: 'color', issue: 'unknown_field' }],
      ];
      for (const [body, issue] of cases) {
        const res = await api.patch<Problem>(`/v1/campuses/${campus.id}`, as(church, { body }));
        expect({ body, status: res.status, code: res.body.code, errors: issuesOf(res.body) }).toEqual({
          body,
          status: 422,
          code: 'validation_failed',
          errors: [issue],
        });
      }
      expect((await api.get<Campus>(`/v1/campuses/${campus.id}`, as(church))).body).toMatchObject({
        key: 'tz',
        name: 'TZ',
        timezone: null,
      });
    });

    it('answers 404 for an unknown or malformed id', async () => {
      for (const id of [`cmp_${'f'.repeat(32)}`, 'cmp_nope']) {
        const res = await api.patch<Problem>(`/v1/campuses/${id}`, as(church, { body: { name: 'X' } }));
        expect({ id, status: res.status, code: res.body.code }).toEqual({
          id,
          status: 404,
          code: 'resource_not_found',
        });
      }
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('tenant isolation', () => {
    let a: TestTenant;
    let b: TestTenant;
    let aCampus: Campus;

    beforeAll(async () => {
      a = await newTenant(api);
      b = await newTenant(api);
      aCampus = await newCampus(api, a, { key: 'a-only', name: 'A Only' });
      await newCampus(api, b, { key: 'b-only', name: 'B Only' });
    });

    it("answers 404 to another church's campus on GET and PATCH", async () => {
      const get = await api.get<Problem>(`/v1/campuses/${aCampus.id}`, as(b));
      expect([get.status, get.body.code]).toEqual([404, 'resource_not_found']);
      const patch = await api.patch<Problem>(`/v1/campuses/${aCampus.id}`, as(b, { body: { name: 'Hijacked' } }));
      expect([patch.status, patch.body.code]).toEqual([404, 'resource_not_found']);
      expect((await api.get<Campus>(`/v1/campuses/${aCampus.id}`, as(a))).body).toEqual(aCampus);
    });

    it("does not list another church's campuses", async () => {
      const list = await listCampuses(api, b);
      expect(list.data.map((x) => x.key)).toEqual(['b-only']);
      expect(list.total).toBe(1);
      expect((await listCampuses(api, b, { key: 'a-only' })).total).toBe(0);
    });

    it("refuses A's token with B's X-Tenant (403 tenant_forbidden)", async () => {
      const res = await api.get<Problem>('/v1/campuses', { token: a.token, tenant: b.slug });
      expect([res.status, res.body.code]).toEqual([403, 'tenant_forbidden']);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('scopes', () => {
    let church: TestTenant;
    let campus: Campus;

    beforeAll(async () => {
      church = await newTenant(api);
      campus = await newCampus(api, church, { key: 'scoped', name: 'Scoped' });
    });

    it('read:campuses can read but not create or update (403 naming write:campuses)', async () => {
      const { token } = await newToken(api, church, ['read:campuses']);
      const list = await api.get<List<Campus>>('/v1/campuses', { token, tenant: church.slug });
      expect(list.status).toBe(200);
      expect(list.body.data.map((x: Campus) => x.id)).toEqual([campus.id]);
      expect((await api.get(`/v1/campuses/${campus.id}`, { token, tenant: church.slug })).status).toBe(200);

      const post = await api.post<Problem>('/v1/campuses', {
        token,
        tenant: church.slug,
        body: { key: 'nope', name: 'Nope' },
      });
      expect(post.status).toBe(403);
      expect(post.body.code).toBe('scope_insufficient');
      expect(post.body.detail).toContain('write:campuses');
      expect(post.headers['www-authenticate']).toContain('insufficient_scope');
      expect(post.headers['www-authenticate']).toContain('scope="write:campuses"');

      const patch = await api.patch<Problem>(`/v1/campuses/${campus.id}`, {
        token,
        tenant: church.slug,
        body: { name: 'Nope' },
      });
      expect([patch.status, patch.body.code]).toEqual([403, 'scope_insufficient']);
      expect((await listCampuses(api, church)).data.map((x) => x.name)).toEqual(['Scoped']);
    });

    it('write:campuses can create but not read (403 naming read:campuses)', async () => {
      const { token } = await newToken(api, church, ['write:campuses']);
      const created = await api.post<Campus>('/v1/campuses', {
        token,
        tenant: church.slug,
        body: { key: 'writer', name: 'Writer' },
      });
      expect(created.status).toBe(201);

      const list = await api.get<Problem>('/v1/campuses', { token, tenant: church.slug });
      expect(list.status).toBe(403);
      expect(list.body.code).toBe('scope_insufficient');
      expect(list.body.detail).toContain('read:campuses');
      expect(list.headers['www-authenticate']).toContain('scope="read:campuses"');
      const get = await api.get<Problem>(`/v1/campuses/${campus.id}`, { token, tenant: church.slug });
      expect([get.status, get.body.code]).toEqual([403, 'scope_insufficient']);
    });

    it('members scopes do not grant campuses', async () => {
      const { token } = await newToken(api, church, ['read:members', 'write:members']);
      const res = await api.get<Problem>('/v1/campuses', { token, tenant: church.slug });
      expect([res.status, res.body.code]).toEqual([403, 'scope_insufficient']);
    });
  });
});
