import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { RowLock, withLock } from '../../database/row-lock';
import { tenantScope } from '../../database/tenant-scope';
import { Channel, NotificationEntity, StoredAudience } from './notification.entity';
import { NOTIFICATION_LIST } from './notifications.list';

/** One recipient of a batch: what the sends need. */
export interface RecipientRow {
  member_id: string;
  first_name: string;
  email: string | null;
  tokens: string[];
}

/** A (member, channel) this run claimed: to send now. */
export interface Claimed {
  memberId: string;
  channel: Channel;
}

export interface Outcome extends Claimed {
  status: 'sent' | 'failed';
  error: string | null;
}

const FIRST_UUID = '00000000-0000-0000-0000-000000000000';

/**
 * The members of an audience, as SQL over `members m` ($1 tenant, $2 the audience's uuid(s)); deleted
 * members never. A member named by id and merged into another since the notification was queued is
 * its survivor (`merged_into` names the last one, CONTRACT §17).
 */
function audienceCondition(audience: StoredAudience): { sql: string; param: string | string[] } {
  switch (audience.kind) {
    case 'member_ids':
      return {
        sql: `(m.id = ANY($2::uuid[]) OR m.id IN (SELECT d.merged_into FROM members d
                WHERE d.tenant_id = m.tenant_id AND d.id = ANY($2::uuid[]) AND d.merged_into IS NOT NULL))`,
        param: audience.ids,
      };
    case 'tag':
      return {
        sql: 'EXISTS (SELECT 1 FROM member_tags t WHERE t.tenant_id = m.tenant_id AND t.tag_id = $2::uuid AND t.member_id = m.id)',
        param: audience.id,
      };
    case 'group_id':
      return {
        sql: 'EXISTS (SELECT 1 FROM group_members g WHERE g.tenant_id = m.tenant_id AND g.group_id = $2::uuid AND g.member_id = m.id)',
        param: audience.id,
      };
    case 'campus':
      return { sql: 'm.campus_id = $2::uuid', param: audience.id };
    case 'event_id':
      return {
        sql: 'EXISTS (SELECT 1 FROM event_registrations r WHERE r.tenant_id = m.tenant_id AND r.event_id = $2::uuid AND r.member_id = m.id)',
        param: audience.id,
      };
  }
}

/** counts plus $3..$8 (email sent, skipped, failed; push sent, skipped, failed). */
const ADD_COUNTS = `jsonb_build_object(
  'email', jsonb_build_object('sent', (counts->'email'->>'sent')::int + $3::int, 'skipped', (counts->'email'->>'skipped')::int + $4::int, 'failed', (counts->'email'->>'failed')::int + $5::int),
  'push', jsonb_build_object('sent', (counts->'push'->>'sent')::int + $6::int, 'skipped', (counts->'push'->>'skipped')::int + $7::int, 'failed', (counts->'push'->>'failed')::int + $8::int))`;

type Delta = { channel: Channel; status: string }[];

/** The module's only database surface. Every query names the tenant (RLS enforces it too). */
@Injectable()
export class NotificationsRepository {
  async insert(notification: NotificationEntity): Promise<void> {
    await tenantScope(NotificationEntity).repo.insert(notification);
  }

  find(id: string, lock?: RowLock): Promise<NotificationEntity | null> {
    const { repo, tenantId } = tenantScope(NotificationEntity);
    return repo.findOne({ where: { tenantId, id }, ...withLock(lock) });
  }

  /** The notifications among `ids`, in one query. */
  async findMany(ids: string[]): Promise<NotificationEntity[]> {
    if (ids.length === 0) return [];
    const { repo, tenantId } = tenantScope(NotificationEntity);
    return repo.find({ where: { tenantId, id: In(ids) } });
  }

  async update(id: string, changes: Partial<NotificationEntity>): Promise<void> {
    const { repo, tenantId } = tenantScope(NotificationEntity);
    await repo.update({ tenantId, id }, { ...changes, updatedAt: new Date() });
  }

