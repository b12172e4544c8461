import { Injectable } from '@nestjs/common';
import { KeyedBatcher } from '../../../common/batching/batcher';
import { Database } from '../../../database/database.service';
import { jsonLiteral, uuidArrayLiteral } from '../../../database/sql-literal';
import type { DeliveryRef } from './delivery-queue';

export interface Claimed {
  id: string;
  endpoint_id: string;
  attempts: number;
  url: string;
  endpoint_status: string;
  secret_sealed: Buffer;
  previous_secret_sealed: Buffer | null;
  previous_secret_expires_at: Date | null;
  /** The event's payload as stored: the signed body, byte for byte. */
  body: string;
  webhook_id: string;
}

/** An attempt to write down: the delivery's new state, and whether its endpoint gives up. */
export interface AttemptRecord {
  deliveryId: string;
  attemptId: string;
  attempt: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  status: 'succeeded' | 'pending' | 'failed';
  delayMs: number;
  /** Set when the endpoint is to be disabled (retries exhausted, HTTP 410). */
  disable?: { endpointId: string; reason: string };
}

/** An endpoint this batch disabled (only the batch that flips it reports it), with whom to tell. */
export interface DisabledEndpoint {
  id: string;
  url: string;
  reason: string;
  admins: string[];
}

type Entry = { claim: DeliveryRef } | { record: AttemptRecord };
type Outcome = Claimed | null | DisabledEndpoint[];

/**
 * Batches of one church in flight at once. One busy church must still use more than one
 * PostgreSQL backend (core); claims and records of different deliveries do not conflict.
 */
const LANES = 2;

/** A claimed delivery is not picked again for this long (longer than any attempt). */
const LEASE = `interval '2 minutes'`;

/**
 * The database side of delivery attempts. Claims and records asked for while a church's previous
 * batch was running go together: one transaction, one round trip, records first, through
 * statements prepared once per connection.
 */
@Injectable()
export class DeliveryBook {
  private readonly batches = new KeyedBatcher<string, Entry, Outcome>(
    (tenantId, entries) => this.run(tenantId, entries),
    { lanes: LANES },
  );

  constructor(private readonly db: Database) {}

  /** Leases the delivery if it is still pending at the expected attempt; null otherwise. */
  claim(ref: DeliveryRef): Promise<Claimed | null> {
    return this.batches.submit(ref.tenantId, { claim: ref }) as Promise<Claimed | null>;
  }

  /** Writes the attempt; returns the endpoints this call disabled. */
  record(tenantId: string, record: AttemptRecord): Promise<DisabledEndpoint[]> {
    return this.batches.submit(tenantId, { record }) as Promise<DisabledEndpoint[]>;
  }

  private async run(tenantId: string, entries: Entry[]): Promise<Outcome[]> {
    const claims = entries.flatMap((e) => ('claim' in e ? [e.claim] : []));
    const records = entries.flatMap((e) => ('record' in e ? [e.record] : []));
    const disables = records.flatMap((r) => (r.disable ? [r.disable] : []));
    const statements: string[] = [];
    const add = (sql: string) => statements.push(sql) - 1;
    if (records.length) add(recordSql(tenantId, records));
    const disableAt = disables.length ? add(disableSql(tenantId, disables)) : -1;
    const claimAt = claims.length ? add(claimSql(tenantId, claims)) : -1;
    // Safe to lose in a database crash: a lost claim or record means the delivery is sent again
    // (receivers dedupe on Service-Webhook-Id); waiting for the disk would bound the throughput.
    const results = await this.db.runScriptInTenant(tenantId, statements, { asyncCommit: true, prepared: PREPARED });
    const rowsAt = <T>(at: number) => (at < 0 ? [] : (results[at] as unknown as T[]));
    const disabled = rowsAt<DisabledEndpoint>(disableAt);
    const claimedById = new Map(rowsAt<Claimed>(claimAt).map((row) => [row.id, row]));
    let reported = false;
    return entries.map((entry) => {
      if ('record' in entry) {
        // The endpoints flipped by this batch are reported once, to the first record that asked.
        if (!entry.record.disable || reported) return [];
        reported = true;
        return disabled;
      }
      // A delivery asked for twice in one batch is claimed once: the second asker gets nothing.
      const row = claimedById.get(entry.claim.deliveryId) ?? null;
      claimedById.delete(entry.claim.deliveryId);
      return row;
    });
  }
}

/**
 * Prepared once per connection; $1 is the church, $2 the batch as json, $3 the deliveries' ids:
 * `id = ANY($3)` keeps the cached (generic) plan on the primary key, where a join on the json rows
 * alone, estimated at 100, chose a scan of the whole table.
 */
