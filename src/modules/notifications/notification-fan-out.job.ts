import { Injectable, Logger } from '@nestjs/common';
import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import { BackgroundJob, JobContext, JobFailure, JobHandler } from '../../platform/jobs/background-job';
import { QUEUES } from '../../platform/jobs/queues';
import { MailTransport } from '../../platform/mail/mail-transport';
import { PushService } from '../../platform/push/push.service';
import { TenantsService } from '../../platform/tenancy/tenants.service';
import { notificationMail, pushBody } from './notification.mail';
import type { Channel, NotificationEntity } from './notification.entity';
import { Claimed, NotificationsRepository, Outcome, RecipientRow } from './notifications.repository';

export const FAN_OUT_MAX_ATTEMPTS = 5;
/** Recipients per batch: one claim transaction, the sends at once, one settle transaction. */
export const RECIPIENTS_PER_BATCH = 100;
/** Pushes in flight at once. */
const PUSH_CONCURRENCY = 20;

export interface FanOutData {
  notificationId: string;
}

/**
 * The `notifications` job: sends one notification (job data: its id, nothing else).
 *
 * It fixes the audience (the recipient rows) when it starts, then walks the recipients in batches.
 * For each batch it first records, in one transaction, a delivery row per (member, channel) —
 * `skipped` for a member without an e-mail address or without push tokens, `sending` otherwise —
 * then sends what it recorded (e-mail over SMTP through nodemailer, push to each of the member's
 * tokens through the FCM-shaped gateway), then records the outcomes and the counts in one
 * transaction. A delivery row is never inserted twice (primary key), so a run that starts again
 * (a retry, another worker after a crash) skips what an earlier run recorded: nothing is sent
 * twice. A send that was in flight when its worker died is counted `failed`, not sent again.
 */
@BackgroundJob({ kind: QUEUES.notifications, maxAttempts: FAN_OUT_MAX_ATTEMPTS })
@Injectable()
export class NotificationFanOutJob implements JobHandler<FanOutData> {
  private readonly logger = new Logger('Notifications');

  constructor(
    private readonly notifications: NotificationsRepository,
    private readonly mailTransport: MailTransport,
    private readonly push: PushService,
    private readonly tenants: TenantsService,
  ) {}

  async run(context: JobContext<FanOutData>): Promise<{ recipients: number } | { skipped: string }> {
    const { notificationId } = context.data;
    const start = await context.inTenant(() => this.start(notificationId));
    if (typeof start === 'string') return { skipped: start };
    const { notification, church, total } = start;
    let done = 0;
    let after: string | null = null;
    await context.progress(done, total);
    for (;;) {
      const { rows, claimed } = await context.inTenant(() => this.claimBatch(notification, after));
      if (!rows.length) break;
      after = rows[rows.length - 1].member_id;
      const outcomes = await this.send(notification, church, rows, claimed);
      await context.inTenant(() => this.notifications.settle(notificationId, outcomes));
      done += rows.length;
      await context.progress(done, total);
    }
    await context.inTenant(async () => {
      await this.notifications.recount(notificationId);
      await this.notifications.update(notificationId, { status: 'sent', sentAt: new Date(), lastError: null });
    });
    this.logger.log(`notification ${toPublicId(ID_PREFIX.notification, notificationId)}: ${total} recipients`);
    return { recipients: total };
  }

  /** A failed attempt: the notification shows the error (its status stays as it was: a retry goes on from there). */
  async onFailure(context: JobContext<FanOutData>, { message }: JobFailure): Promise<void> {
    await context.inTenant(() =>
      this.notifications.update(context.data.notificationId, { lastError: message.slice(0, 2000) }),
    );
  }

