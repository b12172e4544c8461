import { Injectable, Logger } from '@nestjs/common';
import { DEFAULT_LANGUAGE } from '../../common/i18n/language';
import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import { Database } from '../../database/database.service';
import { BackgroundJob, JobContext, JobHandler } from '../../platform/jobs/background-job';
import { QUEUES } from '../../platform/jobs/queues';
import { MailerService } from '../../platform/mail/mailer.service';
import { TokenExpiryNotice, tokenExpiryMail, tokenExpiryPush } from './token-expiry.template';
import { PushService, userTopic } from '../../platform/push/push.service';

export const EXPIRY_NOTICE_DAYS = 14;
const BATCH_SIZE = 500;
const MAX_BATCHES_PER_RUN = 100;

interface ClaimedToken {
  tenant_id: string;
  id: string;
  type: 'pat' | 'service';
  name: string;
  token_prefix: string;
  last4: string;
  expires_at: Date;
  owner_id: string;
  email: string;
  church_name: string;
  church_slug: string;
}

/*
 * Claims (marks notified) in one statement, so that concurrent or repeated runs never pick the same
 * token: SKIP LOCKED passes rows another run is claiming, and the re-checked `IS NULL` drops rows
 * it has just claimed. The owner is the PAT's user, or the service token's creator.
 */
const CLAIM_SQL = `
  WITH due AS (
    SELECT tenant_id, id, coalesce(user_id, created_by) AS owner_id
    FROM api_tokens
    WHERE type IN ('pat', 'service')
      AND revoked_at IS NULL
      AND expiry_notified_at IS NULL
      AND expires_at > now() AND expires_at <= now() + make_interval(days => $1)
      AND coalesce(user_id, created_by) IS NOT NULL
    ORDER BY expires_at
    LIMIT $2
    FOR UPDATE SKIP LOCKED
  )
  UPDATE api_tokens t
  SET expiry_notified_at = now()
  FROM due
  JOIN users u ON u.tenant_id = due.tenant_id AND u.id = due.owner_id
  JOIN tenants c ON c.id = due.tenant_id
  WHERE t.tenant_id = due.tenant_id AND t.id = due.id AND t.expiry_notified_at IS NULL
  RETURNING t.tenant_id, t.id, t.type, t.name, t.token_prefix, t.last4, t.expires_at, due.owner_id, u.email,
            c.name AS church_name, c.slug AS church_slug`;

const COUNT_DUE_SQL = `
  SELECT count(*)::int AS due FROM api_tokens
  WHERE type IN ('pat', 'service') AND revoked_at IS NULL AND expiry_notified_at IS NULL
    AND expires_at > now() AND expires_at <= now() + make_interval(days => $1)
    AND coalesce(user_id, created_by) IS NOT NULL`;

const RELEASE_SQL = `
  UPDATE api_tokens SET expiry_notified_at = NULL
  WHERE (tenant_id, id) IN (SELECT * FROM unnest($1::uuid[], $2::uuid[]))`;

/**
 * The `token-expiry` job (daily, see DailyJobs): tells the owner of every PAT and service
 * token that expires within 14 days, once per token, by e-mail (through the mail outbox) and push.
 * A platform job: it works across all churches, on the pool's own role (platform_access policies).
 *
 * A token is claimed before its notice goes out; when that fails the claim is released and the run
 * throws, so that the job fails visibly and its retry notifies the rest. Progress: tokens notified
 * of those due when the run started.
 */
@BackgroundJob({ kind: QUEUES.tokenExpiry, maxAttempts: 3 })
@Injectable()
export class TokenExpiryNotifier implements JobHandler<Record<string, never>> {
  private readonly logger = new Logger('TokenExpiryNotifier');

  constructor(
    private readonly db: Database,
    private readonly mailer: MailerService,
    private readonly push: PushService,
  ) {}

  async run(context?: Pick<JobContext<unknown>, 'progress'>): Promise<{ notified: number }> {
    let notified = 0;
    const [{ due }] = await this.db.platform.query<{ due: number }[]>(COUNT_DUE_SQL, [EXPIRY_NOTICE_DAYS]);
    await context?.progress(0, due);
    for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
      const claimed = await this.claim();
      const failures: { token: ClaimedToken; error: unknown }[] = [];
      for (const token of claimed) {
        try {
          await this.notify(token);
          notified++;
        } catch (error) {
          failures.push({ token, error });
        }
      }
      await context?.progress(notified, Math.max(due, notified));
      if (failures.length) {
        await this.release(failures.map((f) => f.token));
        const detail = failures
          .slice(0, 5)
          .map(
            (f) =>
              `${toPublicId(ID_PREFIX.token, f.token.id)}: ${f.error instanceof Error ? f.error.message : String(f.error)}`,
          )
          .join('; ');
        throw new Error(
          `${failures.length} token expiry notice(s) failed and will be retried on the next run (${notified} sent): ${detail}`,
        );
      }
      if (claimed.length < BATCH_SIZE) break;
    }
    if (notified) this.logger.log(`Token expiry notices sent: ${notified}`);
    return { notified };
  }

  private async claim(): Promise<ClaimedToken[]> {
    // TypeORM answers an UPDATE with [rows, affected count].
    const [rows] = await this.db.platform.query<[ClaimedToken[], number]>(CLAIM_SQL, [EXPIRY_NOTICE_DAYS, BATCH_SIZE]);
    return rows;
  }

  private async release(tokens: ClaimedToken[]): Promise<void> {
    await this.db.platform.query(RELEASE_SQL, [tokens.map((t) => t.tenant_id), tokens.map((t) => t.id)]);
  }

  /** Mail first: it is the notice of record. A push failure after it queues the mail again on the retry. */
  private async notify(token: ClaimedToken): Promise<void> {
    const notice: TokenExpiryNotice = {
      tokenName: token.name,
      tokenType: token.type,
      display: `${token.token_prefix}…${token.last4}`,
      church: token.church_name,
      expiresAt: new Date(token.expires_at),
    };
    const lang = DEFAULT_LANGUAGE; // staff users have no language preference yet
    await this.mailer.enqueue(token.tenant_id, { to: token.email, ...tokenExpiryMail(notice, lang) });
    const owner = toPublicId(ID_PREFIX.user, token.owner_id);
    await this.push.send({
      target: { topic: userTopic(owner) },
      ...tokenExpiryPush(notice, lang),
      data: {
        type: 'token.expiring',
        token_id: toPublicId(ID_PREFIX.token, token.id),
        tenant: token.church_slug,
        expires_at: notice.expiresAt.toISOString(),
      },
    });
  }
}
