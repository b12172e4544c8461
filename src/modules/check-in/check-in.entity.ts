import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';

/** One household visit at a kiosk: the people checked in together and the code that checks them out. */
@Entity('check_ins')
export class CheckInEntity extends TenantScopedEntity {
  @Column('uuid') eventId: string;
  /** The event's local date at check-in (YYYY-MM-DD): codes are unique per church per day. */
  @Column('date') day: string;
  @Column('text') securityCode: string;
  @Column('uuid', { array: true }) memberIds: string[];
  @Column('uuid', { nullable: true }) deviceId: string | null;
  @Column('uuid', { nullable: true }) tokenId: string | null;
  @Column('timestamptz', { nullable: true }) checkedOutAt: Date | null;
  @Column('uuid', { nullable: true }) checkedOutDeviceId: string | null;
  @Column('uuid', { nullable: true }) checkedOutTokenId: string | null;
  /** Wrong check-out codes counted toward the lock (CHECKOUT_LOCK); a check-out or a lock that ran out starts again. */
  @Column('int') checkoutFailures: number;
  /** Until when check-out is refused (423 `checkout_locked`), once the count reached the limit; else null. */
  @Column('timestamptz', { nullable: true }) checkoutLockedUntil: Date | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
