import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';

export const VISIBILITIES = ['private', 'staff', 'public'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

@Entity('prayer_requests')
export class PrayerRequestEntity extends TenantScopedEntity {
  @Column('text') request: string;
  @Column('uuid', { nullable: true }) memberId: string | null;
  @Column('text', { nullable: true }) name: string | null;
  @Column('text') visibility: Visibility;
  @Column('boolean') urgent: boolean;
  @Column('uuid', { nullable: true }) campusId: string | null;
  @Column('timestamptz', { nullable: true }) answeredAt: Date | null;
  @Column('text', { nullable: true }) answer: string | null;
  /** The staff user behind the token that created it (a PAT's owner, a service token's creator). */
  @Column('uuid', { nullable: true }) createdBy: string | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
  @Column('timestamptz', { nullable: true }) deletedAt: Date | null;
}
