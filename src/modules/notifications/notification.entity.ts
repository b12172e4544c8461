import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';
import type { Language } from '../../common/i18n/language';

export const NOTIFICATION_STATUSES = ['queued', 'sending', 'sent', 'canceled'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];
export const CHANNELS = ['email', 'push'] as const;
export type Channel = (typeof CHANNELS)[number];

/** Who a notification goes to, as stored: one kind and the uuid(s) it names. */
export type StoredAudience =
  | { kind: 'member_ids'; ids: string[] }
  | { kind: 'tag'; id: string }
  | { kind: 'group_id'; id: string }
  | { kind: 'campus'; id: string }
  | { kind: 'event_id'; id: string };

export interface ChannelCounts {
  sent: number;
  skipped: number;
  failed: number;
}
export type Counts = Record<Channel, ChannelCounts>;

/**
 * One POST /v1/notifications. `status`, `recipients` and `counts` mirror the `notifications` job
 * that fans it out; `language` is the request's, the language of the e-mail's wrapper text.
 */
@Entity('notifications')
export class NotificationEntity extends TenantScopedEntity {
  @Column('text') title: string;
  @Column('text') body: string;
  @Column('text', { array: true }) channels: Channel[];
  @Column('jsonb') audience: StoredAudience;
  @Column('text') language: Language;
  @Column('text') status: NotificationStatus;
  @Column('timestamptz', { nullable: true }) scheduledAt: Date | null;
  @Column('integer', { nullable: true }) recipients: number | null;
  @Column('jsonb') counts: Counts;
  /** The last failure of the job (kept for staff; never returned). */
  @Column('text', { nullable: true }) lastError: string | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
  @Column('timestamptz', { nullable: true }) sentAt: Date | null;
  @Column('timestamptz', { nullable: true }) canceledAt: Date | null;
}

export const zeroCounts = (): Counts => ({
  email: { sent: 0, skipped: 0, failed: 0 },
  push: { sent: 0, skipped: 0, failed: 0 },
});
