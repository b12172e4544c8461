import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
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
  endpointId: string;
  attemptId: string;
  attempt: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  status: 'succeeded' | 'pending' | 'failed';
  delayMs: number;
  /** When a failed attempt's delivery will be given up (its last scheduled retry); null otherwise. */
  givesUpAt: Date | null;
  /** Set when the endpoint is to be disabled (retries exhausted, HTTP 410). */
  disable?: { endpointId: string; reason: string };
}

type Entry = { claim: DeliveryRef } | { record: AttemptRecord } | { release: DeliveryRef };
type Outcome = Claimed | null | string[];

/**
 * Batches of one church in flight at once. One busy church must still use more than one
 * PostgreSQL backend (core); claims and records of different deliveries do not conflict.
 */
const LANES = 2;

/**
 * A claimed delivery is not picked again for this long: twice the attempt's time-out and a margin
 * (an attempt never takes longer), so that the deliveries a killed worker held are due again soon
 * and the sweeper hands them to another (CONTRACT §22: within 60 s).
 */
export function leaseSeconds(timeoutMs: number): number {
  return (2 * timeoutMs) / 1000 + 15;
}

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

  private readonly lease: number;

  constructor(
    private readonly db: Database,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.lease = leaseSeconds(config.WEBHOOK_TIMEOUT_MS);
  }

  /** Leases the delivery if it is still pending at the expected attempt; null otherwise. */
  claim(ref: DeliveryRef): Promise<Claimed | null> {
    return this.batches.submit(ref.tenantId, { claim: ref }) as Promise<Claimed | null>;
  }

  /** Lets a claim go without an attempt (the endpoint stayed busy): the delivery is due again at once. */
  async release(ref: DeliveryRef): Promise<void> {
    await this.batches.submit(ref.tenantId, { release: ref });
  }

  /**
   * Writes the attempt and its endpoint's health; returns the endpoints with a health notice to
   * give (see HealthNotices), reported to the first record of the batch only.
   */
  record(tenantId: string, record: AttemptRecord): Promise<string[]> {
    return this.batches.submit(tenantId, { record }) as Promise<string[]>;
  }

  private async run(tenantId: string, entries: Entry[]): Promise<Outcome[]> {
    const claims = entries.flatMap((e) => ('claim' in e ? [e.claim] : []));
    const records = entries.flatMap((e) => ('record' in e ? [e.record] : []));
    const releases = entries.flatMap((e) => ('release' in e ? [e.release] : []));
    const disables = records.flatMap((r) => (r.disable ? [r.disable] : []));
    const statements: string[] = [];
    const add = (sql: string) => statements.push(sql) - 1;
    if (records.length) add(recordSql(tenantId, records));
    const healthAt = records.length ? add(healthSql(tenantId, records)) : -1;
    const disableAt = disables.length ? add(disableSql(tenantId, disables)) : -1;
    if (releases.length) add(releaseSql(tenantId, releases));
    const claimAt = claims.length ? add(claimSql(tenantId, claims, this.lease)) : -1;
    // Safe to lose in a database crash: a lost claim or record means the delivery is sent again
    // (receivers dedupe on Service-Webhook-Id); waiting for the disk would bound the throughput.
    const results = await this.db.runScriptInTenant(tenantId, statements, { asyncCommit: true, prepared: PREPARED });
    const rowsAt = <T>(at: number) => (at < 0 ? [] : (results[at] as unknown as T[]));
    const noticed = [
      ...new Set([...rowsAt<{ id: string }>(healthAt), ...rowsAt<{ id: string }>(disableAt)].map((r) => r.id)),
    ];
    const claimedById = new Map(rowsAt<Claimed>(claimAt).map((row) => [row.id, row]));
    let reported = false;
    return entries.map((entry) => {
      if ('release' in entry) return null;
      if ('record' in entry) {
        if (reported) return [];
        reported = true;
        return noticed;
      }
      // A delivery asked for twice in one batch is claimed once: the second asker gets nothing.
      const row = claimedById.get(entry.claim.deliveryId) ?? null;
      claimedById.delete(entry.claim.deliveryId);
      return row;
    });
  }
}

/**
 * When a pending delivery is due: its next attempt's time, or its claim's end while a claim holds it
 * (GREATEST skips a NULL lease). `d` is webhook_deliveries.
 */
export const DUE_AT = 'GREATEST(d.next_attempt_at, d.leased_until)';

/** An endpoint is `failing` from its third consecutive failed attempt. */
export const FAILING_FROM = 3;

/** In webhook_health's upsert: the failures since the last 2xx, the batch's after the stored ones. */
const NEW_FAILURES = `(CASE WHEN EXCLUDED.last_success_at IS NOT NULL THEN EXCLUDED.consecutive_failures
                            ELSE h.consecutive_failures + EXCLUDED.consecutive_failures END)`;
