import { randomUUID } from 'node:crypto';
import { Call, TestApi } from '../support/api';
import { campusRef, newCampus, newMember, newMembers, newTenant, TestTenant } from '../support/factories';
import { clearRedisEnv, redisEnv, testRedis } from '../support/redis';
import { waitFor } from '../support/wait';
import type { RedisClient } from '../../src/platform/redis/redis-connection';
import type { CampusRef } from '../../src/modules/campuses/dto/campus.response';

/** Exact totals come from a Redis cache keyed by the church's list version; every write bumps it. */
describe('list totals (cached, exact)', () => {
  let api: TestApi;
  let church: TestTenant;
  let redis: RedisClient;
  const list = async (query = '') =>
    (await api.get<{ total: number }>(`/v1/members${query}`, { token: church.token, tenant: church.slug })).body.total;

  beforeAll(async () => {
    api = await TestApi.start(redisEnv());
    church = await newTenant(api);
    redis = testRedis();
    await newMembers(
      api,
      church,
      Array.from({ length: 30 }, (_, i) => ({
        first_name: `M${i}`,
        last_name: 'Total',
        status: i % 3 === 0 ? 'leader' : 'member',
      })),
    );
  });
  afterAll(async () => {
    redis.disconnect();
    await api.close();
    clearRedisEnv();
  });

  it('serves the cached total while nothing changed (proved by planting a value)', async () => {
    expect(await list()).toBe(30);
    const version = (await redis.get(`totals:{${church.id}}:members:v`)) ?? '0';
    const hashKey = `totals:{${church.id}}:members:${version}`;
    // The total is stored after the response, off the request's path.
    const fields = await waitFor(() => redis.hkeys(hashKey), {
      what: 'the stored total',
      until: (keys) => keys.length > 0,
    });
    expect(fields).toHaveLength(1);
    // Planted under a version this process has not seen (totals it has seen, it keeps in memory).
    const planted = `planted-${randomUUID()}`;
    await redis.hset(`totals:{${church.id}}:members:${planted}`, fields[0], '12345');
    await redis.set(`totals:{${church.id}}:members:v`, planted);
    expect(await list()).toBe(12345);
  });

  it('is exact right after a create, an update and a delete (read your writes)', async () => {
    const created = await api.post<{ id: string }>('/v1/members', {
      token: church.token,
      tenant: church.slug,
      body: { first_name: 'New', last_name: 'One', status: 'leader' },
    });
    expect(await list()).toBe(31);
    expect(await list('?status=leader')).toBe(11);
    await api.patch(`/v1/members/${created.body.id}`, {
      token: church.token,
      tenant: church.slug,
      body: { status: 'member' },
    });
    expect(await list('?status=leader')).toBe(10);
    await api.delete(`/v1/members/${created.body.id}`, { token: church.token, tenant: church.slug });
    expect(await list()).toBe(30);
  });

  it('keeps churches apart and falls back to counting when the cache is gone', async () => {
    const other = await newTenant(api);
    expect(
      (await api.get<{ total: number }>('/v1/members', { token: other.token, tenant: other.slug })).body.total,
    ).toBe(0);
    await redis.del(`totals:{${church.id}}:members:v`);
    expect(await list()).toBe(30);
  });

  it('answers If-None-Match from the list version alone: 304 with no query, and a new ETag after any write', async () => {
    const call = (headers: Record<string, string> = {}) =>
      api.get<{ total: number }>('/v1/members?sort=last_name&limit=10', {
        token: church.token,
        tenant: church.slug,
        headers,
      });
    const first = await call();
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"v[\w-]+"$/);
    // Rows changed behind the API's back (no version bump): a 304 proves the answer came from the version, not from SQL.
    await api.db.platform.query(`UPDATE members SET first_name = 'Hidden' WHERE tenant_id = $1`, [church.id]);
    const revalidated = await call({ 'If-None-Match': etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.etag).toBe(etag);
    expect(revalidated.text ?? '').toBe('');
    expect(revalidated.headers['x-ratelimit-bucket']).toBeDefined();
    // Another language is another representation.
    expect((await call({ 'If-None-Match': etag, 'Accept-Language': 'en' })).status).toBe(200);

    // A new campus does not change the member list; a member write does.
    await api.post('/v1/campuses', {
      token: church.token,
      tenant: church.slug,
      body: { key: 'etag-campus', name: 'Before' },
    });
    expect((await call({ 'If-None-Match': etag })).status).toBe(304);
    await api.post('/v1/members', {
      token: church.token,
      tenant: church.slug,
      body: { first_name: 'Nuevo', last_name: 'Total', campus: 'etag-campus' },
    });
    const afterWrite = await call({ 'If-None-Match': etag });
    expect(afterWrite.status).toBe(200);
    expect(afterWrite.headers.etag).not.toBe(etag);
    const campusRename = await api.get<{ data: { id: string }[] }>('/v1/campuses?key=etag-campus', {
      token: church.token,
      tenant: church.slug,
    });
    const beforeRename = (await call()).headers.etag;
    await api.patch(`/v1/campuses/${campusRename.body.data[0].id}`, {
      token: church.token,
      tenant: church.slug,
      body: { name: 'After' },
    });
    expect((await call({ 'If-None-Match': beforeRename })).status).toBe(200);
  });

  it('total=false skips the total', async () => {
    const res = await api.get<{ total: number | null; data: unknown[] }>('/v1/members?total=false&limit=5', {
      token: church.token,
      tenant: church.slug,
    });
    expect(res.status).toBe(200);
    expect(res.body.total).toBeNull();
    expect(res.body.data).toHaveLength(5);
    expect((await api.get('/v1/members?total=maybe', { token: church.token, tenant: church.slug })).status).toBe(400);
  });

  describe('campuses on member pages (cached per list version)', () => {
    let other: TestTenant;
    const as = (extra: Call = {}): Call => ({ token: other.token, tenant: other.slug, ...extra });
    const campusesOnPage = async (headers: Record<string, string> = {}) => {
      const res = await api.get<{ data: { id: string; campus: CampusRef | null }[] }>('/v1/members', as({ headers }));
      return {
        status: res.status,
        etag: res.headers.etag,
        campusOf: Object.fromEntries((res.body.data ?? []).map((m) => [m.id, m.campus])),
      };
    };

    beforeEach(async () => {
      other = await newTenant(api);
    });

    it('shows each member its campus or null, and a renamed campus on the next page with a new ETag', async () => {
      const north = await newCampus(api, other, { key: 'north', name: 'North' }).then(campusRef);
      const south = await newCampus(api, other, { key: 'south', name: 'South' }).then(campusRef);
      const ana = await newMember(api, other, { first_name: 'Ana', last_name: 'Norte', campus: 'north' }).then(
        (m) => m.id,
      );
      const beto = await newMember(api, other, { first_name: 'Beto', last_name: 'Sur', campus: 'south' }).then(
        (m) => m.id,
      );
      const carla = await newMember(api, other, { first_name: 'Carla', last_name: 'Nadie' }).then((m) => m.id);
      const before = await campusesOnPage();
      expect(before.campusOf).toEqual({ [ana]: north, [beto]: south, [carla]: null });

      expect((await api.patch(`/v1/campuses/${north.id}`, as({ body: { name: 'North Renamed' } }))).status).toBe(200);
      const after = await campusesOnPage({ 'If-None-Match': before.etag });
      expect(after.status).toBe(200);
      expect(after.etag).not.toBe(before.etag);
      expect(after.campusOf).toEqual({ [ana]: { ...north, name: 'North Renamed' }, [beto]: south, [carla]: null });
    });

    it('shows a campus created after a page was served, once a member joins it', async () => {
      await newMember(api, other, { first_name: 'Ana', last_name: 'Ruiz' });
      await campusesOnPage();
      const later = await newCampus(api, other, { key: 'later', name: 'Later' }).then(campusRef);
      const beto = await newMember(api, other, { first_name: 'Beto', last_name: 'Soto', campus: 'later' }).then(
        (m) => m.id,
      );
      expect((await campusesOnPage()).campusOf[beto]).toEqual(later);
    });
  });
});
