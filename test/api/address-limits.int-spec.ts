import { ANONYMOUS_QUOTA } from '../../src/platform/rate-limit/address-limiter';
import { TestApi } from '../support/api';
import { newTenant } from '../support/factories';

/**
 * Requests no church is known for draw from buckets per client address: refusals before
 * authentication (400 missing_tenant, 401), and the public routes (PUBLIC_RATE_LIMIT, IPv6 by /64).
 * TRUST_PROXY lets the tests name the client with X-Forwarded-For.
 */
describe('rate limits per client address', () => {
  let api: TestApi;
  beforeAll(async () => {
    delete process.env.REDIS_URL;
    api = await TestApi.start({ PUBLIC_RATE_LIMIT: '5', TRUST_PROXY: 'true' });
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

  describe('public routes', () => {
    const from = (address: string) => ({ headers: { 'X-Forwarded-For': address } });
    const metadata = (address: string) => api.get('/.well-known/oauth-authorization-server', from(address));

    /** Calls until refused (at most two quotas' worth: a minute may turn meanwhile); the last answer. */
    async function exhaust(address: string) {
      let last = await metadata(address);
      for (let i = 0; i < 10 && last.status !== 429; i++) last = await metadata(address);
      return last;
    }

    it('answer PUBLIC_RATE_LIMIT a minute per address with the usual headers, then 429 with Retry-After', async () => {
      const first = await metadata('203.0.113.7');
      expect(first.status).toBe(200);
      expect(first.headers['x-ratelimit-bucket']).toBe('public');
      expect(first.headers['x-ratelimit-limit']).toBe('5');
      expect(first.headers['ratelimit-policy']).toBe('"public";q=5;w=60;pk=ip');
      const refused = await exhaust('203.0.113.7');
      expect(refused.status).toBe(429);
      expect((refused.body as { code: string }).code).toBe('rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await api.get('/v1/openapi.json', from('203.0.113.7'))).status).toBe(429);
      expect((await metadata('203.0.113.8')).status).toBe(200);
    });

    it('count an IPv6 client by its /64', async () => {
      expect((await exhaust('2001:db8:1:2::1')).status).toBe(429);
      expect((await metadata('2001:db8:1:2:ffff:ffff:ffff:9')).status).toBe(429);
      expect((await metadata('2001:db8:1:3::1')).status).toBe(200);
    });

    it('leave out the health check and the processor webhooks (not per-address clients)', async () => {
      expect((await exhaust('198.51.100.4')).status).toBe(429);
      for (let i = 0; i < 8; i++) expect((await api.get('/healthz', from('198.51.100.4'))).status).toBe(200);
      const processor = await api.post('/v1/webhooks/payments/no-such-church', { ...from('198.51.100.4'), body: {} });
      expect(processor.status).not.toBe(429);
    });
  });
});
