import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';

export interface EventPayload {
  id: string;
  type: string;
  created: number;
  tenant: string;
  api_version: string;
  /** Beside `object`: `previous_attributes` on `*.updated` events, `duplicate_id` on `member.merged`. */
  data: { object: unknown; [field: string]: unknown };
}

/** The outbox: one row per event, written in the transaction of the change that raised it. */
@Entity('webhook_events')
export class WebhookEventEntity extends TenantScopedEntity {
  @Column('text') type: string;
  @Column('json') payload: EventPayload;
  @Column('timestamptz') createdAt: Date;
}
