import { randomUUID } from 'node:crypto';
import { APP_ROLE } from '../../src/database/app-role';
import { jsonLiteral, uuidArrayLiteral } from '../../src/database/sql-literal';
import { PREPARED } from '../../src/platform/outbox/delivery/delivery-book';
import { TestApi } from '../support/api';
import { newTenant, TestTenant } from '../support/factories';

/**
 * The worker's booking statements are prepared once per connection and then run on their cached,
 * generic plan: that plan must reach deliveries through an index, not scan the table.
 */
describe('DeliveryBook statements', () => {
  let api: TestApi;
  let church: TestTenant;
  const endpointId = randomUUID();
  const deliveries = Array.from({ length: 3000 }, () => ({ id: randomUUID(), event: randomUUID() }));

  beforeAll(async () => {
    api = await TestApi.start();
    church = await newTenant(api);
    const q = (sql: string, params: unknown[]) => api.db.platform.query(sql, params);
    await q(
      `INSERT INTO webhook_endpoints (tenant_id, id, url, description, events, secret_sealed) VALUES ($1, $2, 'https://example.org/hook', 'plan', '{member.created}', '\\x01')`,
      [church.id, endpointId],
    );
    await q(
      `INSERT INTO webhook_events (tenant_id, id, type, payload) SELECT $1, e, 'member.created', '{"id":"evt_x"}' FROM unnest($2::uuid[]) e`,
      [church.id, deliveries.map((d) => d.event)],
    );
    await q(
      `INSERT INTO webhook_deliveries (tenant_id, id, endpoint_id, event_id, next_attempt_at) SELECT $1, d.id, $2, d.event, now() FROM unnest($3::uuid[], $4::uuid[]) AS d(id, event)`,
      [church.id, endpointId, deliveries.map((d) => d.id), deliveries.map((d) => d.event)],
    );
    await api.db.platform.query('ANALYZE webhook_deliveries, webhook_events, webhook_endpoints');
  });
  afterAll(async () => {
    await api.db.platform.query('DELETE FROM webhook_attempts WHERE tenant_id = $1', [church.id]);
    await api.db.platform.query('DELETE FROM webhook_endpoints WHERE tenant_id = $1', [church.id]);
    await api.db.platform.query('DELETE FROM webhook_events WHERE tenant_id = $1', [church.id]);
    await api.close();
  });

  const sample = deliveries.slice(0, 3);
  const args: Record<string, [unknown[], string[]]> = {
    webhook_claim: [sample.map((d) => ({ id: d.id, attempts: 0, lease_s: 21 })), sample.map((d) => d.id)],
    webhook_record: [
      sample.map((d) => ({
        delivery_id: d.id,
        attempt_id: randomUUID(),
        attempt: 1,
        status_code: 200,
        duration_ms: 3,
        error: null,
        status: 'succeeded',
        delay_ms: 0,
      })),
      sample.map((d) => d.id),
    ],
    webhook_release: [sample.map((d) => ({ id: d.id, attempts: 0 })), sample.map((d) => d.id)],
    webhook_disable: [[{ id: endpointId, reason: 'retries exhausted' }], [endpointId]],
    webhook_health: [[{ id: endpointId, failures: 1, succeeded: false, gives_up_at: new Date() }], [endpointId]],
  };

  it("writing events, deliveries and attempts takes no lock on the church's tenants row", async () => {
    // A foreign key to tenants would make every row lock it (FOR KEY SHARE): a bulk's 500 events,
    // and every attempt of the worker, queued on that one row. Held FOR UPDATE here, it must not wait.
    const holder = api.db.dataSource.createQueryRunner();
    await holder.connect();
    try {
      await holder.startTransaction();
      await holder.query('SELECT 1 FROM tenants WHERE id = $1 FOR UPDATE', [church.id]);
      const [d] = deliveries.slice(-1);
      const eventId = randomUUID();
      const deliveryId = randomUUID();
      await api.db.dataSource.transaction(async (m) => {
        await m.query(`SELECT set_config('lock_timeout', '2s', true)`);
        await m.query(
          `INSERT INTO webhook_events (tenant_id, id, type, payload) VALUES ($1, $2, 'member.created', '{"id":"evt_y"}')`,
          [church.id, eventId],
        );
        await m.query(
          `INSERT INTO webhook_deliveries (tenant_id, id, endpoint_id, event_id, next_attempt_at) VALUES ($1, $2, $3, $4, now())`,
          [church.id, deliveryId, endpointId, eventId],
        );
        await m.query(
          `INSERT INTO webhook_attempts (tenant_id, id, delivery_id, endpoint_id, event_id, attempt, duration_ms) VALUES ($1, $2, $3, $4, $5, 1, 3)`,
          [church.id, randomUUID(), d.id, endpointId, d.event],
        );
      });
    } finally {
      await holder.rollbackTransaction();
      await holder.release();
    }
  });

  it('a claim, and letting it go, update the delivery in place (HOT: no index changes); the lease keeps it from a second claim', async () => {
    const fresh = Array.from({ length: 3 }, () => ({ id: randomUUID(), event: randomUUID() }));
    await api.db.platform.query(
      `INSERT INTO webhook_events (tenant_id, id, type, payload) SELECT $1, e, 'member.created', '{"id":"evt_z"}' FROM unnest($2::uuid[]) e`,
      [church.id, fresh.map((d) => d.event)],
    );
    await api.db.platform.query(
      `INSERT INTO webhook_deliveries (tenant_id, id, endpoint_id, event_id, next_attempt_at) SELECT $1, d.id, $2, d.event, now() FROM unnest($3::uuid[], $4::uuid[]) AS d(id, event)`,
      [church.id, endpointId, fresh.map((d) => d.id), fresh.map((d) => d.event)],
    );
    const ids = fresh.map((d) => d.id);
    const claims = ids.map((id) => ({ id, attempts: 0, lease_s: 21 }));
    const counts = await api.db.dataSource.transaction(async (m) => {
      await m.query(`SELECT set_config('role', $1, true), set_config('app.tenant_id', $2, true)`, [
        APP_ROLE,
        church.id,
      ]);
      /** Rows the statement updated (TypeORM answers an UPDATE with [rows, count]). */
      const run = async (name: string, rows: unknown[]): Promise<number> => {
        await m.query(`PREPARE ${name} AS ${PREPARED[name]}`);
        try {
          const [, count] = await m.query<[unknown[], number]>(
            `EXECUTE ${name}('${church.id}', ${jsonLiteral(rows)}, ${uuidArrayLiteral(ids)})`,
          );
          return count;
        } finally {
          await m.query(`DEALLOCATE ${name}`);
        }
      };
      const first = await run('webhook_claim', claims);
      const again = await run('webhook_claim', claims); // leased: nothing to claim
      await run('webhook_release', claims);
      const afterRelease = await run('webhook_claim', claims); // due again at once
      const [stats] = await m.query<{ updated: string; hot: string }[]>(
        `SELECT pg_stat_get_xact_tuples_updated('webhook_deliveries'::regclass) AS updated,
                pg_stat_get_xact_tuples_hot_updated('webhook_deliveries'::regclass) AS hot`,
      );
      return { first, again, afterRelease, ...stats };
    });
    expect(counts).toEqual({ first: 3, again: 0, afterRelease: 3, updated: '9', hot: '9' });
  });

  it.each(Object.keys(PREPARED))('%s keeps an index plan when cached (generic plan)', async (name) => {
    const plan = await api.db.dataSource.transaction(async (m) => {
      await m.query(
        `SELECT set_config('role', $1, true), set_config('app.tenant_id', $2, true), set_config('plan_cache_mode', 'force_generic_plan', true)`,
        [APP_ROLE, church.id],
      );
      await m.query(`PREPARE ${name} AS ${PREPARED[name]}`);
      try {
        const [rows, ids] = args[name];
        const out: { 'QUERY PLAN': string }[] = await m.query(
          `EXPLAIN EXECUTE ${name}('${church.id}', ${jsonLiteral(rows)}, ${uuidArrayLiteral(ids)})`,
        );
        return out.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        await m.query(`DEALLOCATE ${name}`);
      }
    });
    // Which index depends on the statistics (the primary key, or the endpoint's index when the
    // church has few deliveries per endpoint); a scan of the whole table is never acceptable.
    expect(plan).not.toMatch(/Seq Scan on webhook_(deliveries|events)/);
    if (name !== 'webhook_disable' && name !== 'webhook_health')
      expect(plan).toMatch(/Index Scan using webhook_deliveries_\w+ on webhook_deliveries/);
  });
});
