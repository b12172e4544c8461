import Redis from 'ioredis';
import { TestApi } from '../support/api';
import { newMembers, newTenant, TestTenant } from '../support/factories';
import { TEST_REDIS_URL } from '../support/test-env';

/** Exact totals come from a Redis cache keyed by the church's list version; every write bumps it. */
describe('list totals (cached, exact)', () => {
  let api: TestApi;
  let church: TestTenant;
  let redis: Redis;
  const list = async (query = '') =>
    (await api.get<{ total: number }>(`/v1/members${query}`, { token: church.token, tenant: church.slug })).body.total;

  beforeAll(async () => {
    api = await TestApi.start({ REDIS_URL: TEST_REDIS_URL });
    church = await newTenant(api);
    redis = new Redis(TEST_REDIS_URL);
    await newMembers(api, church, Array.from({ length: 30 }, (_, i) => ({ first_name: `M${i}`, last_name: 'Total', status: i % 3 === 0 ? 'leader' : 'member' })));
  });
  afterAll(async () => {
    redis.disconnect();
    await api.close();
    delete process.env.REDIS_URL;
  });

  it('serves the cached total while nothing changed (proved by planting a value)', async () => {
    expect(await list()).toBe(30);
    const version = (await redis.get(`totals:{${church.id}}:members:v`)) ?? '0';
    const hashKey = `totals:{${church.id}}:members:${version}`;
    const fields = await redis.hkeys(hashKey);
    expect(fields).toHaveLength(1);
    await redis.hset(hashKey, fields[0], '12345');
    expect(await list()).toBe(12345);
  });

  it('is exact right after a create, an update and a delete (read your writes)', async () => {
    const created = await api.post<{ id: string }>('/v1/members', { token: church.token, tenant: church.slug, body: { first_name: 'New', last_name: 'One', status: 'leader' } });
    expect(await list()).toBe(31);
    expect(await list('?status=leader')).toBe(11);
    await api.patch(`/v1/members/${created.body.id}`, { token: church.token, tenant: church.slug, body: { status: 'member' } });
    expect(await list('?status=leader')).toBe(10);
    await api.delete(`/v1/members/${created.body.id}`, { token: church.token, tenant: church.slug });
    expect(await list()).toBe(30);
  });

  it('keeps churches apart and falls back to counting when the cache is gone', async () => {
    const other = await newTenant(api);
    expect((await api.get<{ total: number }>('/v1/members', { token: other.token, tenant: other.slug })).body.total).toBe(0);
    await redis.del(`totals:{${church.id}}:members:v`);
    expect(await list()).toBe(30);
  });
});