  list(query: ListQuery): Promise<Page<NotificationEntity>> {
    const { repo, tenantId } = tenantScope(NotificationEntity);
    return fetchPage(
      repo.createQueryBuilder('n').where('n.tenant_id = :tenantId', { tenantId }),
      query,
      NOTIFICATION_LIST,
    );
  }

  // --- references of an audience (POST) ------------------------------------------------------

  /** A tag by uuid or by name (ignoring case). */
  async tagId(uuid: string | null, name: string): Promise<string | null> {
    const { manager, tenantId } = tenantScope();
    const [row] = await manager.query<{ id: string }[]>(
      'SELECT id FROM tags WHERE tenant_id = $1 AND (id = $2::uuid OR lower(name) = lower($3)) LIMIT 1',
      [tenantId, uuid, name],
    );
    return row?.id ?? null;
  }

  async liveGroup(id: string): Promise<boolean> {
    const { manager, tenantId } = tenantScope();
    return (
      (
        await manager.query<unknown[]>('SELECT 1 FROM groups WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL', [
          tenantId,
          id,
        ])
      ).length > 0
    );
  }

  async liveEvent(id: string): Promise<boolean> {
    const { manager, tenantId } = tenantScope();
    return (
      (
        await manager.query<unknown[]>('SELECT 1 FROM events WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL', [
          tenantId,
          id,
        ])
      ).length > 0
    );
  }

  // --- the fan-out (job) ---------------------------------------------------------------------

  /** Fixes the audience: one recipient row per member it names now, in one statement. The number of recipients. */
  async resolveRecipients(notification: NotificationEntity): Promise<number> {
    const { manager, tenantId } = tenantScope();
    const { sql, param } = audienceCondition(notification.audience);
    await manager.query(
      `INSERT INTO notification_recipients (tenant_id, notification_id, member_id)
       SELECT m.tenant_id, $3, m.id FROM members m WHERE m.tenant_id = $1 AND m.deleted_at IS NULL AND ${sql}
       ON CONFLICT DO NOTHING`,
      [tenantId, param, notification.id],
    );
    const [{ count }] = await manager.query<{ count: number }[]>(
      'SELECT count(*)::int AS count FROM notification_recipients WHERE tenant_id = $1 AND notification_id = $2',
      [tenantId, notification.id],
    );
    return count;
  }

  /**
   * The next recipients after `after` (member uuid order) with their address and push tokens, in one query. A member
   * deleted since the audience was fixed has neither (skipped).
   */
  batch(notificationId: string, after: string | null, limit: number): Promise<RecipientRow[]> {
    const { manager, tenantId } = tenantScope();
    return manager.query(
      `SELECT r.member_id, m.first_name, CASE WHEN m.deleted_at IS NULL THEN m.email END AS email,
              CASE WHEN m.deleted_at IS NULL THEN coalesce((SELECT array_agg(p.token ORDER BY p.created_at, p.id) FROM member_push_tokens p
                                                            WHERE p.tenant_id = r.tenant_id AND p.member_id = r.member_id), '{}') ELSE '{}' END AS tokens
         FROM notification_recipients r JOIN members m ON m.tenant_id = r.tenant_id AND m.id = r.member_id
        WHERE r.tenant_id = $1 AND r.notification_id = $2 AND r.member_id > $3
        ORDER BY r.member_id LIMIT $4`,
      [tenantId, notificationId, after ?? FIRST_UUID, limit],
    );
  }

