import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';

export const EVENT_STATUSES = ['scheduled', 'canceled'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** A calendar event (table `events`); `registrationCount` is kept under the event's row lock. */
@Entity('events')
export class EventEntity extends TenantScopedEntity {
  @Column('text') name: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text', { nullable: true }) location: string | null;
  @Column('uuid', { nullable: true }) campusId: string | null;
  /** IANA name, e.g. America/Mexico_City. */
  @Column('text') timezone: string;
  @Column('timestamptz') startsAt: Date;
  @Column('timestamptz') endsAt: Date;
  /** Null: unlimited. */
  @Column('integer', { nullable: true }) capacity: number | null;
  @Column('boolean') registrationOpen: boolean;
  @Column('text') status: EventStatus;
  @Column('integer') registrationCount: number;
  @Column('timestamptz', { nullable: true }) canceledAt: Date | null;
  @Column('text', { nullable: true }) cancelReason: string | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
  @Column('timestamptz', { nullable: true }) deletedAt: Date | null;
}
