import { MigrationInterface, QueryRunner } from 'typeorm';
import { allowPlatformAccess, isolateTenantTable } from '../app-role';

/** Columns of every resource table that are not fields a change reports. */
const COMMON_IGNORED = ['id', 'tenant_id', 'created_at', 'updated_at', 'deleted_at'];

/**
 * The tables whose rows are records with a `GET /v1/<collection>/{id}` (CONTRACT §15), the
 * object_type of each, and their columns that are not fields (generated search keys, sealed
 * secrets, the merge link).
 */
export const CHANGE_TABLES: { table: string; type: string; ignored?: string[] }[] = [
  {
    table: 'members',
    type: 'member',
    ignored: ['merged_into', 'email_key', 'phone_last4', 'first_name_key', 'last_name_key'],
  },
  { table: 'households', type: 'household', ignored: ['name_key'] },
  { table: 'prospects', type: 'prospect' },
  { table: 'tags', type: 'tag' },
  { table: 'prayer_requests', type: 'prayer_request' },
  { table: 'campuses', type: 'campus' },
  { table: 'funds', type: 'fund' },
  { table: 'donations', type: 'donation' },
  { table: 'batches', type: 'batch' },
  { table: 'recurring_gifts', type: 'recurring_gift' },
  { table: 'pledges', type: 'pledge' },
  { table: 'events', type: 'event' },
  { table: 'event_registrations', type: 'registration' },
  { table: 'attendance', type: 'attendance' },
  { table: 'groups', type: 'group' },
  { table: 'devices', type: 'device' },
  {
    table: 'webhook_endpoints',
    type: 'webhook_endpoint',
    ignored: ['secret_sealed', 'previous_secret_sealed', 'previous_secret_expires_at'],
  },
  { table: 'custom_field_definitions', type: 'custom_field' },
  { table: 'notifications', type: 'notification' },
];

/**
 * Memberships: a row of these tables is shown by another record's GET (a member's tags, a
 * group's roster, a household's members), so its change is an upsert of that record.
 */
export const MEMBERSHIP_TABLES: { table: string; type: string; column: string; watched: string[] }[] = [
  { table: 'member_tags', type: 'member', column: 'member_id', watched: ['tag_id', 'member_id'] },
  { table: 'group_members', type: 'group', column: 'group_id', watched: ['group_id', 'member_id', 'group_role'] },
  // A household shows its members' names; a member's household is a column of the member.
  {
    table: 'members',
    type: 'household',
    column: 'household_id',
    watched: ['household_id', 'household_role', 'first_name', 'last_name', 'deleted_at'],
  },
  // An event shows its attendance count; a batch its gifts' count and total.
  { table: 'attendance', type: 'event', column: 'event_id', watched: ['event_id'] },
  { table: 'donations', type: 'batch', column: 'batch_id', watched: ['batch_id', 'amount', 'status'] },
];

const textArray = (values: string[]) => `'{${values.join(',')}}'`;

const TRANSITIONS = {
  INSERT: 'NEW TABLE AS new_rows',
  UPDATE: 'OLD TABLE AS old_rows NEW TABLE AS new_rows',
  DELETE: 'OLD TABLE AS old_rows',
};

/** One statement-level trigger per operation (a trigger with transition tables has one event). */
function triggers(
  table: string,
  fn: string,
  args: string[],
  ops: (keyof typeof TRANSITIONS)[],
  suffix = 'changes',
): string[] {
  return ops.map(
    (op) =>
      `CREATE TRIGGER ${table}_${suffix}_${op.toLowerCase()} AFTER ${op} ON ${table}
         REFERENCING ${TRANSITIONS[op]} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}(${args.join(', ')})`,
  );
}

/**
 * The change log (CONTRACT §15–§16): one row per changed record, written by statement-level
 * triggers in the transaction of the change (one INSERT per statement, whatever the number of
 * rows), with the old and new values of the columns that changed, the actor and the request id
 * (the `app.actor` and `app.request_id` settings of the transaction).
 *
 * `position` is the commit-order watermark. It starts as the writing transaction's id, and a
 * change to a record never gets a position below the record's previous change (a transaction
 * that took its id early and writes a record after a later one committed on it sorts after it).
 * A reader only returns positions below the oldest transaction still running
 * (`pg_snapshot_xmin`): every change committed later has a position at or above that line.
 */
