import { MigrationInterface, QueryRunner } from 'typeorm';
import { isolateTenantTable } from '../app-role';

/** The statuses whose gifts count (GIVEN_STATUSES; the migration keeps its own copy, as migrations must). */
const COUNTED = `('succeeded', 'partially_refunded', 'refunded')`;

/**
 * Adds `delta` (a SELECT of sign, tenant_id, received_at, fund_id, campus_id, currency, amount,
 * refunded_amount, status) to giving_days: one upsert per statement, its keys in one order (two
 * statements never wait on each other's rows crosswise), groups whose change is nil skipped (an
 * update of a note or a timestamp writes nothing).
 */
const apply = (delta: string, tenants: string) => `
    INSERT INTO giving_day_zones (tenant_id, timezone) SELECT DISTINCT tenant_id, 'UTC' FROM ${tenants} ON CONFLICT DO NOTHING;
    PERFORM 1 FROM giving_day_zones WHERE tenant_id IN (SELECT tenant_id FROM ${tenants}) ORDER BY tenant_id FOR KEY SHARE;
    INSERT INTO giving_days AS g (tenant_id, day, fund_id, campus_id, currency, count, amount, refunded)
    SELECT d.tenant_id, (d.received_at AT TIME ZONE z.timezone)::date, d.fund_id, d.campus_id, d.currency,
           sum(d.sign)::int, sum(d.sign * d.amount), sum(d.sign * d.refunded_amount)
      FROM (${delta}) d JOIN giving_day_zones z ON z.tenant_id = d.tenant_id
     WHERE d.status IN ${COUNTED}
     GROUP BY 1, 2, 3, 4, 5
    HAVING sum(d.sign) <> 0 OR sum(d.sign * d.amount) <> 0 OR sum(d.sign * d.refunded_amount) <> 0
     ORDER BY 1, 2, 3, 5, 4
    ON CONFLICT (tenant_id, day, fund_id, currency, campus_key)
    DO UPDATE SET count = g.count + EXCLUDED.count, amount = g.amount + EXCLUDED.amount, refunded = g.refunded + EXCLUDED.refunded;`;

const COLUMNS = 'tenant_id, received_at, fund_id, campus_id, currency, amount, refunded_amount, status';

/**
 * The giving report's rollup (issue 16): per church, local day, fund, campus and currency, the
 * count, amount and refunds of the gifts that count, so a giving report reads a few thousand rows
 * whatever the church's size. Triggers on donations keep it in the same transaction as every gift,
 * refund, batch commit and processor event, whichever code path writes them.
 *
 * Days are local to the church's report time zone, recorded in giving_day_zones. When the app's
 * zone for the church differs (its settings changed), the report calls giving_days_rebuild, which
 * takes the zone row FOR UPDATE: the triggers hold it FOR KEY SHARE, so a rebuild waits for the
 * gifts in flight and the gifts that follow wait for the rebuild, and none is counted twice or lost.
 */
export class CreateGivingDays1765000000000 implements MigrationInterface {
  name = 'CreateGivingDays1765000000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE giving_day_zones (
         tenant_id uuid PRIMARY KEY REFERENCES tenants (id),
         timezone text NOT NULL
       )`,
      ...isolateTenantTable('giving_day_zones'),
      `CREATE TABLE giving_days (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         day date NOT NULL,
         fund_id uuid NOT NULL,
         campus_id uuid,
         -- The key's stand-in for "no campus" (a primary key cannot hold a null).
         campus_key uuid GENERATED ALWAYS AS (COALESCE(campus_id, '00000000-0000-0000-0000-000000000000'::uuid)) STORED,
         currency text NOT NULL,
         count int NOT NULL,
         amount bigint NOT NULL,
         refunded bigint NOT NULL,
         PRIMARY KEY (tenant_id, day, fund_id, currency, campus_key)
       )`,
      ...isolateTenantTable('giving_days'),
      `CREATE FUNCTION giving_days_apply() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF TG_OP = 'INSERT' THEN
           ${apply(`SELECT 1 AS sign, ${COLUMNS} FROM new_rows`, 'new_rows')}
         ELSIF TG_OP = 'DELETE' THEN
           ${apply(`SELECT -1 AS sign, ${COLUMNS} FROM old_rows`, 'old_rows')}
         ELSE
           ${apply(`SELECT -1 AS sign, ${COLUMNS} FROM old_rows UNION ALL SELECT 1, ${COLUMNS} FROM new_rows`, 'new_rows')}
         END IF;
         RETURN NULL;
       END $$`,
      `CREATE TRIGGER giving_days_insert AFTER INSERT ON donations REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION giving_days_apply()`,
      `CREATE TRIGGER giving_days_update AFTER UPDATE ON donations REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION giving_days_apply()`,
      `CREATE TRIGGER giving_days_delete AFTER DELETE ON donations REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION giving_days_apply()`,
      // Recomputes one church's rollup from its donations with days local to `zone`, unless a rebuild
      // that held the lock before this one already did ('' marks a rollup never built).
      `CREATE FUNCTION giving_days_rebuild(church uuid, zone text) RETURNS void LANGUAGE plpgsql AS $$
       DECLARE
         built text;
       BEGIN
         INSERT INTO giving_day_zones (tenant_id, timezone) VALUES (church, '') ON CONFLICT DO NOTHING;
         SELECT timezone INTO built FROM giving_day_zones WHERE tenant_id = church FOR UPDATE;
         IF built = zone THEN RETURN; END IF;
         DELETE FROM giving_days WHERE tenant_id = church;
         INSERT INTO giving_days (tenant_id, day, fund_id, campus_id, currency, count, amount, refunded)
         SELECT church, (received_at AT TIME ZONE zone)::date, fund_id, campus_id, currency, count(*), sum(amount), sum(refunded_amount)
           FROM donations WHERE tenant_id = church AND status IN ${COUNTED}
          GROUP BY 2, 3, 4, 5;
         UPDATE giving_day_zones SET timezone = zone WHERE tenant_id = church;
       END $$`,
      `SELECT giving_days_rebuild(id, 'UTC') FROM tenants`,
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const op of ['insert', 'update', 'delete']) await q.query(`DROP TRIGGER IF EXISTS giving_days_${op} ON donations`);
    await q.query(`DROP FUNCTION IF EXISTS giving_days_apply()`);
    await q.query(`DROP FUNCTION IF EXISTS giving_days_rebuild(uuid, text)`);
    await q.query(`DROP TABLE IF EXISTS giving_days`);
    await q.query(`DROP TABLE IF EXISTS giving_day_zones`);
  }
}
