import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';

/** A kiosk device; its API key is an api_tokens row of type kiosk. */
@Entity('devices')
export class DeviceEntity extends TenantScopedEntity {
  @Column('text') name: string;
  @Column('uuid', { nullable: true }) campusId: string | null;
  @Column('uuid', { nullable: true }) tokenId: string | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