  /**
   * Records each (member, channel) of a batch before anything is sent: `skipped` for a member
   * without an address, else `sending`. A pair recorded already (by an earlier run) is left alone:
   * only the pairs this call inserted come back, and only those are sent. The skipped ones are
   * counted in the same transaction.
   */
  async claim(
    notificationId: string,
    rows: { memberId: string; channel: Channel; status: 'sending' | 'skipped' }[],
  ): Promise<Claimed[]> {
    if (!rows.length) return [];
    const { manager, tenantId } = tenantScope();
    const inserted = await manager.query<{ member_id: string; channel: Channel; status: string }[]>(
      `INSERT INTO notification_deliveries (tenant_id, notification_id, member_id, channel, status)
       SELECT $1, $2, u.member_id, u.channel, u.status FROM unnest($3::uuid[], $4::text[], $5::text[]) AS u(member_id, channel, status)
       ON CONFLICT DO NOTHING RETURNING member_id, channel, status`,
      [tenantId, notificationId, rows.map((r) => r.memberId), rows.map((r) => r.channel), rows.map((r) => r.status)],
    );
    await this.addCounts(notificationId, inserted);
    return inserted.filter((r) => r.status === 'sending').map((r) => ({ memberId: r.member_id, channel: r.channel }));
  }

  /** Records what the sends of a batch did and counts them, in one transaction. */
  async settle(notificationId: string, outcomes: Outcome[]): Promise<void> {
    if (!outcomes.length) return;
    const { manager, tenantId } = tenantScope();
    await manager.query(
      `UPDATE notification_deliveries d SET status = u.status, error = u.error, updated_at = now()
         FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[]) AS u(member_id, channel, status, error)
        WHERE d.tenant_id = $1 AND d.notification_id = $2 AND d.member_id = u.member_id AND d.channel = u.channel`,
      [
        tenantId,
        notificationId,
        outcomes.map((o) => o.memberId),
        outcomes.map((o) => o.channel),
        outcomes.map((o) => o.status),
        outcomes.map((o) => o.error),
      ],
    );
    await this.addCounts(notificationId, outcomes);
  }

  /** Counts these delivery outcomes on the notification (`sending` ones count nothing yet). */
  private async addCounts(notificationId: string, rows: Delta): Promise<void> {
    const { manager, tenantId } = tenantScope();
    const n = (channel: Channel, status: string) =>
      rows.filter((r) => r.channel === channel && r.status === status).length;
    const delta = [
      n('email', 'sent'),
      n('email', 'skipped'),
      n('email', 'failed'),
      n('push', 'sent'),
      n('push', 'skipped'),
      n('push', 'failed'),
    ];
    if (delta.every((d) => d === 0)) return;
    await manager.query(
      `UPDATE notifications SET counts = ${ADD_COUNTS}, updated_at = now() WHERE tenant_id = $1 AND id = $2`,
      [tenantId, notificationId, ...delta],
    );
  }

  /**
   * Sends claimed by a run that died before it recorded their outcome: whether they left is not
   * known, so they are not sent again (a notification is sent at most once per recipient and
   * channel) and are counted failed.
   */
  async failInterrupted(notificationId: string): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query(
      `UPDATE notification_deliveries SET status = 'failed', error = 'interrupted: the worker stopped during the send', updated_at = now()
        WHERE tenant_id = $1 AND notification_id = $2 AND status = 'sending'`,
      [tenantId, notificationId],
    );
    await this.recount(notificationId);
  }

  /** counts from the delivery rows (exact whatever happened before). */
  async recount(notificationId: string): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query(
      `UPDATE notifications n SET counts = c.counts, updated_at = now()
         FROM (SELECT jsonb_build_object(
                 'email', jsonb_build_object('sent', count(*) FILTER (WHERE channel = 'email' AND status = 'sent'),
                                             'skipped', count(*) FILTER (WHERE channel = 'email' AND status = 'skipped'),
                                             'failed', count(*) FILTER (WHERE channel = 'email' AND status = 'failed')),
                 'push', jsonb_build_object('sent', count(*) FILTER (WHERE channel = 'push' AND status = 'sent'),
                                            'skipped', count(*) FILTER (WHERE channel = 'push' AND status = 'skipped'),
                                            'failed', count(*) FILTER (WHERE channel = 'push' AND status = 'failed'))) AS counts
                 FROM notification_deliveries WHERE tenant_id = $1 AND notification_id = $2) c
        WHERE n.tenant_id = $1 AND n.id = $2`,
      [tenantId, notificationId],
    );
  }
}
