import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';

export const MEETING_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export const GROUP_STATUSES = ['open', 'full', 'closed'] as const;
/** The statuses a client may write: `closed` is set only by POST /v1/groups/{id}/close. */
export const WRITABLE_GROUP_STATUSES = GROUP_STATUSES.filter((status) => status !== 'closed');
export type MeetingDay = (typeof MEETING_DAYS)[number];
export type GroupStatus = (typeof GROUP_STATUSES)[number];

@Entity('groups')
export class GroupEntity extends TenantScopedEntity {
  @Column('text') name: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('uuid', { nullable: true }) campusId: string | null;
  @Column('text', { nullable: true }) meetingDay: MeetingDay | null;
  /** HH:MM, 24-hour. */
  @Column('text', { nullable: true }) meetingTime: string | null;
  @Column('text', { nullable: true }) location: string | null;
  @Column('integer', { nullable: true }) capacity: number | null;
  @Column('text') status: GroupStatus;
  @Column('uuid', { nullable: true }) parentGroupId: string | null;
  /** Set exactly when status is `closed` (a CHECK holds it). */
  @Column('timestamptz', { nullable: true }) closedAt: Date | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
  @Column('timestamptz', { nullable: true }) deletedAt: Date | null;
}
