import { Client } from 'pg';
import { TestApi } from '../support/api';
import { newTenant, newToken, TestTenant } from '../support/factories';

/**
 * Reports wait their turn without a database connection (REPORTS_CONCURRENCY, issue 16): with one
 * report at a time and a pool of 3, five reports stuck behind a table lock leave the pool to other
 * routes, and all five answer once the lock goes. Without the gate the queued reports would each
 * hold a connection and a members list would wait for one (then 503).
 */
describe('reports gate', () => {
  let api: TestApi;
  let church: TestTenant;
  const saved = { REPORTS_CONCURRENCY: process.env.REPORTS_CONCURRENCY, DB_POOL_SIZE: process.env.DB_POOL_SIZE };

  beforeAll(async () => {
    api = await TestApi.start({ REPORTS_CONCURRENCY: '1', DB_POOL_SIZE: '3' });
    church = await newTenant(api);
  });

  afterAll(async () => {
    await api?.close();
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  /** The API's backends waiting on a lock now. */
  async function waitingOnLock(): Promise<number> {
    const [row] = await api.db.platform.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'church-api' AND wait_event_type = 'Lock'`,
    );
    return row.n;
  }

  it('five reports behind a lock hold one connection; a members list answers meanwhile; then all five answer', async () => {
    const tokens = await Promise.all(
      Array.from({ length: 5 }, () => newToken(api, church, ['read:reports'], 'finance')),
    );
    const reader = await newToken(api, church, ['read:members'], 'staff');
    // Every report but groups reads the church's time zone from statement_settings first; giving comes first.
    const locker = new Client({ connectionString: process.env.DATABASE_URL });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE statement_settings IN ACCESS EXCLUSIVE MODE');
      // One of each report: the gate is the controller's, shared by its routes.
      const paths = ['giving', 'giving/donors', 'attendance', 'growth', 'groups'];
      const reports = tokens.map(({ token }, i) => api.get(`/v1/reports/${paths[i]}`, { token, tenant: church.slug }));
      // Wait until one report is blocked on the lock inside its transaction.
      for (let i = 0; i < 200 && (await waitingOnLock()) < 1; i++) await new Promise((r) => setImmediate(r));
      expect(await waitingOnLock()).toBe(1);

      const members = await api.get('/v1/members?limit=1', { token: reader.token, tenant: church.slug });
      expect(members.status).toBe(200);
      expect(await waitingOnLock()).toBe(1); // the four others wait in the gate, not in the database

      await locker.query('COMMIT');
      const answers = await Promise.all(reports);
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    } finally {
      await locker.end();
    }
  });
});
