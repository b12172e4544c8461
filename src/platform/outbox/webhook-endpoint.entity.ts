import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';
import type { DeliveryFilter } from './delivery-filters';

@Entity('webhook_endpoints')
export class WebhookEndpointEntity extends TenantScopedEntity {
  @Column('text') url: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text', { array: true }) events: string[];
  @Column('jsonb') filters: DeliveryFilter[];
  @Column('text') status: 'enabled' | 'disabled';
  @Column('text', { nullable: true }) disabledReason: string | null;
  @Column('bytea', { select: false }) secretSealed: Buffer;
  @Column('bytea', { nullable: true, select: false }) previousSecretSealed: Buffer | null;
  @Column('timestamptz', { nullable: true }) previousSecretExpiresAt: Date | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
