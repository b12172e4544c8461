import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';
import { BIGINT_NUMBER } from './donation.entity';

/** One refund of a donation (history); the donation's `refunded_amount` is their sum. */
@Entity('donation_refunds')
export class DonationRefundEntity extends TenantScopedEntity {
  @Column('uuid') donationId: string;
  @Column('bigint', { transformer: BIGINT_NUMBER }) amount: number;
  /** The processor's refund id (`re_…`) when the processor made it; unique per church. */
  @Column('text', { nullable: true }) processorRefundId: string | null;
  @Column('timestamptz') createdAt: Date;
}