/** Entering `failing` or leaving it leaves a notice; a recovery before a `failing` notice was given cancels it. */
const NEW_NOTICE = `(CASE WHEN h.consecutive_failures < ${FAILING_FROM} AND ${NEW_FAILURES} >= ${FAILING_FROM} THEN 'failing'
                          WHEN h.consecutive_failures >= ${FAILING_FROM} AND ${NEW_FAILURES} < ${FAILING_FROM}
                            THEN CASE WHEN h.notice = 'failing' THEN NULL ELSE 'recovered' END
                          ELSE h.notice END)`;

/**
 * Prepared once per connection; $1 is the church, $2 the batch as json, $3 the deliveries' ids:
 * `id = ANY($3)` keeps the cached (generic) plan on the primary key, where a join on the json rows
 * alone, estimated at 100, chose a scan of the whole table.
 */
export const PREPARED: Record<string, string> = {
  // A delivery whose endpoint is no longer enabled is canceled instead of leased. The lease is
  // outside every index: the row can be updated in place (HOT).
  webhook_claim: `UPDATE webhook_deliveries d
      SET leased_until = CASE WHEN ep.status = 'enabled' THEN now() + make_interval(secs => r.lease_s) END,
          next_attempt_at = CASE WHEN ep.status = 'enabled' THEN d.next_attempt_at END,
          status = CASE WHEN ep.status = 'enabled' THEN d.status ELSE 'canceled' END,
          last_error = CASE WHEN ep.status = 'enabled' THEN d.last_error ELSE 'endpoint disabled' END,
          updated_at = now()
     FROM json_to_recordset($2::json) AS r(id uuid, attempts int, lease_s float8), webhook_endpoints ep, webhook_events e
    WHERE d.tenant_id = $1::uuid AND d.id = ANY($3::uuid[]) AND d.id = r.id AND d.status = 'pending' AND d.attempts = r.attempts
      AND ${DUE_AT} <= now() + interval '2 seconds'
      AND ep.tenant_id = d.tenant_id AND ep.id = d.endpoint_id AND e.tenant_id = d.tenant_id AND e.id = d.event_id
  RETURNING d.id, d.endpoint_id, d.attempts, ep.url, ep.status AS endpoint_status, ep.secret_sealed,
            ep.previous_secret_sealed, ep.previous_secret_expires_at, e.payload::text AS body, e.payload->>'id' AS webhook_id`,
  // Claims given back unused: due again at once, the attempt not counted.
  webhook_release: `UPDATE webhook_deliveries d SET leased_until = NULL, updated_at = now()
      FROM json_to_recordset($2::json) AS r(id uuid, attempts int)
     WHERE d.tenant_id = $1::uuid AND d.id = ANY($3::uuid[]) AND d.id = r.id AND d.status = 'pending' AND d.attempts = r.attempts`,
  // The attempts and the deliveries' new states in one statement.
  webhook_record: `WITH r AS (
      SELECT * FROM json_to_recordset($2::json)
        AS r(delivery_id uuid, attempt_id uuid, attempt int, status_code int, duration_ms int, error text, status text, delay_ms float8)),
    attempt AS (
      INSERT INTO webhook_attempts (tenant_id, id, delivery_id, endpoint_id, event_id, attempt, status_code, duration_ms, error)
      SELECT d.tenant_id, r.attempt_id, d.id, d.endpoint_id, d.event_id, r.attempt, r.status_code, r.duration_ms, r.error
        FROM r JOIN webhook_deliveries d ON d.tenant_id = $1::uuid AND d.id = ANY($3::uuid[]) AND d.id = r.delivery_id)
    UPDATE webhook_deliveries d SET status = r.status, attempts = r.attempt, last_status_code = r.status_code, last_error = r.error, updated_at = now(), leased_until = NULL,
           next_attempt_at = CASE WHEN r.status = 'pending' THEN now() + make_interval(secs => r.delay_ms / 1000) END
      FROM r WHERE d.tenant_id = $1::uuid AND d.id = ANY($3::uuid[]) AND d.id = r.delivery_id`,
  // Only the statement that flips an endpoint leaves a `disabled` notice, so the church is told once.
  webhook_disable: `WITH flipped AS (
      UPDATE webhook_endpoints ep SET status = 'disabled', disabled_reason = x.reason, updated_at = now()
        FROM json_to_recordset($2::json) AS x(id uuid, reason text)
       WHERE ep.tenant_id = $1::uuid AND ep.id = ANY($3::uuid[]) AND ep.id = x.id AND ep.status = 'enabled'
      RETURNING ep.tenant_id, ep.id)
    INSERT INTO webhook_endpoint_health AS h (tenant_id, endpoint_id, notice, notice_at)
    SELECT f.tenant_id, f.id, 'disabled', now() FROM flipped f
    ON CONFLICT (tenant_id, endpoint_id) DO UPDATE SET notice = 'disabled', notice_at = now(), disable_at = NULL
    RETURNING h.endpoint_id AS id`,
  // Each endpoint's attempts of the batch, in order, folded into its health (CONTRACT §18): the
  // failures since its last 2xx, and the earliest give-up time of those failures. A success writes
  // the row only when it changes the state, or to move last_success_at on after a minute; a change
  // of state leaves a notice. Every expression reads the row as it was (h.*) under the upsert's lock.
  // Rows are upserted (and locked) in endpoint order: two batches of one church run at once (LANES)
  // and would otherwise deadlock on endpoints they both touch.
  webhook_health: `WITH x AS (
      SELECT x.* FROM json_to_recordset($2::json) AS x(id uuid, failures int, succeeded boolean, gives_up_at timestamptz)
        JOIN webhook_endpoints ep ON ep.tenant_id = $1::uuid AND ep.id = ANY($3::uuid[]) AND ep.id = x.id AND ep.status = 'enabled'),
    upserted AS (
      INSERT INTO webhook_endpoint_health AS h (tenant_id, endpoint_id, consecutive_failures, failing_since, disable_at, last_success_at, notice, notice_at)
      SELECT $1::uuid, x.id, x.failures, CASE WHEN x.failures >= ${FAILING_FROM} THEN now() END, x.gives_up_at,
             CASE WHEN x.succeeded THEN now() END, CASE WHEN x.failures >= ${FAILING_FROM} THEN 'failing' END,
             CASE WHEN x.failures >= ${FAILING_FROM} THEN now() END
        FROM x ORDER BY x.id
      ON CONFLICT (tenant_id, endpoint_id) DO UPDATE SET
        consecutive_failures = ${NEW_FAILURES},
        failing_since = CASE WHEN ${NEW_FAILURES} < ${FAILING_FROM} THEN NULL
                             WHEN h.consecutive_failures >= ${FAILING_FROM} AND EXCLUDED.last_success_at IS NULL THEN h.failing_since
                             ELSE now() END,
        disable_at = CASE WHEN ${NEW_FAILURES} = 0 THEN NULL
                          WHEN EXCLUDED.last_success_at IS NOT NULL THEN EXCLUDED.disable_at
                          ELSE LEAST(h.disable_at, EXCLUDED.disable_at) END,
        last_success_at = COALESCE(EXCLUDED.last_success_at, h.last_success_at),
        notice = ${NEW_NOTICE},
        notice_at = CASE WHEN ${NEW_NOTICE} IS DISTINCT FROM h.notice THEN now() ELSE h.notice_at END
      WHERE EXCLUDED.consecutive_failures > 0 OR h.consecutive_failures > 0 OR h.last_success_at IS NULL
         OR h.last_success_at < now() - interval '1 minute'
      RETURNING h.endpoint_id, h.notice)
    SELECT endpoint_id AS id FROM upserted WHERE notice IS NOT NULL`,
};