export class CreateChangeLog1765130000000 implements MigrationInterface {
  name = 'CreateChangeLog1765130000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      // No foreign key to tenants: its check would cost a look-up per change row, and every row is
      // written by a trigger on a row of the same church.
      `CREATE TABLE changes (
         tenant_id uuid NOT NULL,
         position bigint NOT NULL,
         seq bigint GENERATED ALWAYS AS IDENTITY,
         xid bigint NOT NULL,
         object_type text NOT NULL,
         object_id uuid NOT NULL,
         op text NOT NULL CHECK (op IN ('create', 'update', 'delete')),
         old_values jsonb,
         new_values jsonb,
         merged_into uuid,
         actor jsonb,
         request_id text,
         changed_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, position, seq)
       )`,
      `CREATE INDEX changes_record_idx ON changes (tenant_id, object_type, object_id, position, seq)`,
      `CREATE INDEX changes_changed_at_idx ON changes USING brin (changed_at)`,
      ...isolateTenantTable('changes', 'SELECT, INSERT'),
      allowPlatformAccess('changes'),
      // What retention removed, per church: a cursor below it is 410 sync_cursor_expired.
      `CREATE TABLE change_horizons (
         tenant_id uuid PRIMARY KEY REFERENCES tenants (id),
         position bigint NOT NULL,
         seq bigint NOT NULL
       )`,
      ...isolateTenantTable('change_horizons', 'SELECT'),
      allowPlatformAccess('change_horizons'),
      // The record's next position: never below its previous change's (see the class comment).
      `CREATE FUNCTION change_position(p_tenant uuid, p_kind text, p_record uuid, p_tx bigint) RETURNS bigint
         LANGUAGE sql STABLE AS $$
           SELECT greatest(p_tx, (SELECT c.position FROM changes c
                                   WHERE c.tenant_id = p_tenant AND c.object_type = p_kind AND c.object_id = p_record
                                   ORDER BY c.position DESC, c.seq DESC LIMIT 1))
         $$`,
      // Each row is turned into JSON once (MATERIALIZED: an inlined to_jsonb would run again at every
      // reference), and an update's changed columns are found in one pass over the old row.
      `CREATE FUNCTION record_changes() RETURNS trigger LANGUAGE plpgsql AS $$
       DECLARE -- v_ names: a column of the table (attendance.kind, prayer_requests.request) must not shadow them
         v_kind text := TG_ARGV[0];
         v_ignored text[] := TG_ARGV[1]::text[];
         v_who jsonb := nullif(current_setting('app.actor', true), '')::jsonb;
         v_request text := nullif(current_setting('app.request_id', true), '');
         v_tx bigint := pg_current_xact_id()::text::bigint;
       BEGIN
         IF TG_OP = 'INSERT' THEN
           WITH r AS MATERIALIZED (SELECT n.tenant_id, n.id, to_jsonb(n) AS j FROM new_rows n)
           INSERT INTO changes (tenant_id, position, xid, object_type, object_id, op, new_values, actor, request_id)
           SELECT r.tenant_id, v_tx, v_tx, v_kind, r.id, 'create', r.j - v_ignored, v_who, v_request FROM r
            WHERE (r.j ->> 'deleted_at') IS NULL;
         ELSIF TG_OP = 'DELETE' THEN
           WITH r AS MATERIALIZED (SELECT o.tenant_id, o.id, to_jsonb(o) ->> 'deleted_at' AS deleted_at FROM old_rows o)
           INSERT INTO changes (tenant_id, position, xid, object_type, object_id, op, actor, request_id)
           SELECT r.tenant_id, change_position(r.tenant_id, v_kind, r.id, v_tx), v_tx, v_kind, r.id, 'delete', v_who, v_request
             FROM r WHERE r.deleted_at IS NULL;
         ELSE
           WITH pairs AS MATERIALIZED (
             SELECT o.tenant_id, o.id, to_jsonb(o) AS oj, to_jsonb(n) AS nj
               FROM old_rows o JOIN new_rows n ON n.tenant_id = o.tenant_id AND n.id = o.id
           ), diffs AS MATERIALIZED (
             SELECT p.tenant_id, p.id, p.nj ->> 'merged_into' AS merged_into,
                    CASE WHEN (p.oj ->> 'deleted_at') IS NULL AND (p.nj ->> 'deleted_at') IS NOT NULL THEN 'delete'
                         WHEN (p.oj ->> 'deleted_at') IS NOT NULL THEN 'create'
                         ELSE 'update' END AS op,
                    c.old_values, c.new_values
               FROM pairs p,
                    LATERAL (SELECT jsonb_object_agg(e.key, e.value) AS old_values,
                                    jsonb_object_agg(e.key, p.nj -> e.key) AS new_values
                               FROM jsonb_each(p.oj) e
                              WHERE e.key <> ALL (v_ignored) AND e.value IS DISTINCT FROM p.nj -> e.key) c
              WHERE (p.oj ->> 'deleted_at') IS NULL OR (p.nj ->> 'deleted_at') IS NULL
           )
           INSERT INTO changes (tenant_id, position, xid, object_type, object_id, op, old_values, new_values, merged_into, actor, request_id)
           SELECT d.tenant_id, change_position(d.tenant_id, v_kind, d.id, v_tx), v_tx, v_kind, d.id, d.op,
                  CASE WHEN d.op = 'update' THEN d.old_values END, CASE WHEN d.op = 'update' THEN d.new_values END,
                  CASE WHEN d.op = 'delete' THEN d.merged_into::uuid END, v_who, v_request
             FROM diffs d
            WHERE d.op <> 'update' OR d.old_values IS NOT NULL;
         END IF;
         RETURN NULL;
       END $$`,
      // A membership row changed: an upsert (no field values) of each record whose GET shows it. The
      // parent column is read as a column (dynamic SQL), not through a JSON copy of every row: most
      // members are in no household.
      `CREATE FUNCTION record_membership_changes() RETURNS trigger LANGUAGE plpgsql AS $$
       DECLARE
         v_kind text := TG_ARGV[0];
         v_parent text := TG_ARGV[1];
         v_watched text[] := TG_ARGV[2]::text[];
         v_who jsonb := nullif(current_setting('app.actor', true), '')::jsonb;
         v_request text := nullif(current_setting('app.request_id', true), '');
         v_tx bigint := pg_current_xact_id()::text::bigint;
         v_rows text;
       BEGIN
         IF TG_OP = 'INSERT' THEN
           v_rows := format('SELECT n.tenant_id, n.%1$I FROM new_rows n WHERE n.%1$I IS NOT NULL', v_parent);
         ELSIF TG_OP = 'DELETE' THEN
           v_rows := format('SELECT o.tenant_id, o.%1$I FROM old_rows o WHERE o.%1$I IS NOT NULL', v_parent);
         ELSE
           v_rows := format(
             'SELECT u.tenant_id, u.id FROM old_rows o JOIN new_rows n ON n.tenant_id = o.tenant_id AND n.id = o.id,
                     LATERAL (VALUES (o.tenant_id, o.%1$I), (n.tenant_id, n.%1$I)) u(tenant_id, id)
               WHERE u.id IS NOT NULL AND (%2$s)',
             v_parent,
             (SELECT string_agg(format('o.%1$I IS DISTINCT FROM n.%1$I', k), ' OR ') FROM unnest(v_watched) k));
         END IF;
         EXECUTE format(
           'INSERT INTO changes (tenant_id, position, xid, object_type, object_id, op, actor, request_id)
            SELECT p.tenant_id, change_position(p.tenant_id, $1, p.id, $2), $2, $1, p.id, %L, $3, $4
              FROM (SELECT DISTINCT r.tenant_id, r.id FROM (%s) r(tenant_id, id)) p',
           'update', v_rows)
           USING v_kind, v_tx, v_who, v_request;
         RETURN NULL;
       END $$`,
      ...CHANGE_TABLES.flatMap(({ table, type, ignored = [] }) =>
        triggers(
          table,
          'record_changes',
          [type, textArray([...COMMON_IGNORED, ...ignored])],
          ['INSERT', 'UPDATE', 'DELETE'],
        ),
      ),
      ...MEMBERSHIP_TABLES.flatMap(({ table, type, column, watched }) =>
        triggers(
          `${table}`,
          'record_membership_changes',
          [type, `'${column}'`, textArray(watched)],
          table === 'member_tags' ? ['INSERT', 'DELETE'] : ['INSERT', 'UPDATE', 'DELETE'],
          type,
        ),
      ),
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const { table, type } of MEMBERSHIP_TABLES)
      for (const op of ['insert', 'update', 'delete'])
        await q.query(`DROP TRIGGER IF EXISTS ${table}_${type}_${op} ON ${table}`);
    for (const { table } of CHANGE_TABLES)
      for (const op of ['insert', 'update', 'delete'])
        await q.query(`DROP TRIGGER IF EXISTS ${table}_changes_${op} ON ${table}`);
    await q.query(`DROP FUNCTION IF EXISTS record_membership_changes()`);
    await q.query(`DROP FUNCTION IF EXISTS record_changes()`);
    await q.query(`DROP FUNCTION IF EXISTS change_position(uuid, text, uuid, bigint)`);
    await q.query(`DROP TABLE IF EXISTS change_horizons`);
    await q.query(`DROP TABLE IF EXISTS changes`);
  }
}
