import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';

export interface EventPayload {
  id: string;
  type: string;
  created: number;
  tenant: string;
  api_version: string;
  /** `previous_attributes` on `*.updated` events only. */
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
}

/** The outbox: one row per event, written in the transaction of the change that raised it. */
@Entity('webhook_events')
export class WebhookEventEntity extends TenantScopedEntity {
  @Column('text') type: string;
  @Column('json') payload: EventPayload;
  @Column('timestamptz') createdAt: Date;
}