function execute(name: keyof typeof PREPARED, tenantId: string, rows: unknown[], ids: string[]): string {
  return `EXECUTE ${name}('${tenantId}', ${jsonLiteral(rows)}, ${uuidArrayLiteral(ids)})`;
}

function claimSql(tenantId: string, refs: DeliveryRef[], leaseS: number): string {
  return execute(
    'webhook_claim',
    tenantId,
    refs.map((r) => ({ id: r.deliveryId, attempts: r.attempt, lease_s: leaseS })),
    refs.map((r) => r.deliveryId),
  );
}

function releaseSql(tenantId: string, refs: DeliveryRef[]): string {
  return execute(
    'webhook_release',
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

/** Per endpoint: the failures after its last success in the batch, and when the first of them gives up. */
function healthSql(tenantId: string, records: AttemptRecord[]): string {
  const byEndpoint = new Map<string, { id: string; failures: number; succeeded: boolean; gives_up_at: Date | null }>();
  for (const r of records) {
    let health = byEndpoint.get(r.endpointId);
    if (!health)
      byEndpoint.set(r.endpointId, (health = { id: r.endpointId, failures: 0, succeeded: false, gives_up_at: null }));
    if (r.status === 'succeeded') Object.assign(health, { failures: 0, succeeded: true, gives_up_at: null });
    else {
      health.failures++;
      if (r.givesUpAt && (!health.gives_up_at || r.givesUpAt < health.gives_up_at)) health.gives_up_at = r.givesUpAt;
    }
  }
  const rows = [...byEndpoint.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  return execute(
    'webhook_health',
    tenantId,
    rows,
    rows.map((r) => r.id),
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
