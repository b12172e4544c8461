import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';

@Entity('webhook_attempts')
export class WebhookAttemptEntity extends TenantScopedEntity {
  @Column('uuid') deliveryId: string;
  @Column('uuid') endpointId: string;
  @Column('uuid') eventId: string;
  @Column('integer') attempt: number;
  @Column('integer', { nullable: true }) statusCode: number | null;
  @Column('integer') durationMs: number;
  @Column('text', { nullable: true }) error: string | null;
  @Column('timestamptz') createdAt: Date;
}
