import { Inject, Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { SecretBox } from '../../common/crypto/secret-box';
import { AppError } from '../../common/errors/app-error';
import { newUuid } from '../../common/ids/id';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import { clearedRequiredFields } from '../../common/validation/validation-issues';
import { Database } from '../../database/database.service';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { filterProblems, type DeliveryFilter } from '../../platform/outbox/delivery-filters';
import { DeliveryDispatcher } from '../../platform/outbox/delivery/delivery-dispatcher';
import { attemptError, postWebhook, succeeded } from '../../platform/outbox/delivery/http-post';
import { OutboxService } from '../../platform/outbox/outbox.service';
import type { EventType } from '../../platform/outbox/event-types';
import { deliveryHeaders } from '../../platform/outbox/signature';
import { SampleEvents } from './sample-events';
import type { CreateEndpointDto } from './dto/create-endpoint.dto';
import type {
  AttemptResponse,
  BackfillDto,
  EndpointResponse,
  EndpointWithSecretResponse,
  RolledSecretResponse,
  TestEventResultResponse,
  ValidationResultResponse,
} from './dto/endpoint.response';
import type { UpdateEndpointDto } from './dto/update-endpoint.dto';
import { ATTEMPT_LIST, ENDPOINT_LIST } from './webhook-endpoints.list';
import { WebhookEndpointEntity } from '../../platform/outbox/webhook-endpoint.entity';
import { toAttemptResponse, toEndpointResponse } from './webhook-endpoints.mapper';
import { SECRET_BOX } from '../../common/crypto/crypto.module';
import { newSigningSecret } from './signing-secret';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import type { RowLock } from '../../database/row-lock';

const ROLL_OVERLAP_MS = 24 * 3_600_000;
const BACKFILL_LIMIT = 10_000;
/** An endpoint always has a url, at least one event type and a status: PATCH cannot clear them. */
const REQUIRED_ON_PATCH = ['url', 'events', 'status'] as const;

@Injectable()
export class WebhookEndpointsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    private readonly webhooks: WebhookEndpointsRepository,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly outbox: OutboxService,
    private readonly samples: SampleEvents,
    private readonly db: Database,
  ) {}

  async create(dto: CreateEndpointDto): Promise<EndpointWithSecretResponse> {
    const filters = this.checkFilters(dto.filters ?? []);
    const secret = newSigningSecret();
    const now = new Date();
    const endpoint = Object.assign(new WebhookEndpointEntity(), {
      tenantId: TenantContext.current().tenantId,
      id: newUuid(),
      url: dto.url,
      description: dto.description ?? null,
      events: [...new Set(dto.events)],
      filters,
      status: 'enabled' as const,
      disabledReason: null,
      secretSealed: this.secrets.seal(secret),
      previousSecretSealed: null,
      previousSecretExpiresAt: null,
      createdAt: now,
      updatedAt: now,
    });
    await this.webhooks.insertEndpoint(endpoint);
    return { ...toEndpointResponse(endpoint), secret };
  }

  async list(rawQuery: Record<string, unknown>): Promise<ListEnvelope<EndpointResponse>> {
    const page = await this.webhooks.listEndpoints(parseListQuery(rawQuery, ENDPOINT_LIST));
    const health = await this.webhooks.healthOf(page.rows.map((e) => e.id));
    return toEnvelope(page, (e) => toEndpointResponse(e, health.get(e.id)));
  }

  async get(id: string): Promise<EndpointResponse> {
    return this.withHealth(await this.require(id));
  }

  /** The endpoints among `ids` as GET returns them, by id (the changes feed's objects), in two queries. */
  async getMany(ids: string[]): Promise<Map<string, EndpointResponse>> {
    const [endpoints, health] = await Promise.all([this.webhooks.findEndpoints(ids), this.webhooks.healthOf(ids)]);
    return new Map(endpoints.map((e) => [e.id, toEndpointResponse(e, health.get(e.id))]));
  }

  private async withHealth(endpoint: WebhookEndpointEntity): Promise<EndpointResponse> {
    return toEndpointResponse(endpoint, (await this.webhooks.healthOf([endpoint.id])).get(endpoint.id));
  }

  async update(id: string, dto: UpdateEndpointDto): Promise<EndpointResponse> {
    const cleared = clearedRequiredFields(dto, REQUIRED_ON_PATCH);
    if (cleared.length) throw AppError.validation(cleared);
    const endpoint = await this.require(id, 'for_no_key_update');
    const changes: Partial<WebhookEndpointEntity> = { updatedAt: new Date() };
    if (dto.url !== undefined) {
      changes.url = dto.url;
    }
    if (dto.events !== undefined) changes.events = [...new Set(dto.events)];
    if (dto.filters !== undefined) changes.filters = this.checkFilters(dto.filters ?? []);
    if (dto.description !== undefined) changes.description = dto.description;
    if (dto.status !== undefined) {
      changes.status = dto.status;
      changes.disabledReason = dto.status === 'enabled' ? null : 'disabled by the church';
    }
    const wasEnabled = endpoint.status === 'enabled';
    await this.webhooks.updateEndpoint(id, changes);
    if (changes.status === 'enabled' && !wasEnabled) await this.webhooks.resetHealth(id);
    const updated = await this.withHealth(Object.assign(endpoint, changes));
    if (changes.status === 'disabled' && wasEnabled)
      await this.outbox.recordMany('webhook_endpoint.disabled', [updated], undefined, [id]);
    return updated;
  }

  async remove(id: string): Promise<void> {
    await this.require(id, 'pessimistic_write');
    await this.webhooks.deleteEndpoint(id);
  }

  /** A new secret; the previous one keeps signing (a second v1=) for 24 hours. */
  async rollSecret(id: string): Promise<RolledSecretResponse> {
    // Locked: concurrent rolls run one after the other, so each keeps the secret the previous one set.
    const endpoint = await this.require(id, 'for_no_key_update');
    const current = await this.webhooks.sealedSecret(endpoint.id);
    const secret = newSigningSecret();
    const expires = new Date(Date.now() + ROLL_OVERLAP_MS);
    await this.webhooks.updateEndpoint(id, {
      secretSealed: this.secrets.seal(secret),
      previousSecretSealed: current,
      previousSecretExpiresAt: expires,
      updatedAt: new Date(),
    });
    return { secret, previous_secret_expires_at: expires.toISOString() };
  }

  /**
   * Calls the receiver's GET /webhooks/ping (same origin as the endpoint URL). Runs outside a
   * transaction (@OutsideTransaction): the endpoint is read in a short one, the call holds none.
   */
  async validate(id: string): Promise<ValidationResultResponse> {
    const endpoint = await this.db.transaction(() => this.require(id));
    const url = new URL('/webhooks/ping', endpoint.url).toString();
    const result = await postWebhook(
      url,
      '',
      { 'User-Agent': 'ChurchAPI-Webhooks/1.0' },
      this.config.WEBHOOK_TIMEOUT_MS,
      this.config.WEBHOOK_ALLOW_LOOPBACK,
      'GET',
    );
    return {
      ok: succeeded(result),
      url,
      status_code: result.statusCode,
      duration_ms: result.durationMs,
      error: attemptError(result),
    };
  }

  /**
   * Sends a signed sample event of `type` (CONTRACT §18): `"test": true`, `data.object` the
   * document's example; not in the event log, never retried. Outside a transaction, like validate.
   */
  async sendTest(id: string, type: EventType): Promise<TestEventResultResponse> {
    const { endpoint, secrets, event } = await this.db.transaction(async () => {
      const found = await this.require(id);
      return {
        endpoint: found,
        secrets: await this.webhooks.liveSecrets(found.id),
        event: await this.samples.event(type),
      };
    });
    const body = JSON.stringify(event);
    const result = await postWebhook(
      endpoint.url,
      body,
      deliveryHeaders(
        body,
        secrets.map((sealed) => this.secrets.open(sealed)),
        event.id,
      ),
      this.config.WEBHOOK_TIMEOUT_MS,
      this.config.WEBHOOK_ALLOW_LOOPBACK,
    );
    return { status_code: result.statusCode, duration_ms: result.durationMs, error: attemptError(result) };
  }

  /** Re-delivers every event of one type in [from, to) to this endpoint. */
  async backfill(id: string, dto: BackfillDto): Promise<{ enqueued: number }> {
    const endpoint = await this.require(id, 'for_key_share');
    const [from, to] = [new Date(dto.from), new Date(dto.to)];
    if (!(from < to)) throw AppError.validation([{ field: 'to', issue: 'invalid', params: {} }]);
    const eventIds = await this.webhooks.eventIdsInRange(dto.type, from, to, BACKFILL_LIMIT);
    await this.enqueueDeliveries(endpoint.id, eventIds);
    return { enqueued: eventIds.length };
  }

  async attempts(id: string, rawQuery: Record<string, unknown>): Promise<ListEnvelope<AttemptResponse>> {
    await this.require(id);
    return toEnvelope(await this.webhooks.listAttempts(id, parseListQuery(rawQuery, ATTEMPT_LIST)), toAttemptResponse);
  }

  /** Succeeded and failed attempts per UTC day since `since` (the console's delivery chart), counted by the database. */
  async dailyAttemptCounts(id: string, since: Date): Promise<{ day: string; succeeded: number; failed: number }[]> {
    await this.require(id);
    return this.webhooks.dailyAttemptCounts(id, since);
  }

  async enqueueDeliveries(endpointId: string, eventIds: string[]): Promise<string[]> {
    if (!eventIds.length) return [];
    const ids = eventIds.map(() => newUuid());
    await this.webhooks.insertDeliveries(endpointId, eventIds, ids);
    const scope = TenantContext.current();
    scope.afterCommit.push(() =>
      this.dispatcher.dispatch(
        ids.map((deliveryId) => ({ tenantId: scope.tenantId, deliveryId, endpointId, attempt: 0 })),
      ),
    );
    return ids;
  }

  async require(id: string, lock?: RowLock): Promise<WebhookEndpointEntity> {
    const endpoint = await this.webhooks.findEndpoint(id, lock);
    if (!endpoint) throw AppError.notFound('webhook endpoint');
    return endpoint;
  }

  private checkFilters(filters: unknown[]): DeliveryFilter[] {
    const problems = filterProblems(filters);
    if (problems.length) throw AppError.validation(problems);
    return filters as DeliveryFilter[];
  }
}
