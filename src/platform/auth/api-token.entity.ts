import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';

export type ApiTokenType = 'pat' | 'service' | 'kiosk' | 'oauth';

@Entity('api_tokens')
export class ApiTokenEntity extends TenantScopedEntity {
  @Column('text') type: ApiTokenType;
  @Column('text') name: string;
  @Column('text', { array: true }) scopes: string[];
  @Column('bytea', { select: false }) tokenHash: Buffer;
  @Column('text') tokenPrefix: string;
  @Column('text') last4: string;
  @Column('uuid', { nullable: true }) userId: string | null;
  @Column('uuid', { nullable: true }) createdBy: string | null;
  @Column('uuid', { nullable: true }) deviceId: string | null;
  /** The token that created this one (revoking it revokes this one too). */
  @Column('uuid', { nullable: true }) createdByTokenId: string | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz', { nullable: true }) expiresAt: Date | null;
  @Column('timestamptz', { nullable: true }) revokedAt: Date | null;
  @Column('timestamptz', { nullable: true }) lastUsedAt: Date | null;
}
