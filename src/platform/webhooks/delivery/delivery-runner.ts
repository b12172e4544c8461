import { Inject, Injectable, Logger } from '@nestjs/common';
import { TenantContext } from '../../../common/context/tenant-context';
import { SecretBox } from '../../../common/crypto/secret-box';
import { newUuid } from '../../../common/ids/id';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { Database } from '../../../database/database.service';
import { MailerService } from '../../mail/mailer.service';
import { SECRET_BOX } from '../../../common/crypto/crypto.module';
import type { EventPayload } from '../webhook-event.entity';
import { signatureHeader } from '../signature';
import type { DeliveryRef } from './delivery-queue';
import { postWebhook, PostResult } from './http-post';
import { nextDelay, parseRetrySchedule } from './retry-schedule';

interface Claimed {
  id: string;
  endpoint_id: string;
  attempts: number;
  url: string;
  endpoint_status: string;
  secret_sealed: Buffer;
  previous_secret_sealed: Buffer | null;
  previous_secret_expires_at: Date | null;
  payload: EventPayload;
}

export type AttemptOutcome = 'delivered' | 'failed' | 'skipped' | 'busy';

/** How many attempts to one endpoint may run at once in this process: a slow church cannot take every slot. */
const PER_ENDPOINT = 4;
/** A claimed delivery is not picked again for this long (longer than any attempt). */
const LEASE = `interval '2 minutes'`;

/**
 * One attempt of one delivery: claim it, sign, POST, record the attempt, then schedule the next
 * try, or give up and deactivate the endpoint (mailing the church's org_admin once). The same code
 * runs under BullMQ and in-process; a claim makes a repeated job harmless.
 */
