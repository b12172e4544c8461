import { Injectable } from '@nestjs/common';
import { tenantScope } from '../../database/tenant-scope';
import type { ChangeActor } from '../../common/context/change-actor';
import type { ChangeKey } from './change-cursor';

export interface ChangeRow {
  position: string;
  seq: string;
  objectType: string;
  objectId: string;
  op: 'create' | 'update' | 'delete';
  oldValues: Record<string, unknown> | null;
  newValues: Record<string, unknown> | null;
  mergedInto: string | null;
  actor: ChangeActor | null;
  requestId: string | null;
  changedAt: Date;
}

export interface FeedPage {
  rows: ChangeRow[];
  /** The watermark: every change committed from now on has a position at or above it. */
  line: bigint;
  /** What retention removed: a cursor below it has lost changes. */
  horizon: ChangeKey | null;
}

const COLUMNS = `c.position::text AS position, c.seq::text AS seq, c.object_type AS "objectType", c.object_id AS "objectId",
  c.op, c.old_values AS "oldValues", c.new_values AS "newValues", c.merged_into AS "mergedInto", c.actor,
  c.request_id AS "requestId", c.changed_at AS "changedAt"`;

/** The watermark of this statement's snapshot: the oldest transaction id still running. */
const LINE = `pg_snapshot_xmin(pg_current_snapshot())::text::bigint`;

@Injectable()
export class ChangesRepository {
  /**
   * The changes after `after` (and after what retention removed) of `types`, in commit order,
   * below the watermark, in one statement (one snapshot for the rows and the watermark).
   */
  async feed(after: ChangeKey, types: string[], limit: number): Promise<FeedPage> {
    const { manager, tenantId } = tenantScope();
    const rows: (Partial<ChangeRow> & { line: string; hPosition: string | null; hSeq: string | null })[] =
      await manager.query(
        `SELECT w.line::text AS line, h.position::text AS "hPosition", h.seq::text AS "hSeq", ${COLUMNS}
           FROM (SELECT ${LINE} AS line) w
           LEFT JOIN change_horizons h ON h.tenant_id = $1
           LEFT JOIN LATERAL (
             SELECT * FROM changes c
              WHERE c.tenant_id = $1 AND (c.position, c.seq) > ($2::bigint, $3::bigint)
                AND (h.position IS NULL OR (c.position, c.seq) > (h.position, h.seq))
                AND c.position < w.line AND c.object_type = ANY($4::text[])
              ORDER BY c.position, c.seq
              LIMIT $5
           ) c ON true
          ORDER BY c.position, c.seq`,
        [tenantId, after.position.toString(), after.seq.toString(), types, limit],
      );
    const [first] = rows;
    return {
      rows: rows.filter((r) => r.position !== null) as ChangeRow[],
      line: BigInt(first.line),
      horizon: first.hPosition ? { position: BigInt(first.hPosition), seq: BigInt(first.hSeq!) } : null,
    };
  }

  async line(): Promise<bigint> {
    const { manager } = tenantScope();
    const [{ line }]: { line: string }[] = await manager.query(`SELECT ${LINE}::text AS line`);
    return BigInt(line);
  }

  /** One record's changes, newest first, before `before` (a history page). */
  history(type: string, id: string, before: ChangeKey | null, limit: number): Promise<ChangeRow[]> {
    const { manager, tenantId } = tenantScope();
    return manager.query(
      `SELECT ${COLUMNS} FROM changes c
        WHERE c.tenant_id = $1 AND c.object_type = $2 AND c.object_id = $3
          AND ($4::bigint IS NULL OR (c.position, c.seq) < ($4::bigint, $5::bigint))
        ORDER BY c.position DESC, c.seq DESC
        LIMIT $6`,
      [tenantId, type, id, before?.position.toString() ?? null, before?.seq.toString() ?? null, limit],
    );
  }

  /** How many changes one record has (a history's total). */
  async historyCount(type: string, id: string): Promise<number> {
    const { manager, tenantId } = tenantScope();
    const [{ count }]: { count: number }[] = await manager.query(
      `SELECT count(*)::int AS count FROM changes WHERE tenant_id = $1 AND object_type = $2 AND object_id = $3`,
      [tenantId, type, id],
    );
    return count;
  }
}
