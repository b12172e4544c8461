import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';
import type { Address } from '../members/member.entity';

/** A household; its members are the members whose household_id names it (members.household_id, household_role). */
@Entity('households')
export class HouseholdEntity extends TenantScopedEntity {
  @Column('text') name: string;
  @Column('jsonb', { nullable: true }) address: Address | null;
  @Column('uuid', { nullable: true }) primaryContactId: string | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
  @Column('timestamptz', { nullable: true }) deletedAt: Date | null;
}
