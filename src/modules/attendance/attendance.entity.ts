import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';

export const ATTENDANCE_KINDS = ['regular', 'guest', 'volunteer'] as const;
export type AttendanceKind = (typeof ATTENDANCE_KINDS)[number];

/** One person's attendance at one calendar event (at most one per member and event: a unique index). */
@Entity('attendance')
export class AttendanceEntity extends TenantScopedEntity {
  @Column('uuid') eventId: string;
  @Column('uuid') memberId: string;
  @Column('text') kind: AttendanceKind;
  @Column('timestamptz') checkedInAt: Date;
  /** The kiosk check-in (check_ins.id) that recorded it; null when recorded through /v1/attendance. */
  @Column('uuid', { nullable: true }) checkInId: string | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
