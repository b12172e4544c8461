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

  async updateEndpoint(id: string, changes: Partial<WebhookEndpointEntity>): Promise<void> {
    const { repo, tenantId } = tenantScope(WebhookEndpointEntity);
    await repo.update({ tenantId, id }, changes);
  }

  async deleteEndpoint(id: string): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query('DELETE FROM webhook_endpoints WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
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
