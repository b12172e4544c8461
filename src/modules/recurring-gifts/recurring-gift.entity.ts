import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';
import { BIGINT_NUMBER } from '../donations/donation.entity';
import type { Interval } from './schedule';

export const RECURRING_STATUSES = ['active', 'paused', 'canceled'] as const;
export type RecurringStatus = (typeof RECURRING_STATUSES)[number];

@Entity('recurring_gifts')
export class RecurringGiftEntity extends TenantScopedEntity {
  /** A member (members.id). */
  @Column('uuid') donorId: string;
  @Column('uuid') fundId: string;
  @Column('bigint', { transformer: BIGINT_NUMBER }) amount: number;
  @Column('text') currency: string;
  @Column('text') interval: Interval;
  /** YYYY-MM-DD (a `date` column read as a string). */
  @Column('date') startOn: string;
  @Column('date', { nullable: true }) endOn: string | null;
  @Column('text') status: RecurringStatus;
  @Column('timestamptz', { nullable: true }) canceledAt: Date | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
