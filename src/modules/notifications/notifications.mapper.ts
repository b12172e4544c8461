import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import type { NotificationResponse } from './dto/notification.response';
import type { NotificationEntity, StoredAudience } from './notification.entity';

function audienceOf(audience: StoredAudience): Record<string, string | string[]> {
  switch (audience.kind) {
    case 'member_ids':
      return { member_ids: audience.ids.map((id) => toPublicId(ID_PREFIX.member, id)) };
    case 'tag':
      return { tag: toPublicId(ID_PREFIX.tag, audience.id) };
    case 'group_id':
      return { group_id: toPublicId(ID_PREFIX.group, audience.id) };
    case 'campus':
      return { campus: toPublicId(ID_PREFIX.campus, audience.id) };
    case 'event_id':
      return { event_id: toPublicId(ID_PREFIX.event, audience.id) };
  }
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toNotificationResponse(n: NotificationEntity): NotificationResponse {
  return {
    id: toPublicId(ID_PREFIX.notification, n.id),
    title: n.title,
    body: n.body,
    channels: n.channels,
    audience: audienceOf(n.audience),
    status: n.status,
    scheduled_at: iso(n.scheduledAt),
    recipients: n.recipients,
    counts: n.counts,
    created_at: n.createdAt.toISOString(),
    updated_at: n.updatedAt.toISOString(),
    sent_at: iso(n.sentAt),
    canceled_at: iso(n.canceledAt),
  };
}
