import { ANONYMOUS_QUOTA } from '../../src/platform/rate-limit/anonymous-limiter';
import { TestApi } from '../support/api';
import { newTenant } from '../support/factories';

/** Refusals before a church is known (400 missing_tenant, 401) draw from a per-address bucket too. */
describe('rate limits before authentication', () => {
  let api: TestApi;
  beforeAll(async () => {
    delete process.env.REDIS_URL;
    api = await TestApi.start();
  });
  afterAll(() => api.close());

  it('a 401 and a 400 carry the rate-limit headers of the anonymous bucket', async () => {
    const unauthorized = await api.get('/v1/members', { tenant: 'any-church' });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers['x-ratelimit-bucket']).toBe('anonymous');
    expect(unauthorized.headers['x-ratelimit-limit']).toBe(String(ANONYMOUS_QUOTA.limit));
    expect(unauthorized.headers['ratelimit-policy']).toContain('"anonymous"');
    const missingTenant = await api.get('/v1/members');
    expect(missingTenant.status).toBe(400);
    expect(Number(missingTenant.headers['x-ratelimit-remaining'])).toBe(
      Number(unauthorized.headers['x-ratelimit-remaining']) - 1,
    );
  });

  it('past the quota, guessing gets 429 with Retry-After; a valid token of a church is not affected', async () => {
    const church = await newTenant(api);
    let last = await api.get('/v1/members', { tenant: 'any-church', token: 'chp_guess' });
    // The window is aligned to the minute: should one start during the loop, the count restarts, so allow two quotas' worth.
    for (let i = 0; i < 2 * ANONYMOUS_QUOTA.limit && last.status !== 429; i++)
      last = await api.get('/v1/members', { tenant: 'any-church', token: 'chp_guess' });
    expect(last.status).toBe(429);
    expect((last.body as { code: string }).code).toBe('rate_limited');
    expect(Number(last.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await api.get('/v1/members', { token: church.token, tenant: church.slug })).status).toBe(200);
  });
});
