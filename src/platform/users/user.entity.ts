import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';
import type { Role } from '../auth/scopes';

@Entity('users')
export class UserEntity extends TenantScopedEntity {
  @Column('text') email: string;
  @Column('text', { nullable: true }) name: string | null;
  @Column('text') role: Role;
  @Column('text', { nullable: true, select: false }) passwordHash: string | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
