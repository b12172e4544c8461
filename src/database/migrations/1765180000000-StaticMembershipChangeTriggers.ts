import { MigrationInterface, QueryRunner } from 'typeorm';
import { MEMBERSHIP_TABLES } from './1765130000000-CreateChangeLog';

/** The operations a membership table's triggers fire on (member_tags rows are never updated). */
const opsOf = (table: string) => (table === 'member_tags' ? ['INSERT', 'DELETE'] : ['INSERT', 'UPDATE', 'DELETE']);

const TRANSITIONS: Record<string, string> = {
  INSERT: 'NEW TABLE AS new_rows',
  UPDATE: 'OLD TABLE AS old_rows NEW TABLE AS new_rows',
  DELETE: 'OLD TABLE AS old_rows',
};

/** The static trigger function of one membership table: `record_<table>_<type>_changes`. */
const functionName = (table: string, type: string) => `record_${table}_${type}_changes`;

/**
 * A membership table's trigger function with its parent column and watched columns written into
 * its statements: the same rows as `record_membership_changes(type, column, watched)`, but static
 * SQL, which PL/pgSQL prepares once per session, where the generic function built its statement
 * with format() and planned it on every statement (EXECUTE). An insert or delete that names no
 * parent (a member without a household, a gift outside a batch) returns before reading the
 * settings or the transaction id.
 */
function membershipFunction(table: string, type: string, column: string, watched: string[]): string {
  const changed = watched.map((k) => `o.${k} IS DISTINCT FROM n.${k}`).join(' OR ');
  const insert = (rows: string) =>
    `INSERT INTO changes (tenant_id, position, xid, object_type, object_id, op, actor, request_id)
           SELECT p.tenant_id, change_position(p.tenant_id, '${type}', p.id, v_tx), v_tx, '${type}', p.id, 'update', v_who, v_request
             FROM (${rows}) p(tenant_id, id);`;
  return `CREATE FUNCTION ${functionName(table, type)}() RETURNS trigger LANGUAGE plpgsql AS $$
       DECLARE
         v_who jsonb;
         v_request text;
         v_tx bigint;
       BEGIN
         IF TG_OP = 'INSERT' THEN
           IF NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.${column} IS NOT NULL) THEN RETURN NULL; END IF;
         ELSIF TG_OP = 'DELETE' THEN
           IF NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.${column} IS NOT NULL) THEN RETURN NULL; END IF;
         END IF;
         v_who := nullif(current_setting('app.actor', true), '')::jsonb;
         v_request := nullif(current_setting('app.request_id', true), '');
         v_tx := pg_current_xact_id()::text::bigint;
         IF TG_OP = 'INSERT' THEN
           ${insert(`SELECT DISTINCT n.tenant_id, n.${column} FROM new_rows n WHERE n.${column} IS NOT NULL`)}
         ELSIF TG_OP = 'DELETE' THEN
           ${insert(`SELECT DISTINCT o.tenant_id, o.${column} FROM old_rows o WHERE o.${column} IS NOT NULL`)}
         ELSE
           ${insert(
             `SELECT DISTINCT u.tenant_id, u.id
                FROM old_rows o JOIN new_rows n ON n.tenant_id = o.tenant_id AND n.id = o.id,
                     LATERAL (VALUES (o.tenant_id, o.${column}), (n.tenant_id, n.${column})) u(tenant_id, id)
               WHERE u.id IS NOT NULL AND (${changed})`,
           )}
         END IF;
         RETURN NULL;
       END $$`;
}

function createTriggers(table: string, type: string, fn: string): string[] {
  return opsOf(table).map(
    (op) =>
      `CREATE TRIGGER ${table}_${type}_${op.toLowerCase()} AFTER ${op} ON ${table}
         REFERENCING ${TRANSITIONS[op]} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}`,
  );
}

function dropTriggers(table: string, type: string): string[] {
  return opsOf(table).map((op) => `DROP TRIGGER IF EXISTS ${table}_${type}_${op.toLowerCase()} ON ${table}`);
}

/**
 * The change log's write cost (bench scenario 17): the membership triggers (a member's household,
 * a gift's batch, an attendance record's event, a group roster, a member's tags) get one static
 * function each instead of the generic `record_membership_changes`, whose dynamic SQL was planned
 * on every statement; an insert or delete naming no parent returns at once. The triggers keep their
 * names, tables and operations, and write the same change rows (positions from `change_position`,
 * as before). `record_membership_changes` stays, for a table added later.
 */
export class StaticMembershipChangeTriggers1765180000000 implements MigrationInterface {
  name = 'StaticMembershipChangeTriggers1765180000000';

  async up(q: QueryRunner): Promise<void> {
    for (const { table, type, column, watched } of MEMBERSHIP_TABLES) {
      await q.query(membershipFunction(table, type, column, watched));
      for (const sql of dropTriggers(table, type)) await q.query(sql);
      for (const sql of createTriggers(table, type, `${functionName(table, type)}()`)) await q.query(sql);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const { table, type, column, watched } of MEMBERSHIP_TABLES) {
      for (const sql of dropTriggers(table, type)) await q.query(sql);
      const args = [`'${type}'`, `'${column}'`, `'{${watched.join(',')}}'`].join(', ');
      for (const sql of createTriggers(table, type, `record_membership_changes(${args})`)) await q.query(sql);
      await q.query(`DROP FUNCTION IF EXISTS ${functionName(table, type)}()`);
    }
  }
}