export const PREPARED: Record<string, string> = {
  // A delivery whose endpoint is no longer enabled is canceled instead of leased.
  webhook_claim: `UPDATE webhook_deliveries d
      SET next_attempt_at = CASE WHEN ep.status = 'enabled' THEN now() + ${LEASE} END,
          status = CASE WHEN ep.status = 'enabled' THEN d.status ELSE 'canceled' END,
          last_error = CASE WHEN ep.status = 'enabled' THEN d.last_error ELSE 'endpoint disabled' END,
          updated_at = now()
     FROM json_to_recordset($2::json) AS r(id uuid, attempts int), webhook_endpoints ep, webhook_events e
    WHERE d.tenant_id = $1::uuid AND d.id = ANY($3::uuid[]) AND d.id = r.id AND d.status = 'pending' AND d.attempts = r.attempts
      AND d.next_attempt_at <= now() + interval '2 seconds'
      AND ep.tenant_id = d.tenant_id AND ep.id = d.endpoint_id AND e.tenant_id = d.tenant_id AND e.id = d.event_id
  RETURNING d.id, d.endpoint_id, d.attempts, ep.url, ep.status AS endpoint_status, ep.secret_sealed,
            ep.previous_secret_sealed, ep.previous_secret_expires_at, e.payload::text AS body, e.payload->>'id' AS webhook_id`,
  // The attempts and the deliveries' new states in one statement.
  webhook_record: `WITH r AS (
      SELECT * FROM json_to_recordset($2::json)
        AS r(delivery_id uuid, attempt_id uuid, attempt int, status_code int, duration_ms int, error text, status text, delay_ms float8)),
    attempt AS (
      INSERT INTO webhook_attempts (tenant_id, id, delivery_id, endpoint_id, event_id, attempt, status_code, duration_ms, error)
      SELECT d.tenant_id, r.attempt_id, d.id, d.endpoint_id, d.event_id, r.attempt, r.status_code, r.duration_ms, r.error
        FROM r JOIN webhook_deliveries d ON d.tenant_id = $1::uuid AND d.id = ANY($3::uuid[]) AND d.id = r.delivery_id)
    UPDATE webhook_deliveries d SET status = r.status, attempts = r.attempt, last_status_code = r.status_code, last_error = r.error, updated_at = now(),
           next_attempt_at = CASE WHEN r.status = 'pending' THEN now() + make_interval(secs => r.delay_ms / 1000) END
      FROM r WHERE d.tenant_id = $1::uuid AND d.id = ANY($3::uuid[]) AND d.id = r.delivery_id`,
  // Only the statement that flips an endpoint returns it, so its org_admins get one mail.
  webhook_disable: `WITH flipped AS (
      UPDATE webhook_endpoints ep SET status = 'disabled', disabled_reason = x.reason, updated_at = now()
        FROM json_to_recordset($2::json) AS x(id uuid, reason text)
       WHERE ep.tenant_id = $1::uuid AND ep.id = ANY($3::uuid[]) AND ep.id = x.id AND ep.status = 'enabled'
      RETURNING ep.id, ep.url, ep.disabled_reason)
    SELECT f.id, f.url, f.disabled_reason AS reason,
           ARRAY(SELECT email FROM users WHERE tenant_id = $1::uuid AND role = 'org_admin' ORDER BY email) AS admins
      FROM flipped f`,
};

function execute(name: keyof typeof PREPARED, tenantId: string, rows: unknown[], ids: string[]): string {
  return `EXECUTE ${name}('${tenantId}', ${jsonLiteral(rows)}, ${uuidArrayLiteral(ids)})`;
}

function claimSql(tenantId: string, refs: DeliveryRef[]): string {
  return execute(
    'webhook_claim',
    tenantId,
    refs.map((r) => ({ id: r.deliveryId, attempts: r.attempt })),
    refs.map((r) => r.deliveryId),
  );
}

function recordSql(tenantId: string, records: AttemptRecord[]): string {
  return execute(
    'webhook_record',
    tenantId,
    records.map((r) => ({
      delivery_id: r.deliveryId,
      attempt_id: r.attemptId,
      attempt: r.attempt,
      status_code: r.statusCode,
      duration_ms: r.durationMs,
      error: r.error,
      status: r.status,
      delay_ms: r.delayMs,
    })),
    records.map((r) => r.deliveryId),
  );
}

function disableSql(tenantId: string, disables: { endpointId: string; reason: string }[]): string {
  return execute(
    'webhook_disable',
    tenantId,
    disables.map((d) => ({ id: d.endpointId, reason: d.reason })),
    disables.map((d) => d.endpointId),
  );
}
