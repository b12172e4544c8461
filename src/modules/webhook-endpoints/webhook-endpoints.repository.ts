import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { RowLock, withLock } from '../../database/row-lock';
import { tenantScope } from '../../database/tenant-scope';
import { ATTEMPT_LIST, ENDPOINT_LIST, EVENT_LIST } from './webhook-endpoints.list';
import { WebhookAttemptEntity } from '../../platform/outbox/webhook-attempt.entity';
import { WebhookEndpointEntity } from '../../platform/outbox/webhook-endpoint.entity';
import { WebhookEventEntity } from '../../platform/outbox/webhook-event.entity';

/** An endpoint's health row (webhook_endpoint_health), with last_success_at exact (see healthOf). */
export interface EndpointHealthRow {
  endpoint_id: string;
  consecutive_failures: number;
  failing_since: Date | null;
  disable_at: Date | null;
  last_success_at: Date | null;
}

/** The TypeORM surface of the webhooks module; every query names the tenant. */
@Injectable()
export class WebhookEndpointsRepository {
  async insertEndpoint(endpoint: WebhookEndpointEntity): Promise<void> {
    await tenantScope(WebhookEndpointEntity).repo.insert(endpoint);
  }

  /** With `lock`, the row stays locked until the transaction ends (see RowLock). */
  async findEndpoint(id: string, lock?: RowLock): Promise<WebhookEndpointEntity | null> {
    const { repo, tenantId } = tenantScope(WebhookEndpointEntity);
    return repo.findOne({ where: { tenantId, id }, ...withLock(lock) });
  }

  /** The endpoints among `ids`, in one query. */
  async findEndpoints(ids: string[]): Promise<WebhookEndpointEntity[]> {
    if (ids.length === 0) return [];
    const { repo, tenantId } = tenantScope(WebhookEndpointEntity);
    return repo.find({ where: { tenantId, id: In(ids) } });
  }

  async sealedSecret(id: string): Promise<Buffer> {
    const { manager, tenantId } = tenantScope();
    const rows: { secret_sealed: Buffer }[] = await manager.query(
      'SELECT secret_sealed FROM webhook_endpoints WHERE tenant_id = $1 AND id = $2',
      [tenantId, id],
    );
    return rows[0].secret_sealed;
  }

