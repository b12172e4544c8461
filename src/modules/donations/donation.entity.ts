import { Column, Entity, ValueTransformer } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';

export const DONATION_METHODS = ['cash', 'check', 'card', 'ach', 'online', 'other'] as const;
export const DONATION_STATUSES = [
  'succeeded',
  'pending',
  'refunded',
  'partially_refunded',
  'disputed',
  'failed',
] as const;
export type DonationMethod = (typeof DONATION_METHODS)[number];
export type DonationStatus = (typeof DONATION_STATUSES)[number];

/** The states whose money the church keeps (less refunds): what pledges, statements and reports count. */
export const GIVEN_STATUSES: readonly DonationStatus[] = ['succeeded', 'partially_refunded', 'refunded'];

/**
 * A donation's net given amount in SQL, for the donations table under `alias`: its amount less its
 * refunds when it succeeded (fully or partly refunded included), 0 when it is pending, disputed or
 * failed. Pledges' `given`, statements and giving reports all count with this one expression.
 */
export function netGivenSql(alias = 'd'): string {
  return `(CASE WHEN ${alias}.status IN ('succeeded', 'partially_refunded', 'refunded') THEN ${alias}.amount - ${alias}.refunded_amount ELSE 0 END)`;
}

/** netGivenSql for the alias `d` (`FROM donations d`). */
export const NET_GIVEN_SQL = netGivenSql('d');

/** bigint columns read as numbers: every amount is at most 100,000,000 per gift, sums stay far below 2^53. */
export const BIGINT_NUMBER: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};

/** What the processor said about a dispute (`charge.dispute.created`). */
export interface DonationDispute {
  reason: string | null;
  status: string | null;
  amount: number | null;
}

/** How far after its entry (created_at) a gift may be received: a client's clock skew. The table's CHECK holds it. */
export const RECEIVED_AT_SLACK_MS = 5 * 60_000;

@Entity('donations')
export class DonationEntity extends TenantScopedEntity {
  @Column('bigint', { transformer: BIGINT_NUMBER }) amount: number;
  @Column('text') currency: string;
  @Column('uuid') fundId: string;
  /** The member who gave; null for an anonymous gift. */
  @Column('uuid', { nullable: true }) donorId: string | null;
  @Column('uuid', { nullable: true }) campusId: string | null;
  @Column('text') method: DonationMethod;
  @Column('text', { nullable: true }) checkNumber: string | null;
  @Column('timestamptz') receivedAt: Date;
  @Column('text', { nullable: true }) note: string | null;
  @Column('text') status: DonationStatus;
  @Column('uuid', { nullable: true }) batchId: string | null;
  @Column('uuid', { nullable: true }) recurringGiftId: string | null;
  /** The processor's payment id (Stripe's payment intent `pi_…`), unique per church. */
  @Column('text', { nullable: true }) processorId: string | null;
  /** The running sum of the refunds (donation_refunds), updated under the donation's row lock. */
  @Column('bigint', { transformer: BIGINT_NUMBER }) refundedAmount: number;
  @Column('jsonb', { nullable: true }) dispute: DonationDispute | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
