import { ServerProcess, startServer } from '../support/processes';
import { TcpProxy } from '../support/tcp-proxy';
import { TEST_REDIS_URL } from '../support/test-env';
import { waitFor } from '../support/wait';

/**
 * What operators watch (CONTRACT §22): readiness. Judged from outside, against `node dist/main.js`
 * as deployed (with Redis); a second API behind a TCP proxy loses its database.
 */

describe('operations: /readyz', () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServer({
      env: { ...process.env, REDIS_URL: TEST_REDIS_URL },
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('/readyz answers ready when PostgreSQL and Redis answer', async () => {
    const res = await fetch(`${server.baseUrl}/readyz`);
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: 'ok', redis: 'ok' } },
    });
  });

  describe('an API that loses its database', () => {
    let proxy: TcpProxy;
    let lonely: ServerProcess;

    beforeAll(async () => {
      const url = new URL(process.env.DATABASE_URL!);
      proxy = await TcpProxy.start({ host: url.hostname, port: Number(url.port || 5432) });
      lonely = await startServer({
        env: {
          ...process.env,
          DATABASE_URL: proxy.url(process.env.DATABASE_URL!),
          DB_MIGRATE_ON_START: 'false',
          REDIS_URL: undefined,
        },
      });
    });

    afterAll(async () => {
      await lonely?.stop();
      proxy?.close();
    });

    it('/readyz is 503 naming the database while it cannot be reached, 200 once it can', async () => {
      const up = await fetch(`${lonely.baseUrl}/readyz`);
      expect({ status: up.status, body: await up.json() }).toEqual({
        status: 200,
        body: { status: 'ready', checks: { database: 'ok', redis: 'disabled' } },
      });

      proxy.refuse();
      proxy.cut();
      const down = await fetch(`${lonely.baseUrl}/readyz`);
      expect({ status: down.status, body: await down.json() }).toEqual({
        status: 503,
        body: { status: 'not_ready', checks: { database: 'failed', redis: 'disabled' } },
      });

      await proxy.accept();
      await waitFor(async () => (await fetch(`${lonely.baseUrl}/readyz`)).status === 200, {
        what: '/readyz 200 again',
        timeout: 10_000,
        interval: 50,
      });
    });
  });
});