  /** The sealed secrets that sign now: the current one, and the previous one during a roll. */
  async liveSecrets(id: string): Promise<Buffer[]> {
    const { manager, tenantId } = tenantScope();
    const rows: { secret_sealed: Buffer; previous_secret_sealed: Buffer | null }[] = await manager.query(
      `SELECT secret_sealed, CASE WHEN previous_secret_expires_at > now() THEN previous_secret_sealed END AS previous_secret_sealed
         FROM webhook_endpoints WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return rows.flatMap((r) =>
      r.previous_secret_sealed ? [r.secret_sealed, r.previous_secret_sealed] : [r.secret_sealed],
    );
  }

  async updateEndpoint(id: string, changes: Partial<WebhookEndpointEntity>): Promise<void> {
    const { repo, tenantId } = tenantScope(WebhookEndpointEntity);
    await repo.update({ tenantId, id }, changes);
  }

  async deleteEndpoint(id: string): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query('DELETE FROM webhook_endpoints WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
  }

  /**
   * The health rows of these endpoints, in one query. The engine writes last_success_at at most
   * once a minute while deliveries succeed; the 2xx attempts since (an index range) make it exact.
   */
  async healthOf(ids: string[]): Promise<Map<string, EndpointHealthRow>> {
    if (ids.length === 0) return new Map();
    const { manager, tenantId } = tenantScope();
    const rows: EndpointHealthRow[] = await manager.query(
      `SELECT h.endpoint_id, h.consecutive_failures, h.failing_since, h.disable_at,
              GREATEST(h.last_success_at, (
                SELECT max(a.created_at) FROM webhook_attempts a
                 WHERE a.tenant_id = h.tenant_id AND a.endpoint_id = h.endpoint_id AND a.created_at > h.last_success_at
                   AND a.error IS NULL AND a.status_code BETWEEN 200 AND 299)) AS last_success_at
         FROM webhook_endpoint_health h WHERE h.tenant_id = $1 AND h.endpoint_id = ANY($2::uuid[])`,
      [tenantId, ids],
    );
    return new Map(rows.map((r) => [r.endpoint_id, r]));
  }

  /** A re-enabled endpoint starts healthy. */
  async resetHealth(id: string): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query('DELETE FROM webhook_endpoint_health WHERE tenant_id = $1 AND endpoint_id = $2', [
      tenantId,
      id,
    ]);
  }

  /**
   * Takes (clears) the pending health notices of these endpoints: each is given once. Locks in
   * endpoint order, as the delivery book's batches do (another order deadlocked with them).
   */
  async takeNotices(ids: string[]): Promise<{ endpoint_id: string; notice: 'failing' | 'recovered' | 'disabled' }[]> {
    const { manager, tenantId } = tenantScope();
    const [rows]: [{ endpoint_id: string; notice: 'failing' | 'recovered' | 'disabled' }[], number] =
      await manager.query(
        `WITH pending AS (
           SELECT endpoint_id, notice FROM webhook_endpoint_health
            WHERE tenant_id = $1 AND endpoint_id = ANY($2::uuid[]) AND notice IS NOT NULL
            ORDER BY endpoint_id FOR UPDATE)
         UPDATE webhook_endpoint_health h SET notice = NULL, notice_at = NULL FROM pending p
          WHERE h.tenant_id = $1 AND h.endpoint_id = p.endpoint_id
         RETURNING h.endpoint_id, p.notice`,
        [tenantId, ids],
      );
    return rows;
  }

  /** Each endpoint's last failed attempt's error, in one query. */
  async lastErrors(ids: string[]): Promise<Map<string, string>> {
    const { manager, tenantId } = tenantScope();
    const rows: { endpoint_id: string; error: string }[] = await manager.query(
      `SELECT e.id AS endpoint_id, a.error FROM unnest($2::uuid[]) AS e(id),
              LATERAL (SELECT error FROM webhook_attempts
                        WHERE tenant_id = $1 AND endpoint_id = e.id AND error IS NOT NULL
                        ORDER BY created_at DESC, id DESC LIMIT 1) a`,
      [tenantId, ids],
    );
    return new Map(rows.map((r) => [r.endpoint_id, r.error]));
  }

  /** The church's org_admins' addresses (who hears about its endpoints' health). */
  async orgAdminEmails(): Promise<string[]> {
    const { manager, tenantId } = tenantScope();
    const rows: { email: string }[] = await manager.query(
      `SELECT email FROM users WHERE tenant_id = $1 AND role = 'org_admin' ORDER BY email`,
      [tenantId],
    );
    return rows.map((r) => r.email);
  }

  listEndpoints(query: ListQuery): Promise<Page<WebhookEndpointEntity>> {
    const { repo, tenantId } = tenantScope(WebhookEndpointEntity);
    return fetchPage(repo.createQueryBuilder('w').where('w.tenant_id = :tenantId', { tenantId }), query, ENDPOINT_LIST);
  }

  async findEvent(id: string): Promise<WebhookEventEntity | null> {
    const { repo, tenantId } = tenantScope(WebhookEventEntity);
    return repo.findOneBy({ tenantId, id });
  }

  listEvents(query: ListQuery): Promise<Page<WebhookEventEntity>> {
    const { repo, tenantId } = tenantScope(WebhookEventEntity);
    return fetchPage(repo.createQueryBuilder('e').where('e.tenant_id = :tenantId', { tenantId }), query, EVENT_LIST);
  }

  listAttempts(endpointId: string, query: ListQuery): Promise<Page<WebhookAttemptEntity>> {
    const { repo, tenantId } = tenantScope(WebhookAttemptEntity);
    const qb = repo
      .createQueryBuilder('a')
      .where('a.tenant_id = :tenantId AND a.endpoint_id = :endpointId', { tenantId, endpointId });
    return fetchPage(qb, query, ATTEMPT_LIST);
  }

  /** An endpoint's attempts since `since`, counted per UTC day (YYYY-MM-DD) as succeeded (2xx in time) and failed. */
  async dailyAttemptCounts(
    endpointId: string,
    since: Date,
  ): Promise<{ day: string; succeeded: number; failed: number }[]> {
    const { manager, tenantId } = tenantScope();
    return manager.query(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
              count(*) FILTER (WHERE ok)::int AS succeeded,
              count(*) FILTER (WHERE NOT ok)::int AS failed
         FROM (SELECT created_at, coalesce(status_code BETWEEN 200 AND 299 AND error IS NULL, false) AS ok
                 FROM webhook_attempts
                WHERE tenant_id = $1 AND endpoint_id = $2 AND created_at >= $3) a
        GROUP BY 1`,
      [tenantId, endpointId, since],
    );
  }

  /** New pending deliveries of existing events to one endpoint (resend, backfill); returns their ids. */
  async insertDeliveries(endpointId: string, eventIds: string[], ids: string[]): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query(
      `INSERT INTO webhook_deliveries (tenant_id, id, endpoint_id, event_id, next_attempt_at)
       SELECT $1, d.id, $2, d.event_id, now() FROM unnest($3::uuid[], $4::uuid[]) AS d(id, event_id)`,
      [tenantId, endpointId, ids, eventIds],
    );
  }

  async eventIdsInRange(type: string, from: Date, to: Date, limit: number): Promise<string[]> {
    const { manager, tenantId } = tenantScope();
    const rows: { id: string }[] = await manager.query(
      `SELECT id FROM webhook_events WHERE tenant_id = $1 AND type = $2 AND created_at >= $3 AND created_at < $4 ORDER BY created_at, id LIMIT $5`,
      [tenantId, type, from, to, limit],
    );
    return rows.map((r) => r.id);
  }
}
