import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';
import type { CurrencyCode } from '../../common/money/currencies';

/** One currency's sums on a statement, in minor units: what was given, refunded, and what counts (net). */
export interface StatementTotal {
  currency: CurrencyCode;
  amount: number;
  refunded: number;
  net: number;
}

/**
 * A year-end statement of one donor, or of a household whose members gave (joint): exactly one
 * per recipient and year (unique index); a later run of the year re-issues it in place. The PDF is
 * stored as issued (`pdf`, never selected by lists).
 */
@Entity('statements')
export class StatementEntity extends TenantScopedEntity {
  /** The run that issued it last. */
  @Column('uuid') runId: string;
  @Column('integer') year: number;
  /** The donor of an individual statement (null on a household's). */
  @Column('uuid', { nullable: true }) memberId: string | null;
  /** The household of a joint statement (null on a donor's). */
  @Column('uuid', { nullable: true }) householdId: string | null;
  /** Generated: household_id, else member_id. */
  @Column({ type: 'uuid', insert: false, update: false }) recipientId: string;
  /** The name printed on it (the donor's or the household's). */
  @Column('text') recipientName: string;
  @Column('jsonb') totals: StatementTotal[];
  @Column('integer') giftCount: number;
  @Column({ type: 'bytea', select: false }) pdf: Buffer;
  /** When it was first issued. */
  @Column('timestamptz') createdAt: Date;
  /** When it was last issued. */
  @Column('timestamptz') updatedAt: Date;
}
