import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError, FieldIssue } from '../../common/errors/app-error';
import { ID_PREFIX, newUuid, parsePublicId } from '../../common/ids/id';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import { JobsService } from '../../platform/jobs/jobs.service';
import { QUEUES } from '../../platform/jobs/queues';
import { CampusesService } from '../campuses/campuses.service';
import { MemberLookup } from '../members/member-lookup';
import type { AudienceDto, CreateNotificationDto } from './dto/create-notification.dto';
import type { NotificationResponse } from './dto/notification.response';
import type { FanOutData } from './notification-fan-out.job';
import { CHANNELS, NotificationEntity, StoredAudience, zeroCounts } from './notification.entity';
import { NOTIFICATION_LIST } from './notifications.list';
import { toNotificationResponse } from './notifications.mapper';
import { NotificationsRepository } from './notifications.repository';

const AUDIENCE_KINDS = ['member_ids', 'tag', 'group_id', 'campus', 'event_id'] as const;
/** How far ahead a notification may be scheduled. */
const MAX_SCHEDULE_MS = 366 * 24 * 3600_000;

@Injectable()
export class NotificationsService {
  constructor(
    private readonly notifications: NotificationsRepository,
    private readonly campuses: CampusesService,
    private readonly jobs: JobsService,
    private readonly members: MemberLookup,
  ) {}

  /**
   * The notification row and its `notifications` job in the request's transaction (no notification
   * without its job), the job not before `scheduled_at`; handed to the worker after the commit.
   */
  async create(dto: CreateNotificationDto): Promise<NotificationResponse> {
    const issues: FieldIssue[] = [];
    const now = new Date();
    let scheduledAt: Date | null = null;
    if (dto.scheduled_at) {
      scheduledAt = new Date(dto.scheduled_at);
      const max = new Date(now.getTime() + MAX_SCHEDULE_MS);
      if (Number.isNaN(scheduledAt.getTime()))
        issues.push({
          field: 'scheduled_at',
          issue: 'invalid_format',
          params: { format: 'ISO 8601 with a time zone' },
        });
      else if (scheduledAt <= now || scheduledAt > max)
        issues.push({
          field: 'scheduled_at',
          issue: 'out_of_range',
          params: { min: now.toISOString(), max: max.toISOString() },
        });
    }
    const audience = await this.resolveAudience(dto.audience, issues);
    if (issues.length || !audience) throw AppError.validation(issues);
    const { tenantId, lang } = TenantContext.current();
    const notification = Object.assign(new NotificationEntity(), {
      tenantId,
      id: newUuid(),
      title: dto.title,
      body: dto.body,
      channels: CHANNELS.filter((c) => (dto.channels ?? CHANNELS).includes(c)),
      audience,
      language: lang,
      status: 'queued',
      scheduledAt,
      recipients: null,
      counts: zeroCounts(),
      lastError: null,
      createdAt: now,
      updatedAt: now,
      sentAt: null,
      canceledAt: null,
    } satisfies Partial<NotificationEntity>);
    await this.notifications.insert(notification);
    await this.jobs.enqueue(
      QUEUES.notifications,
      { notificationId: notification.id } satisfies FanOutData,
      scheduledAt ? { runAt: scheduledAt } : {},
    );
    return toNotificationResponse(notification);
  }

  async get(id: string): Promise<NotificationResponse> {
    const notification = await this.notifications.find(id);
    if (!notification) throw AppError.notFound('notification');
    return toNotificationResponse(notification);
  }

  /** The notifications among `ids` as GET returns them, by id (the changes feed's objects), in one query. */
  async getMany(ids: string[]): Promise<Map<string, NotificationResponse>> {
    return new Map((await this.notifications.findMany(ids)).map((n) => [n.id, toNotificationResponse(n)]));
  }

  async list(rawQuery: Record<string, unknown>): Promise<ListEnvelope<NotificationResponse>> {
    return toEnvelope(
      await this.notifications.list(parseListQuery(rawQuery, NOTIFICATION_LIST)),
      toNotificationResponse,
    );
  }

  /** Only a queued notification (its job has not started): the row lock orders a cancel and the job's start. */
  async cancel(id: string): Promise<NotificationResponse> {
    const notification = await this.notifications.find(id, 'for_no_key_update');
    if (!notification) throw AppError.notFound('notification');
    if (notification.status !== 'queued') {
      throw new AppError(
        'conflict',
        { reason: `the notification is ${notification.status}; only a queued notification can be canceled` },
        [{ field: 'status', issue: 'invalid' }],
      );
    }
    const now = new Date();
    await this.notifications.update(id, { status: 'canceled', canceledAt: now });
    return toNotificationResponse(Object.assign(notification, { status: 'canceled', canceledAt: now, updatedAt: now }));
  }

  /** The audience with uuids; a malformed or unknown reference (another church's too) is a 422 issue naming it. */
  private async resolveAudience(dto: AudienceDto, issues: FieldIssue[]): Promise<StoredAudience | null> {
    const given = AUDIENCE_KINDS.filter((k) => dto[k] !== undefined && dto[k] !== null);
    if (given.length !== 1) {
      issues.push({ field: 'audience', issue: 'invalid', params: { values: AUDIENCE_KINDS.join(', ') } });
      return null;
    }
    const notFound = (field: string) => {
      issues.push({ field: `audience.${field}`, issue: 'not_found' });
      return null;
    };
    switch (given[0]) {
      case 'member_ids': {
        const refs = dto.member_ids!;
        const uuids = refs.map((ref) => parsePublicId(ID_PREFIX.member, ref));
        // A member merged into another names the survivor (CONTRACT §17): the audience keeps the survivor.
        // Locked FOR KEY SHARE: a merge running meanwhile is waited for and followed.
        const live = await this.members.liveOrSurvivorIds(
          uuids.filter((u): u is string => u !== null),
          'for_key_share',
        );
        const ids = uuids.map((uuid, i) => {
          const id = uuid && live.get(uuid);
          if (!id) issues.push({ field: `audience.member_ids[${i}]`, issue: 'not_found' });
          return id;
        });
        return { kind: 'member_ids', ids: [...new Set(ids.filter((u): u is string => !!u))] };
      }
      case 'tag': {
        const id = await this.notifications.tagId(parsePublicId(ID_PREFIX.tag, dto.tag!), dto.tag!);
        return id ? { kind: 'tag', id } : notFound('tag');
      }
      case 'group_id': {
        const id = parsePublicId(ID_PREFIX.group, dto.group_id!);
        return id && (await this.notifications.liveGroup(id)) ? { kind: 'group_id', id } : notFound('group_id');
      }
      case 'campus': {
        const campus = (await this.campuses.resolveRefs([dto.campus!])).get(dto.campus!);
        return campus ? { kind: 'campus', id: campus.id } : notFound('campus');
      }
      case 'event_id': {
        const id = parsePublicId(ID_PREFIX.event, dto.event_id!);
        return id && (await this.notifications.liveEvent(id)) ? { kind: 'event_id', id } : notFound('event_id');
      }
    }
  }
}
