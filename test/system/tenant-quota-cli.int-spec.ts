import { TestApi } from '../support/api';
import { newTenant } from '../support/factories';
import { runCli } from '../support/processes';

describe('CLI tenant:quota', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api.close());

  it('changes the plan and raises quotas until a date; the limiter follows; --clear ends the raise', async () => {
    const church = await newTenant(api, { plan: 'starter' });
    const limit = async () =>
      (await api.get('/v1/members', { token: church.token, tenant: church.slug })).headers['x-ratelimit-limit'];
    expect(await limit()).toBe('100');

    const plan = await runCli(['tenant:quota', '--slug', church.slug, '--plan', 'growth', '--json']);
    expect(plan.code).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject({
      plan: 'growth',
      requests_per_minute: 600,
      burst: 1000,
      raised_until: null,
    });
    expect(await limit()).toBe('1000');

    const until = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const raise = await runCli([
      'tenant:quota',
      '--slug',
      church.slug,
      '--rpm',
      '1200',
      '--burst',
      '2500',
      '--until',
      until,
      '--json',
    ]);
    expect(raise.code).toBe(0);
    expect(JSON.parse(raise.stdout)).toMatchObject({
      requests_per_minute: 1200,
      burst: 2500,
      requests_per_day: 500000,
    });
    expect(await limit()).toBe('2500');

    expect((await runCli(['tenant:quota', '--slug', church.slug, '--clear'])).code).toBe(0);
    expect(await limit()).toBe('1000');
  });

  it('refuses bad input with a message and a non-zero exit', async () => {
    const church = await newTenant(api, { plan: 'starter' });
    const cases: [string[], RegExp][] = [
      [['tenant:quota', '--slug', church.slug, '--rpm', '100'], /--until/],
      [['tenant:quota', '--slug', church.slug, '--rpm', '100', '--until', '2001-01-01'], /future/],
      [['tenant:quota', '--slug', church.slug, '--rpm', 'many', '--until', '2999-01-01'], /positive integer/],
      [['tenant:quota', '--slug', church.slug, '--plan', 'platinum'], /--plan/],
      [['tenant:quota', '--slug', church.slug], /nothing to change/],
      [['tenant:quota', '--slug', 'no-such-church', '--plan', 'growth'], /not_found|No church/],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(message);
    }
  });
});
