import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';
import type { Provider } from './payment-webhooks.path';

/** The church's connected payment processor (at most one). Secrets are sealed with SecretBox and never leave the module. */
@Entity('payment_processors')
export class PaymentProcessorEntity extends TenantScopedEntity {
  @Column('text') provider: Provider;
  @Column('bytea') apiKeySealed: Buffer;
  /** The `whsec_` secret the processor signs this church's events with. */
  @Column('bytea') webhookSecretSealed: Buffer;
  /** The processor's id of the inbound endpoint (`we_…`), deleted there on disconnect. */
  @Column('text') endpointId: string;
  @Column('text') accountLast4: string;
  @Column('timestamptz') connectedAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
