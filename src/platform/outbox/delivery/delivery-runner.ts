import { Inject, Injectable, Logger } from '@nestjs/common';
import { BoundedMap } from '../../../common/caching/bounded-map';
import { SECRET_BOX } from '../../../common/crypto/crypto.module';
import { SecretBox } from '../../../common/crypto/secret-box';
import { isUuid, newUuid } from '../../../common/ids/id';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { deliveryHeaders } from '../signature';
import { Claimed, DeliveryBook } from './delivery-book';
import { EndpointSlots } from './endpoint-slots';
import { HealthNotices } from './health-notices';
import type { DeliveryRef } from './delivery-queue';
import { attemptError, postWebhook, PostResult, succeeded } from './http-post';
import { nextDelay, parseRetrySchedule, remainingAfter } from './retry-schedule';

export type AttemptOutcome = 'delivered' | 'failed' | 'skipped' | 'busy';
export interface AttemptResult {
  outcome: AttemptOutcome;
  /** When another try is due: the ref and the delay to schedule it after. */
  retry?: { ref: DeliveryRef; delayMs: number };
}

/** How many attempts to one endpoint may run at once in this process: a slow church cannot take every slot. */
const PER_ENDPOINT = 4;
/** Opened signing secrets kept in memory (never logged), so that a delivery does not decrypt one. */
const OPENED_SECRETS = 1_000;

/**
 * One attempt of one delivery: claim it, sign, POST, record the attempt and the endpoint's health,
 * then schedule the next try, or give up and deactivate the endpoint; a change of health is then
 * told to the church (HealthNotices). The same code runs under BullMQ and in-process; a claim makes
 * a repeated job harmless.
 */
@Injectable()
export class DeliveryRunner {
  private readonly logger = new Logger('Webhooks');
  private readonly schedule: number[];
  private readonly slots = new EndpointSlots(PER_ENDPOINT);
  private readonly opened = new BoundedMap<string, string>(OPENED_SECRETS);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    private readonly book: DeliveryBook,
    private readonly notices: HealthNotices,
  ) {
    this.schedule = parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE);
  }

  /**
   * One attempt. The endpoint's slot is taken before the claim, so a busy endpoint costs no
   * database work: the attempt is `busy` when no slot is free.
   */
  async attempt(ref: DeliveryRef): Promise<AttemptResult> {
    if (!isUuid(ref.tenantId) || !isUuid(ref.deliveryId)) return { outcome: 'skipped' };
    const slot = ref.endpointId ?? ref.deliveryId;
    if (!this.slots.acquire(slot, 0)) return { outcome: 'busy' };
    try {
      const claimed = await this.book.claim(ref);
      if (!claimed || claimed.endpoint_status !== 'enabled') return { outcome: 'skipped' };
      return await this.record(ref, claimed, await this.send(claimed));
    } finally {
      this.slots.release(slot);
    }
  }

  /**
   * Attempts of one church due together (a batch job): claimed in one round trip, then each POSTed
   * and recorded on its own as soon as its endpoint's slot is free, so that one slow receiver does
   * not hold back the others' records and retries. Records of attempts answering at the same time
   * share round trips (DeliveryBook). An attempt waits up to `slotWaitMs` for one of its endpoint's
   * slots; past that its claim is let go (due again at once) and it is `busy`, to be scheduled again.
   * An attempt that errors (its claim or its record) is `skipped` with its error: the delivery stays
   * pending for the sweeper. One promise per ref, in the refs' order.
   */
  attemptEach(refs: DeliveryRef[], slotWaitMs: number): Promise<AttemptResult | { error: unknown }>[] {
    const valid = (ref: DeliveryRef) => isUuid(ref.tenantId) && isUuid(ref.deliveryId);
    const claims = refs.map((ref) => (valid(ref) ? this.book.claim(ref) : Promise.resolve(null)));
    return refs.map(async (ref, i) => {
      try {
        const claimed = await claims[i];
        if (!claimed || claimed.endpoint_status !== 'enabled') return { outcome: 'skipped' as const };
        const slot = claimed.endpoint_id;
        if (!(await this.slots.acquire(slot, slotWaitMs))) {
          await this.book.release(ref);
          return { outcome: 'busy' as const };
        }
        let result: PostResult;
        try {
          result = await this.send(claimed);
        } finally {
          this.slots.release(slot);
        }
        return await this.record(ref, claimed, result);
      } catch (error) {
        return { error };
      }
    });
  }

  private send(claimed: Claimed): Promise<PostResult> {
    const secrets = [this.open(claimed.secret_sealed)];
    if (
      claimed.previous_secret_sealed &&
      claimed.previous_secret_expires_at &&
      claimed.previous_secret_expires_at.getTime() > Date.now()
    ) {
      secrets.push(this.open(claimed.previous_secret_sealed));
    }
    return postWebhook(
      claimed.url,
      claimed.body,
      deliveryHeaders(claimed.body, secrets, claimed.webhook_id),
      this.config.WEBHOOK_TIMEOUT_MS,
      this.config.WEBHOOK_ALLOW_LOOPBACK,
    );
  }

  /** A sealed secret's plaintext, keyed by the sealed bytes (a rolled secret is a new entry). */
  private open(sealed: Buffer): string {
    const key = sealed.toString('base64');
    let secret = this.opened.get(key);
    if (secret === undefined) {
      secret = this.secrets.open(sealed);
      this.opened.set(key, secret);
    }
    return secret;
  }

  private async record(ref: DeliveryRef, claimed: Claimed, result: PostResult): Promise<AttemptResult> {
    const attempt = claimed.attempts + 1;
    const ok = succeeded(result);
    const delay = ok || result.statusCode === 410 ? null : nextDelay(this.schedule, attempt);
    const status = ok ? 'succeeded' : delay === null ? 'failed' : 'pending';
    const disable =
      status === 'failed'
        ? {
            endpointId: claimed.endpoint_id,
            reason: result.statusCode === 410 ? 'gone (HTTP 410)' : 'retries exhausted',
          }
        : undefined;
    const noticed = await this.book.record(ref.tenantId, {
      deliveryId: ref.deliveryId,
      endpointId: claimed.endpoint_id,
      attemptId: newUuid(),
      attempt,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: attemptError(result),
      status,
      delayMs: delay ?? 0,
      givesUpAt: delay === null ? null : new Date(Date.now() + delay + remainingAfter(this.schedule, attempt)),
      disable,
    });
    if (disable) this.logger.warn(`webhook endpoint ${disable.endpointId} disabled: ${disable.reason}`);
    await this.notices.give(ref.tenantId, noticed);
    if (ok) return { outcome: 'delivered' as const };
    if (delay !== null)
      return {
        outcome: 'failed' as const,
        retry: { ref: { ...ref, endpointId: claimed.endpoint_id, attempt }, delayMs: delay },
      };
    return { outcome: 'failed' as const };
  }
}
