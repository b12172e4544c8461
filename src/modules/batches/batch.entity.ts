import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';
import { BIGINT_NUMBER } from '../donations/donation.entity';

export const BATCH_STATUSES = ['open', 'committed'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** Gifts entered together (a Sunday's envelopes); they are `pending` until the batch is committed. */
@Entity('batches')
export class BatchEntity extends TenantScopedEntity {
  @Column('text') description: string;
  /** What the counted envelopes add up to (minor units); a commit checks the gifts against it. */
  @Column('bigint', { nullable: true, transformer: BIGINT_NUMBER }) expectedTotal: number | null;
  /** Every gift of the batch is in this currency. */
  @Column('text') currency: string;
  @Column('text') status: BatchStatus;
  @Column('timestamptz', { nullable: true }) committedAt: Date | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
