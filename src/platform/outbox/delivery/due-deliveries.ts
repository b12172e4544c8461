import { Injectable } from '@nestjs/common';
import { Database } from '../../../database/database.service';
import { DUE_AT } from './delivery-book';
import type { DeliveryRef } from './delivery-queue';

/** Pending deliveries across churches whose time has come (a platform read, on the due index). */
@Injectable()
export class DueDeliveries {
  constructor(private readonly db: Database) {}

  async find(overdueMs: number, limit: number): Promise<DeliveryRef[]> {
    const rows: { tenant_id: string; id: string; endpoint_id: string; attempts: number }[] =
      await this.db.platform.query(
        `SELECT tenant_id, id, endpoint_id, attempts FROM webhook_deliveries d
        WHERE status = 'pending' AND next_attempt_at <= now() - make_interval(secs => $1::float8 / 1000)
          AND ${DUE_AT} <= now() - make_interval(secs => $1::float8 / 1000)
        ORDER BY next_attempt_at LIMIT $2`,
        [overdueMs, limit],
      );
    return rows.map((r) => ({
      tenantId: r.tenant_id,
      deliveryId: r.id,
      endpointId: r.endpoint_id,
      attempt: r.attempts,
    }));
  }

  /** Health notices no transaction took (a crash between the batch and its notice), by church. */
  async staleNotices(olderThanMs: number, limit: number): Promise<Map<string, string[]>> {
    const rows: { tenant_id: string; endpoint_id: string }[] = await this.db.platform.query(
      `SELECT tenant_id, endpoint_id FROM webhook_endpoint_health
        WHERE notice IS NOT NULL AND notice_at <= now() - make_interval(secs => $1::float8 / 1000)
        ORDER BY notice_at LIMIT $2`,
      [olderThanMs, limit],
    );
    const byTenant = new Map<string, string[]>();
    for (const r of rows) byTenant.set(r.tenant_id, [...(byTenant.get(r.tenant_id) ?? []), r.endpoint_id]);
    return byTenant;
  }
}
