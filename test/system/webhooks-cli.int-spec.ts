import { TestApi } from '../support/api';
import { newMember, newTenant, newWebhookEndpoint, TestTenant } from '../support/factories';
import { runCli } from '../support/processes';
import { TestReceiver } from '../support/receiver';

/** CLI webhooks:resend and webhooks:backfill (CONTRACT §9): the same as the API, for staff. */
describe('CLI webhooks:resend and webhooks:backfill', () => {
  let api: TestApi;
  let receiver: TestReceiver;
  let church: TestTenant;
  let endpointId: string;
  const env = () => ({ ...process.env, WEBHOOK_ALLOW_LOOPBACK: 'true' });

  beforeAll(async () => {
    delete process.env.REDIS_URL;
    receiver = await TestReceiver.start();
    api = await TestApi.start({ WEBHOOK_ALLOW_LOOPBACK: 'true' });
    church = await newTenant(api);
    endpointId = (await newWebhookEndpoint(api, church, { url: receiver.url('/cli'), events: ['member.created'] })).id;
  });
  afterAll(async () => {
    await api.close();
    await receiver.close();
  });

  it('resends one event, and backfills a type over a date range', async () => {
    for (const name of ['Uno', 'Dos']) await newMember(api, church, { first_name: name, last_name: 'Cli' });
    await receiver.waitForCount('/cli', 2);
    const events = await api.get<{ data: { id: string }[] }>('/v1/webhook-events?type=member.created', {
      token: church.token,
      tenant: church.slug,
    });

    const resend = await runCli(
      [
        'webhooks:resend',
        '--tenant',
        church.slug,
        '--event',
        events.body.data[0].id,
        '--endpoint',
        endpointId,
        '--json',
      ],
      { env: env() },
    );
    expect(resend.code).toBe(0);
    expect((JSON.parse(resend.stdout) as { delivery_id: string }).delivery_id).toMatch(/^whd_[0-9a-f]{32}$/);
    const afterResend = await receiver.waitForCount('/cli', 3);
    expect(afterResend[2].headers['service-webhook-id']).toBe(events.body.data[0].id);

    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const backfill = await runCli(
      [
        'webhooks:backfill',
        '--tenant',
        church.slug,
        '--endpoint',
        endpointId,
        '--type',
        'member.created',
        '--from',
        from,
        '--to',
        to,
        '--json',
      ],
      { env: env() },
    );
    expect(backfill.code).toBe(0);
    expect(JSON.parse(backfill.stdout)).toEqual({ enqueued: 2 });
    await receiver.waitForCount('/cli', 5);
  });

  it('refuses unknown events, endpoints and types with a message', async () => {
    const cases: string[][] = [
      ['webhooks:resend', '--tenant', church.slug, '--event', 'evt_123', '--endpoint', endpointId],
      ['webhooks:resend', '--tenant', church.slug, '--event', `evt_${'0'.repeat(32)}`, '--endpoint', endpointId],
      [
        'webhooks:backfill',
        '--tenant',
        church.slug,
        '--endpoint',
        endpointId,
        '--type',
        'member.exploded',
        '--from',
        '2026-01-01',
        '--to',
        '2026-02-01',
      ],
      [
        'webhooks:backfill',
        '--tenant',
        church.slug,
        '--endpoint',
        `whe_${'0'.repeat(32)}`,
        '--type',
        'member.created',
        '--from',
        '2026-01-01',
        '--to',
        '2026-02-01',
      ],
    ];
    for (const args of cases) {
      const result = await runCli(args, { env: env() });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/error: /);
    }
  });
});
