import { MigrationInterface, QueryRunner } from 'typeorm';
import { isolateTenantTable } from '../app-role';

/** The statuses whose gifts count (GIVEN_STATUSES; the migration keeps its own copy, as migrations must). */
const COUNTED = `('succeeded', 'partially_refunded', 'refunded')`;

/** The rollup's columns after tenant_id: its key, then the sums. */
const ROLLUP = 'day, fund_id, campus_id, currency, count, amount, refunded';

/**
 * Appends `delta` (a SELECT of sign, tenant_id, received_at, fund_id, campus_id, currency, amount,
 * refunded_amount, status) to giving_day_changes, summed per key for the statement (a batch commit
 * of 500 gifts on one day and fund is one row), groups whose change is nil skipped (an update of a
 * note or a timestamp writes nothing). Appending locks nothing that another write waits for.
 */
const record = (delta: string, tenants: string) => `
    INSERT INTO giving_day_zones (tenant_id, timezone) SELECT DISTINCT tenant_id, 'UTC' FROM ${tenants} ON CONFLICT DO NOTHING;
    PERFORM 1 FROM giving_day_zones WHERE tenant_id IN (SELECT tenant_id FROM ${tenants}) ORDER BY tenant_id FOR KEY SHARE;
    INSERT INTO giving_day_changes (tenant_id, ${ROLLUP})
    SELECT d.tenant_id, (d.received_at AT TIME ZONE z.timezone)::date, d.fund_id, d.campus_id, d.currency,
           sum(d.sign)::int, sum(d.sign * d.amount), sum(d.sign * d.refunded_amount)
      FROM (${delta}) d JOIN giving_day_zones z ON z.tenant_id = d.tenant_id
     WHERE d.status IN ${COUNTED}
     GROUP BY 1, 2, 3, 4, 5
    HAVING sum(d.sign) <> 0 OR sum(d.sign * d.amount) <> 0 OR sum(d.sign * d.refunded_amount) <> 0;`;

const COLUMNS = 'tenant_id, received_at, fund_id, campus_id, currency, amount, refunded_amount, status';

/**
 * The giving report's rollup (issue 16): per church, local day, fund, campus and currency, the
 * count, amount and refunds of the gifts that count, so a giving report reads a few thousand rows
 * whatever the church's size.
 *
 * - Triggers on donations record every change in giving_day_changes, in the same transaction as the
 *   gift, refund, edit, batch commit or processor event, whichever code path writes it. They only
 *   append: two transactions that write gifts of the same days and funds never wait on each other
 *   (an upsert into the rollup would hold its rows until commit, and two transactions writing two
 *   funds in opposite orders would deadlock).
 * - giving_days_fold moves a church's changes into giving_days (one statement, keys in one order);
 *   the report folds before it reads, and reads giving_days plus the changes recorded since.
 * - Days are local to the church's report time zone, recorded in giving_day_zones. When the app's
 *   zone for the church differs (its settings changed), the report calls giving_days_rebuild, which
 *   takes the zone row FOR UPDATE: the triggers hold it FOR KEY SHARE and a fold FOR NO KEY UPDATE,
 *   so a rebuild waits for the gifts and folds in flight, the ones that follow wait for it, and no
 *   gift is counted twice, lost, or counted on another zone's day.
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
      `CREATE TABLE giving_day_changes (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id bigint GENERATED ALWAYS AS IDENTITY,
         day date NOT NULL,
         fund_id uuid NOT NULL,
         campus_id uuid,
         currency text NOT NULL,
         count int NOT NULL,
         amount bigint NOT NULL,
         refunded bigint NOT NULL,
         PRIMARY KEY (tenant_id, id)
       )`,
      ...isolateTenantTable('giving_day_changes'),
      `CREATE FUNCTION giving_days_record() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF TG_OP = 'INSERT' THEN
           ${record(`SELECT 1 AS sign, ${COLUMNS} FROM new_rows`, 'new_rows')}
         ELSIF TG_OP = 'DELETE' THEN
           ${record(`SELECT -1 AS sign, ${COLUMNS} FROM old_rows`, 'old_rows')}
         ELSE
           ${record(`SELECT -1 AS sign, ${COLUMNS} FROM old_rows UNION ALL SELECT 1, ${COLUMNS} FROM new_rows`, 'new_rows')}
         END IF;
         RETURN NULL;
       END $$`,
      `CREATE TRIGGER giving_days_insert AFTER INSERT ON donations REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION giving_days_record()`,
      `CREATE TRIGGER giving_days_update AFTER UPDATE ON donations REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION giving_days_record()`,
      `CREATE TRIGGER giving_days_delete AFTER DELETE ON donations REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION giving_days_record()`,
      // Moves the church's recorded changes into giving_days. Folds of one church take turns on the
      // zone row (none is taken when there is nothing to fold: reports of a quiet church never wait on
      // each other); a change recorded meanwhile waits for the next fold (the report reads it too).
      `CREATE FUNCTION giving_days_fold(church uuid) RETURNS void LANGUAGE plpgsql AS $$
       BEGIN
         IF NOT EXISTS (SELECT 1 FROM giving_day_changes WHERE tenant_id = church) THEN RETURN; END IF;
         PERFORM 1 FROM giving_day_zones WHERE tenant_id = church FOR NO KEY UPDATE;
         WITH moved AS (DELETE FROM giving_day_changes WHERE tenant_id = church RETURNING ${ROLLUP})
         INSERT INTO giving_days AS g (tenant_id, ${ROLLUP})
         SELECT church, day, fund_id, campus_id, currency, sum(count), sum(amount), sum(refunded)
           FROM moved GROUP BY day, fund_id, campus_id, currency ORDER BY day, fund_id, currency, campus_id
         ON CONFLICT (tenant_id, day, fund_id, currency, campus_key)
         DO UPDATE SET count = g.count + EXCLUDED.count, amount = g.amount + EXCLUDED.amount, refunded = g.refunded + EXCLUDED.refunded;
       END $$`,
      // Recomputes one church's rollup from its donations with days local to `zone`, unless a rebuild
      // that held the lock before this one already did ('' marks a rollup never built).
      `CREATE FUNCTION giving_days_rebuild(church uuid, zone text) RETURNS void LANGUAGE plpgsql AS $$
       DECLARE
         built text;
       BEGIN
         INSERT INTO giving_day_zones (tenant_id, timezone) VALUES (church, '') ON CONFLICT DO NOTHING;
         SELECT timezone INTO built FROM giving_day_zones WHERE tenant_id = church FOR UPDATE;
         IF built = zone THEN RETURN; END IF;
         DELETE FROM giving_day_changes WHERE tenant_id = church;
         DELETE FROM giving_days WHERE tenant_id = church;
         INSERT INTO giving_days (tenant_id, ${ROLLUP})
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
    for (const op of ['insert', 'update', 'delete'])
      await q.query(`DROP TRIGGER IF EXISTS giving_days_${op} ON donations`);
    await q.query(`DROP FUNCTION IF EXISTS giving_days_record()`);
    await q.query(`DROP FUNCTION IF EXISTS giving_days_fold(uuid)`);
    await q.query(`DROP FUNCTION IF EXISTS giving_days_rebuild(uuid, text)`);
    for (const table of ['giving_day_changes', 'giving_days', 'giving_day_zones'])
      await q.query(`DROP TABLE IF EXISTS ${table}`);
  }
}