  /**
   * Locks the notification (a cancel waits, or has happened); a queued one gets its recipients and
   * becomes `sending`. One already sending (a restart) keeps the recipients it had.
   */
  private async start(
    id: string,
  ): Promise<{ notification: NotificationEntity; church: string; total: number } | string> {
    const notification = await this.notifications.find(id, 'for_no_key_update');
    if (!notification) return 'no such notification';
    if (notification.status === 'canceled') return 'canceled';
    if (notification.status === 'sent') return 'sent already';
    if (notification.status === 'queued') {
      const recipients = await this.notifications.resolveRecipients(notification);
      await this.notifications.update(id, { status: 'sending', recipients });
      notification.recipients = recipients;
    } else {
      await this.notifications.failInterrupted(id);
    }
    return { notification, church: await this.tenants.currentName(), total: notification.recipients ?? 0 };
  }

  /** The next recipients and the (member, channel) pairs of theirs that this run claims. */
  private async claimBatch(
    notification: NotificationEntity,
    after: string | null,
  ): Promise<{ rows: RecipientRow[]; claimed: Claimed[] }> {
    const rows = await this.notifications.batch(notification.id, after, RECIPIENTS_PER_BATCH);
    const has = (row: RecipientRow, channel: Channel) => (channel === 'email' ? !!row.email : row.tokens.length > 0);
    const pairs = rows.flatMap((row) =>
      notification.channels.map((channel) => ({
        memberId: row.member_id,
        channel,
        status: has(row, channel) ? ('sending' as const) : ('skipped' as const),
      })),
    );
    return { rows, claimed: await this.notifications.claim(notification.id, pairs) };
  }

  /** Sends the claimed pairs of a batch; each outcome is recorded, none thrown. */
  private async send(
    notification: NotificationEntity,
    church: string,
    rows: RecipientRow[],
    claimed: Claimed[],
  ): Promise<Outcome[]> {
    const byId = new Map(rows.map((r) => [r.member_id, r]));
    const publicId = toPublicId(ID_PREFIX.notification, notification.id);
    const mails = claimed.filter((c) => c.channel === 'email');
    const pushes = claimed.filter((c) => c.channel === 'push');
    const [mailOutcomes, pushOutcomes] = await Promise.all([
      Promise.all(
        mails.map((c) => this.mail(notification, church, byId.get(c.memberId)!).then((error) => outcome(c, error))),
      ),
      inBatches(pushes, PUSH_CONCURRENCY, (c) =>
        this.pushTo(notification, publicId, byId.get(c.memberId)!.tokens).then((error) => outcome(c, error)),
      ),
    ]);
    return [...mailOutcomes, ...pushOutcomes];
  }

  /** Null when sent; else why not. */
  private async mail(notification: NotificationEntity, church: string, row: RecipientRow): Promise<string | null> {
    const mail = notificationMail(
      { title: notification.title, body: notification.body, firstName: row.first_name, church },
      notification.language,
    );
    if (!this.mailTransport.enabled) {
      this.logger.log(
        `SMTP_URL unset, notification mail not sent: to member ${toPublicId(ID_PREFIX.member, row.member_id)}`,
      );
      return null;
    }
    try {
      await this.mailTransport.send({ to: row.email!, subject: mail.subject, text: mail.text });
      return null;
    } catch (error) {
      return error instanceof Error ? error.message.slice(0, 500) : String(error);
    }
  }

  /** Null when at least one of the member's devices took it; else the last refusal. */
  private async pushTo(notification: NotificationEntity, publicId: string, tokens: string[]): Promise<string | null> {
    let lastError = 'no device took it';
    let sent = false;
    for (const token of tokens) {
      try {
        await this.push.send({
          target: { token },
          title: notification.title,
          body: pushBody(notification.body),
          data: { notification_id: publicId },
        });
        sent = true;
      } catch (error) {
        lastError = error instanceof Error ? error.message : String(error);
      }
    }
    return sent ? null : lastError.slice(0, 500);
  }
}

function outcome(claimed: Claimed, error: string | null): Outcome {
  return { ...claimed, status: error === null ? 'sent' : 'failed', error };
}

/** `fn` over `items`, at most `size` at once, results in order. */
async function inBatches<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return results;
}
