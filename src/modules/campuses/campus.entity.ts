import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';

@Entity('campuses')
export class CampusEntity extends TenantScopedEntity {
  @Column('text') key: string;
  @Column('text') name: string;
  @Column('text', { nullable: true }) timezone: string | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
