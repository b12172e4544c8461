import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';
import { BIGINT_NUMBER } from '../donations/donation.entity';

@Entity('pledges')
export class PledgeEntity extends TenantScopedEntity {
  /** A member (members.id). */
  @Column('uuid') donorId: string;
  @Column('uuid') fundId: string;
  @Column('bigint', { transformer: BIGINT_NUMBER }) amount: number;
  @Column('text') currency: string;
  /** YYYY-MM-DD (`date` columns read as strings); the window includes both days. */
  @Column('date') startsOn: string;
  @Column('date') endsOn: string;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
  @Column('timestamptz', { nullable: true }) deletedAt: Date | null;
}
