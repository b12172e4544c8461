import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';

export const FUND_NAME_MAX = 100;

@Entity('funds')
export class FundEntity extends TenantScopedEntity {
  @Column('text') name: string;
  @Column('text', { nullable: true }) description: string | null;
  /** The church's chart-of-accounts code, for the treasurer's export. */
  @Column('text', { nullable: true }) ledgerCode: string | null;
  /** An archived fund (false) takes no new gifts and keeps its history. */
  @Column('boolean') active: boolean;
  /** Gifts to it appear on year-end statements. */
  @Column('boolean') taxDeductible: boolean;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
