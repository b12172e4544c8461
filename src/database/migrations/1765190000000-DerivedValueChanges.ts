import { MigrationInterface, QueryRunner } from 'typeorm';

/** The settings and transaction id every change row carries (as the other change triggers read them). */
const WHO = `v_who := nullif(current_setting('app.actor', true), '')::jsonb;
         v_request := nullif(current_setting('app.request_id', true), '');
         v_tx := pg_current_xact_id()::text::bigint;`;

/** An upsert (no field values) of each `type` record `rows` (tenant_id, id) names. */
const upsert = (type: string, rows: string) =>
  `INSERT INTO changes (tenant_id, position, xid, object_type, object_id, op, actor, request_id)
           SELECT p.tenant_id, change_position(p.tenant_id, '${type}', p.id, v_tx), v_tx, '${type}', p.id, 'update', v_who, v_request
             FROM (${rows}) p(tenant_id, id);`;

/** A gift's net amount, as PledgesRepository's `given` counts it (donations' netGivenSql). */
const net = (alias: string) =>
  `(CASE WHEN ${alias}.status IN ('succeeded', 'partially_refunded', 'refunded') THEN ${alias}.amount - ${alias}.refunded_amount ELSE 0 END)`;

/** The live pledges a gift counts toward: its donor's, to its fund, in its currency, within the window (UTC days). */
const pledgesOf = (gifts: string) =>
  `SELECT DISTINCT p.tenant_id, p.id
                FROM (${gifts}) g
                JOIN pledges p ON p.tenant_id = g.tenant_id AND p.donor_id = g.donor_id AND p.deleted_at IS NULL
                 AND p.fund_id = g.fund_id AND p.currency = g.currency
                 AND g.received_at >= (p.starts_on::timestamp AT TIME ZONE 'UTC')
                 AND g.received_at < ((p.ends_on + 1)::timestamp AT TIME ZONE 'UTC')`;

const GIFT = (alias: string) =>
  `${alias}.tenant_id, ${alias}.donor_id, ${alias}.fund_id, ${alias}.currency, ${alias}.received_at`;

/** Gifts whose pledge-relevant values changed: the old version and the new one, each where it counts. */
const CHANGED_GIFTS = `SELECT g.tenant_id, g.donor_id, g.fund_id, g.currency, g.received_at
                   FROM old_rows o JOIN new_rows n ON n.tenant_id = o.tenant_id AND n.id = o.id,
                        LATERAL (VALUES (${GIFT('o')}, ${net('o')}), (${GIFT('n')}, ${net('n')}))
                          g(tenant_id, donor_id, fund_id, currency, received_at, net)
                  WHERE g.donor_id IS NOT NULL AND g.net <> 0
                    AND (o.donor_id, o.fund_id, o.currency, o.received_at, ${net('o')})
                        IS DISTINCT FROM (n.donor_id, n.fund_id, n.currency, n.received_at, ${net('n')})`;

const TRANSITIONS: Record<string, string> = {
  INSERT: 'NEW TABLE AS new_rows',
  UPDATE: 'OLD TABLE AS old_rows NEW TABLE AS new_rows',
  DELETE: 'OLD TABLE AS old_rows',
};

const TRIGGERS: { table: string; name: string; fn: string; ops: string[] }[] = [
  {
    table: 'donations',
    name: 'donations_pledge',
    fn: 'record_pledge_given_changes',
    ops: ['INSERT', 'UPDATE', 'DELETE'],
  },
  { table: 'members', name: 'members_registration', fn: 'record_registration_name_changes', ops: ['UPDATE'] },
];

/**
 * Values a GET shows that come from other records (CONTRACT §15: the feed upserts the record whose
 * GET shows a change): a pledge's `given` and `remaining` follow its donor's gifts, and a
 * registration shows its member's name. A gift written, refunded, moved or deleted upserts the
 * pledges it counts toward; a member renamed upserts her registrations. One statement per
 * statement of gifts or members, none when nothing a pledge or registration shows has changed.
 */
export class DerivedValueChanges1765190000000 implements MigrationInterface {
  name = 'DerivedValueChanges1765190000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE FUNCTION record_pledge_given_changes() RETURNS trigger LANGUAGE plpgsql AS $$
       DECLARE
         v_who jsonb;
         v_request text;
         v_tx bigint;
       BEGIN
         IF TG_OP = 'INSERT' THEN
           IF NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.donor_id IS NOT NULL AND ${net('n')} <> 0) THEN RETURN NULL; END IF;
           ${WHO}
           ${upsert('pledge', pledgesOf(`SELECT ${GIFT('n')} FROM new_rows n WHERE n.donor_id IS NOT NULL AND ${net('n')} <> 0`))}
         ELSIF TG_OP = 'DELETE' THEN
           IF NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.donor_id IS NOT NULL AND ${net('o')} <> 0) THEN RETURN NULL; END IF;
           ${WHO}
           ${upsert('pledge', pledgesOf(`SELECT ${GIFT('o')} FROM old_rows o WHERE o.donor_id IS NOT NULL AND ${net('o')} <> 0`))}
         ELSE
           IF NOT EXISTS (${CHANGED_GIFTS}) THEN RETURN NULL; END IF;
           ${WHO}
           ${upsert('pledge', pledgesOf(CHANGED_GIFTS))}
         END IF;
         RETURN NULL;
       END $$`);
    await q.query(`CREATE FUNCTION record_registration_name_changes() RETURNS trigger LANGUAGE plpgsql AS $$
       DECLARE
         v_who jsonb;
         v_request text;
         v_tx bigint;
       BEGIN
         IF NOT EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n ON n.tenant_id = o.tenant_id AND n.id = o.id
                         WHERE (o.first_name, o.last_name) IS DISTINCT FROM (n.first_name, n.last_name)) THEN
           RETURN NULL;
         END IF;
         ${WHO}
         ${upsert(
           'registration',
           `SELECT r.tenant_id, r.id
              FROM old_rows o JOIN new_rows n ON n.tenant_id = o.tenant_id AND n.id = o.id
              JOIN event_registrations r ON r.tenant_id = n.tenant_id AND r.member_id = n.id
             WHERE (o.first_name, o.last_name) IS DISTINCT FROM (n.first_name, n.last_name)`,
         )}
         RETURN NULL;
       END $$`);
    for (const { table, name, fn, ops } of TRIGGERS)
      for (const op of ops)
        await q.query(
          `CREATE TRIGGER ${name}_${op.toLowerCase()} AFTER ${op} ON ${table}
             REFERENCING ${TRANSITIONS[op]} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
        );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const { table, name, fn, ops } of TRIGGERS) {
      for (const op of ops) await q.query(`DROP TRIGGER IF EXISTS ${name}_${op.toLowerCase()} ON ${table}`);
      await q.query(`DROP FUNCTION IF EXISTS ${fn}()`);
    }
  }
}
