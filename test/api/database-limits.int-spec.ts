import { TenantContext } from '../../src/common/context/tenant-context';
import { TestApi } from '../support/api';
import { newTenant, TestTenant } from '../support/factories';
import { TestReceiver } from '../support/receiver';
import { waitFor } from '../support/wait';

/**
 * No outbound call holds a database connection, and no session can sit on one: a pool of three,
 * ten webhook validations against a receiver that never answers, and the API still answers; the
 * sessions' statement and idle-in-transaction time-outs (CONTRACT §21).
 */
describe('database connections and outbound calls', () => {
  let api: TestApi;
  let church: TestTenant;
  let receiver: TestReceiver;
  const as = () => ({ token: church.token, tenant: church.slug });

  beforeAll(async () => {
    receiver = await TestReceiver.start();
    api = await TestApi.start({
      // The receiver stands in for the payment processor's API too (a slow one).
      PAYMENTS_API_URL: receiver.url(''),
      PUBLIC_URL: 'https://api.example.org',
      DB_POOL_SIZE: '3',
      DB_STATEMENT_TIMEOUT_MS: '1500',
      DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: '400',
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      WEBHOOK_TIMEOUT_MS: '3000',
    });
    church = await newTenant(api);
  });
  afterAll(async () => {
    await receiver.close();
    await api.close();
  });

  it('ten validations against a receiver that never answers hold no connection: the API answers meanwhile', async () => {
    receiver.answer('/webhooks/ping', { delayMs: 60_000 });
    const endpoint = await api.post<{ id: string }>('/v1/webhook-endpoints', {
      ...as(),
      body: { url: receiver.url('/hooks'), events: ['member.created'] },
    });
    expect(endpoint.status).toBe(201);

    const validations = Array.from({ length: 10 }, () =>
      api.post<{ ok: boolean; error: string | null }>(`/v1/webhook-endpoints/${endpoint.body.id}/validate`, as()),
    );
    // All ten are at the receiver at once: none waits for one of the pool's three connections.
    const pings = () => receiver.at('/webhooks/ping', 'GET').length;
    await waitFor(() => pings() === 10, {
      timeout: 2_500,
      interval: 20,
      what: () => `10 pings at once; got ${pings()}`,
    });
    const list = await api.get('/v1/members', as());
    expect(list.status).toBe(200);
    expect(pings()).toBe(10);

    for (const res of await Promise.all(validations)) {
      expect(res.status).toBe(200);
      expect(res.body.ok).toBe(false);
    }
    // Each validation is in the audit log, written in a transaction of its own.
    const [{ count }] = await api.db.platform.query<{ count: string }[]>(
      `SELECT count(*) FROM audit_log WHERE tenant_id = $1 AND action = 'endpoints.validate'`,
      [church.id],
    );
    expect(Number(count)).toBe(10);
  });

  it('connecting the payment processor holds no connection while the processor answers slowly', async () => {
    let made = 0;
    receiver.answer('/v1/webhook_endpoints', () => ({
      delayMs: 1_000,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        id: `we_${++made}`,
        object: 'webhook_endpoint',
        secret: `whsec_${made}`,
        status: 'enabled',
      }),
    }));
    const connect = () =>
      api.put<{ provider: string }>('/v1/settings/payment-processor', {
        ...as(),
        body: { provider: 'stripe', api_key: 'sk_test_0123456789abcdef' },
      });
    expect((await connect()).status).toBe(200);
    // Six reconnections at once: all six wait on the processor together, none on a connection or the row.
    const reconnections = Array.from({ length: 6 }, connect);
    const creates = () => receiver.at('/v1/webhook_endpoints').length;
    await waitFor(() => creates() === 7, {
      timeout: 900,
      interval: 20,
      what: () => `7 endpoint creations; got ${creates()}`,
    });
    expect((await api.get('/v1/members', as())).status).toBe(200);
    for (const res of await Promise.all(reconnections)) expect(res.status).toBe(200);
    // One connection is left, and every endpoint it replaced was deleted at the processor.
    const [{ count }] = await api.db.platform.query<{ count: number }[]>(
      'SELECT count(*)::int AS count FROM payment_processors WHERE tenant_id = $1',
      [church.id],
    );
    expect(count).toBe(1);
    expect(receiver.at('/v1/webhook_endpoints/we_1', 'DELETE')).toHaveLength(1);
  });

  it('sessions carry the statement and idle-in-transaction time-outs', async () => {
    const settings = await api.db.runInTenant({ tenantId: church.id, actor: { kind: 'cli' } }, async () => {
      const { manager } = TenantContext.current();
      return manager.query<{ s: string; i: string }[]>(
        `SELECT current_setting('statement_timeout') AS s, current_setting('idle_in_transaction_session_timeout') AS i`,
      );
    });
    expect(settings).toEqual([{ s: '1500ms', i: '400ms' }]);
  });

  it('a statement that runs past DB_STATEMENT_TIMEOUT_MS is canceled', async () => {
    const run = api.db.runInTenant({ tenantId: church.id, actor: { kind: 'cli' } }, async () => {
      await TenantContext.current().manager.query('SELECT pg_sleep(5)');
    });
    await expect(run).rejects.toMatchObject({ driverError: { code: '57014' } });
  });

  it('a transaction left idle past DB_IDLE_IN_TRANSACTION_TIMEOUT_MS loses its session (the API answers 503, not a hang)', async () => {
    const run = api.db.runInTenant({ tenantId: church.id, actor: { kind: 'cli' } }, async () => {
      const { manager } = TenantContext.current();
      await manager.query('SELECT 1');
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      await manager.query('SELECT 1');
    });
    await expect(run).rejects.toThrow();
    // The pool is whole afterwards.
    expect((await api.get('/v1/members', as())).status).toBe(200);
  });
});
