import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';

@Entity('audit_log')
export class AuditEntryEntity extends TenantScopedEntity {
  @Column('uuid', { nullable: true }) tokenId: string | null;
  @Column('text', { nullable: true }) tokenName: string | null;
  @Column('uuid', { nullable: true }) userId: string | null;
  @Column('text') action: string;
  @Column('text', { nullable: true }) resourceType: string | null;
  @Column('text', { nullable: true }) resourceId: string | null;
  @Column('integer') status: number;
  @Column('text', { nullable: true }) requestId: string | null;
  @Column('inet', { nullable: true }) ip: string | null;
  @Column('timestamptz') createdAt: Date;
}
