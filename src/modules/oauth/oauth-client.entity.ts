import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';

export type OAuthClientType = 'public' | 'confidential';

@Entity('oauth_clients')
export class OAuthClientEntity extends TenantScopedEntity {
  @Column('text') name: string;
  @Column('text') type: OAuthClientType;
  @Column('text', { array: true }) redirectUris: string[];
  @Column('text', { array: true }) scopes: string[];
  @Column('bytea', { nullable: true, select: false }) secretHash: Buffer | null;
  @Column('text', { nullable: true }) secretLast4: string | null;
  @Column('uuid', { nullable: true }) createdBy: string | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
  @Column('timestamptz', { nullable: true }) deletedAt: Date | null;
}
