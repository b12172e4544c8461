import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';

/** A registration to a calendar event: a member's, or a guest's (name and e-mail, no member). */
@Entity('event_registrations')
export class RegistrationEntity extends TenantScopedEntity {
  @Column('uuid') eventId: string;
  @Column('uuid', { nullable: true }) memberId: string | null;
  @Column('text', { nullable: true }) guestFirstName: string | null;
  @Column('text', { nullable: true }) guestLastName: string | null;
  @Column('text', { nullable: true }) guestEmail: string | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