@Injectable()
export class DeliveryRunner {
  private readonly logger = new Logger('Webhooks');
  private readonly schedule: number[];
  private readonly inFlight = new Map<string, number>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    private readonly db: Database,
    private readonly mailer: MailerService,
  ) {
    this.schedule = parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE);
  }

  /** Returns what happened and, when another try is due, the ref and delay to schedule it. */
  async attempt(ref: DeliveryRef): Promise<{ outcome: AttemptOutcome; retry?: { ref: DeliveryRef; delayMs: number } }> {
    const claimed = await this.inTenant(ref.tenantId, () => this.claim(ref));
    if (!claimed) return { outcome: 'skipped' };
    if (claimed.endpoint_status !== 'enabled') {
      await this.inTenant(ref.tenantId, () => this.cancel(ref));
      return { outcome: 'skipped' };
    }
    const running = this.inFlight.get(claimed.endpoint_id) ?? 0;
    if (running >= PER_ENDPOINT) {
      await this.inTenant(ref.tenantId, () => this.release(ref));
      return { outcome: 'busy' };
    }
    this.inFlight.set(claimed.endpoint_id, running + 1);
    let result: PostResult;
    try {
      result = await this.send(claimed);
    } finally {
      const left = (this.inFlight.get(claimed.endpoint_id) ?? 1) - 1;
      if (left > 0) this.inFlight.set(claimed.endpoint_id, left);
      else this.inFlight.delete(claimed.endpoint_id);
    }
    return this.inTenant(ref.tenantId, () => this.record(ref, claimed, result));
  }

  private inTenant<T>(tenantId: string, fn: () => Promise<T>): Promise<T> {
    return this.db.runInTenant({ tenantId, actor: { kind: 'worker' } }, fn);
  }

  private async claim(ref: DeliveryRef): Promise<Claimed | null> {
    // TypeORM answers an UPDATE ... RETURNING with [rows, affected].
    const [rows]: [Claimed[], number] = await TenantContext.current().manager.query(
      `UPDATE webhook_deliveries d SET next_attempt_at = now() + ${LEASE}, updated_at = now()
         FROM webhook_endpoints ep, webhook_events e
        WHERE d.tenant_id = $1 AND d.id = $2 AND d.status = 'pending' AND d.attempts = $3
          AND d.next_attempt_at <= now() + interval '2 seconds'
          AND ep.tenant_id = d.tenant_id AND ep.id = d.endpoint_id AND e.tenant_id = d.tenant_id AND e.id = d.event_id
      RETURNING d.id, d.endpoint_id, d.attempts, ep.url, ep.status AS endpoint_status, ep.secret_sealed,
                ep.previous_secret_sealed, ep.previous_secret_expires_at, e.payload`,
      [ref.tenantId, ref.deliveryId, ref.attempt],
    );
    return rows[0] ?? null;
  }

  private async release(ref: DeliveryRef): Promise<void> {
    await TenantContext.current().manager.query(
      `UPDATE webhook_deliveries SET next_attempt_at = now() + interval '250 milliseconds' WHERE tenant_id = $1 AND id = $2 AND status = 'pending'`,
      [ref.tenantId, ref.deliveryId],
    );
  }

  private async cancel(ref: DeliveryRef): Promise<void> {
    await TenantContext.current().manager.query(
      `UPDATE webhook_deliveries SET status = 'canceled', next_attempt_at = NULL, last_error = 'endpoint disabled', updated_at = now() WHERE tenant_id = $1 AND id = $2`,
      [ref.tenantId, ref.deliveryId],
    );
  }

  private send(claimed: Claimed): Promise<PostResult> {
    const body = JSON.stringify(claimed.payload);
    const secrets = [this.secrets.open(claimed.secret_sealed)];
    if (claimed.previous_secret_sealed && claimed.previous_secret_expires_at && claimed.previous_secret_expires_at.getTime() > Date.now()) {
      secrets.push(this.secrets.open(claimed.previous_secret_sealed));
    }
    const headers = {
      'Content-Type': 'application/json; charset=utf-8',
      'User-Agent': 'ChurchAPI-Webhooks/1.0',
      'Service-Signature': signatureHeader(body, secrets, Math.floor(Date.now() / 1000)),
      'Service-Webhook-Id': claimed.payload.id,
    };
    return postWebhook(claimed.url, body, headers, this.config.WEBHOOK_TIMEOUT_MS, this.config.WEBHOOK_ALLOW_LOOPBACK);
  }

  private async record(ref: DeliveryRef, claimed: Claimed, result: PostResult) {
    const { manager } = TenantContext.current();
    const attempt = claimed.attempts + 1;
    const ok = result.error === null && result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const error = ok ? null : (result.error ?? `HTTP ${result.statusCode}`);
    const delay = ok || result.statusCode === 410 ? null : nextDelay(this.schedule, attempt);
    const status = ok ? 'succeeded' : delay === null ? 'failed' : 'pending';
    // The attempt and the delivery's new state in one statement.
    await manager.query(
      `WITH attempt AS (
         INSERT INTO webhook_attempts (tenant_id, id, delivery_id, endpoint_id, event_id, attempt, status_code, duration_ms, error)
         SELECT d.tenant_id, $3, d.id, d.endpoint_id, d.event_id, $4, $5, $6, $7 FROM webhook_deliveries d WHERE d.tenant_id = $1 AND d.id = $2)
       UPDATE webhook_deliveries SET status = $8, attempts = $4, last_status_code = $5, last_error = $7, updated_at = now(),
              next_attempt_at = CASE WHEN $8 = 'pending' THEN now() + make_interval(secs => $9::float8 / 1000) END
        WHERE tenant_id = $1 AND id = $2`,
      [ref.tenantId, ref.deliveryId, newUuid(), attempt, result.statusCode, result.durationMs, error, status, delay ?? 0],
    );
    if (ok) return { outcome: 'delivered' as const };
    if (delay !== null) return { outcome: 'failed' as const, retry: { ref: { ...ref, attempt }, delayMs: delay } };
    await this.deactivate(ref.tenantId, claimed.endpoint_id, result.statusCode === 410 ? 'gone (HTTP 410)' : 'retries exhausted', claimed.url);
    return { outcome: 'failed' as const };
  }

  /** Disables the endpoint; only the call that flips it mails the org_admins, so they get one mail. */
  private async deactivate(tenantId: string, endpointId: string, reason: string, url: string): Promise<void> {
    const scope = TenantContext.current();
    const [flipped]: [unknown[], number] = await scope.manager.query(
      `UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = $3, updated_at = now() WHERE tenant_id = $1 AND id = $2 AND status = 'enabled' RETURNING id`,
      [tenantId, endpointId, reason],
    );
    if (flipped.length === 0) return;
    const admins: { email: string }[] = await scope.manager.query(`SELECT email FROM users WHERE tenant_id = $1 AND role = 'org_admin'`, [tenantId]);
    this.logger.warn(`webhook endpoint ${endpointId} disabled: ${reason}`);
    scope.afterCommit.push(async () => {
      for (const { email } of admins) {
        await this.mailer.send({
          to: email,
          subject: 'Webhook endpoint disabled / Endpoint de webhook desactivado',
          text:
            `Your webhook endpoint ${url} was disabled (${reason}). Re-enable it with PATCH /v1/webhook-endpoints/{id} {"status": "enabled"} once it answers 2xx.\n\n` +
            `Su endpoint de webhook ${url} fue desactivado (${reason}). Reactívelo con PATCH /v1/webhook-endpoints/{id} {"status": "enabled"} cuando responda 2xx.`,
        });
      }
    });
  }
}
