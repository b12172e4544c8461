import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Queue, QueueEvents } from 'bullmq';
import { ID_PREFIX, toPublicId } from '../../src/common/ids/id';
import { Database } from '../../src/database/database.service';
import { MaintenanceProcessor } from '../../src/platform/notices/maintenance.processor';
import { MAINTENANCE_QUEUE, TOKEN_EXPIRY_JOB, TOKEN_EXPIRY_SCHEDULER } from '../../src/platform/notices/maintenance.queue';
import { TokenExpiryNotifier } from '../../src/platform/notices/token-expiry.notifier';
import { WorkerModule } from '../../src/worker.module';
import { TestApi } from '../support/api';
import { newTenant, newToken, TestTenant } from '../support/factories';
import { FakePushGateway, FCM_SEND_PATH } from '../support/push-gateway';
import { TestSmtpServer } from '../support/smtp';
import { TEST_REDIS_URL } from '../support/test-env';

type IssuedToken = Awaited<ReturnType<typeof newToken>>;

/** The worker process as src/worker.ts starts it, configured by `env` on top of the test environment. */
async function startWorker(env: Record<string, string> = {}): Promise<INestApplicationContext> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const worker = await NestFactory.createApplicationContext(WorkerModule, { logger: ['error'] });
    await worker.get(Database).connect();
    await worker.get(MaintenanceProcessor).start();
    return worker;
  } finally {
    process.env = saved;
  }
}

describe('token expiry notices', () => {
  // Own BullMQ keys on the shared Redis, so that other runs' jobs and schedulers never meet these.
  const prefix = `test-${Date.now()}-${randomBytes(3).toString('hex')}`;
  let smtp: TestSmtpServer;
  let push: FakePushGateway;
  let api: TestApi;
  let worker: INestApplicationContext;
  let queue: Queue;
  let events: QueueEvents;
  let church: TestTenant;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    push = await FakePushGateway.start();
    const env = { SMTP_URL: smtp.url, PUSH_GATEWAY_URL: push.url, REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: prefix, MAIL_FROM: 'Church API <no-reply@church.test>' };
    api = await TestApi.start(env);
    worker = await startWorker(env);
    queue = new Queue(MAINTENANCE_QUEUE, { connection: { url: TEST_REDIS_URL }, prefix });
    events = new QueueEvents(MAINTENANCE_QUEUE, { connection: { url: TEST_REDIS_URL }, prefix });
    await events.waitUntilReady();
    church = await newTenant(api);
  });

  afterAll(async () => {
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await events?.close();
    await queue?.close();
    await worker?.close();
    await api?.close();
    await push?.close();
    await smtp?.close();
  });

  /** Adds a token-expiry job to the real queue and waits until the worker has finished it. */
  async function runJob(): Promise<{ notified: number }> {
    const job = await queue.add(TOKEN_EXPIRY_JOB, {});
    return job.waitUntilFinished(events, 30_000);
  }

  async function token(expiresIn: string | null, options: { name?: string; type?: 'pat' | 'service' | 'kiosk'; revoked?: boolean } = {}): Promise<IssuedToken & { expiresAt: Date | null }> {
    const type = options.type ?? 'pat';
    const issued = await newToken(api, church, type === 'kiosk' ? [] : ['read:members'], type === 'pat' ? 'staff' : 'org_admin', type);
    // TypeORM answers an UPDATE with [rows, affected count].
    const [[row]] = await api.db.platform.query<[{ expires_at: Date | null }[], number]>(
      `UPDATE api_tokens SET expires_at = CASE WHEN $2::interval IS NULL THEN expires_at ELSE now() + $2::interval END,
              name = coalesce($3, name), revoked_at = CASE WHEN $4 THEN now() END
       WHERE tenant_id = $1 AND id = $5 RETURNING expires_at`,
      [church.id, expiresIn, options.name ?? null, options.revoked ?? false, issued.uuid],
    );
    return { ...issued, expiresAt: row.expires_at };
  }

  async function notifiedAt(t: IssuedToken): Promise<Date | null> {
    const [row] = await api.db.platform.query<{ expiry_notified_at: Date | null }[]>('SELECT expiry_notified_at FROM api_tokens WHERE tenant_id = $1 AND id = $2', [church.id, t.uuid]);
    return row.expiry_notified_at;
  }

  const topicOf = (t: IssuedToken) => `user_${toPublicId(ID_PREFIX.user, t.user.id)}`;
  const longDate = (d: Date, lang = 'es') => new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(d);

  it('registers the daily job scheduler on the maintenance queue', async () => {
    const scheduler = await queue.getJobScheduler(TOKEN_EXPIRY_SCHEDULER);
    expect(scheduler).toMatchObject({ key: TOKEN_EXPIRY_SCHEDULER, name: TOKEN_EXPIRY_JOB, pattern: '0 8 * * *', tz: 'UTC' });
    const next = new Date(scheduler!.next!);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(86_400_000);
    expect([next.getUTCHours(), next.getUTCMinutes(), next.getUTCSeconds()]).toEqual([8, 0, 0]);
    expect(await queue.getJobSchedulers()).toHaveLength(1);
  });

  it('mails and pushes the owner of each PAT and service token that expires within 14 days, once', async () => {
    const soon = await token('13 days', { name: 'Zapier sync' });
    const later = await token('20 days');
    const revoked = await token('10 days', { revoked: true });
    const expired = await token('-1 day');
    const kiosk = await token(null, { type: 'kiosk' });
    const service = await token('5 days', { name: 'Nightly export', type: 'service' });
    expect(kiosk.expiresAt).toBeNull();

    const result = await runJob();
    expect(result.notified).toBeGreaterThanOrEqual(2);

    const [mail] = smtp.to(soon.user.email);
    expect(smtp.to(soon.user.email)).toHaveLength(1);
    expect(mail.from).toBe('no-reply@church.test');
    expect(mail.headers.from).toContain('no-reply@church.test');
    expect(mail.subject).toBe(`Tu token de API «Zapier sync» vence el ${longDate(soon.expiresAt!)}`);
    expect(mail.text).toContain('token de acceso personal «Zapier sync»');
    expect(mail.text).toContain(`${soon.token.slice(0, 4)}…${soon.token.slice(-4)}`);
    expect(mail.text).toContain(soon.expiresAt!.toISOString().slice(0, 10));
    expect(mail.text).toContain('Test Church');
    expect(mail.raw).not.toContain(soon.token);

    const [serviceMail] = smtp.to(service.user.email);
    expect(smtp.to(service.user.email)).toHaveLength(1);
    expect(serviceMail.subject).toContain('«Nightly export»');
    expect(serviceMail.text).toContain('token de servicio');
    expect(serviceMail.text).toContain(service.expiresAt!.toISOString().slice(0, 10));

    for (const quiet of [later, revoked, expired, kiosk]) {
      expect(smtp.to(quiet.user.email)).toEqual([]);
      expect(push.toTopic(topicOf(quiet))).toEqual([]);
      expect(await notifiedAt(quiet)).toBeNull();
    }
    expect(smtp.to(church.admin.email)).toEqual([]); // its admin:* service token expires in a year

    const pushes = push.requests.filter((r) => (r.body as { message: { topic: string } }).message.topic === topicOf(soon));
    expect(pushes).toHaveLength(1);
    expect(pushes[0]).toMatchObject({ method: 'POST', path: FCM_SEND_PATH, headers: { 'content-type': 'application/json' } });
    expect(pushes[0].body).toEqual({
      message: {
        topic: topicOf(soon),
        notification: { title: 'Tu token de API vence pronto', body: `«Zapier sync» (Test Church) vence el ${longDate(soon.expiresAt!)}.` },
        data: { type: 'token.expiring', token_id: soon.id, tenant: church.slug, expires_at: soon.expiresAt!.toISOString() },
      },
    });
    expect(push.toTopic(topicOf(service))).toHaveLength(1);
    expect(await notifiedAt(soon)).toBeInstanceOf(Date);
    expect(await notifiedAt(service)).toBeInstanceOf(Date);

    // The daily job runs again: nothing more for these tokens.
    const mails = smtp.messages.length;
    const pushed = push.requests.length;
    await runJob();
    expect(smtp.messages.length).toBe(mails);
    expect(push.requests.length).toBe(pushed);
  });

  it('notifies once when runs overlap', async () => {
    const t = await token('3 days', { name: 'Overlap' });
    const notifier = worker.get(TokenExpiryNotifier);
    await Promise.all([notifier.run(), notifier.run(), runJob(), runJob()]);
    expect(smtp.to(t.user.email)).toHaveLength(1);
    expect(push.toTopic(topicOf(t))).toHaveLength(1);
  });

  it('releases the claim when the mail is refused, fails the job, and notifies on the next run', async () => {
    const t = await token('7 days', { name: 'Bounced' });
    smtp.rejectRecipient = (address) => address === t.user.email;
    try {
      await expect(runJob()).rejects.toThrow(/1 token expiry notice\(s\) failed and will be retried/);
      expect(await notifiedAt(t)).toBeNull();
      expect(smtp.to(t.user.email)).toEqual([]);
      expect(push.toTopic(topicOf(t))).toEqual([]);
    } finally {
      smtp.rejectRecipient = () => false;
    }
    await runJob();
    expect(smtp.to(t.user.email)).toHaveLength(1);
    expect(push.toTopic(topicOf(t))).toHaveLength(1);
    expect(await notifiedAt(t)).toBeInstanceOf(Date);
  });

  it('releases the claim when the push gateway fails', async () => {
    const t = await token('8 days', { name: 'Push down' });
    push.status = 503;
    try {
      await expect(worker.get(TokenExpiryNotifier).run()).rejects.toThrow(/push gateway answered 503/);
      expect(await notifiedAt(t)).toBeNull();
    } finally {
      push.status = 200;
    }
    await runJob();
    expect(await notifiedAt(t)).toBeInstanceOf(Date);
    expect(push.toTopic(topicOf(t)).length).toBeGreaterThanOrEqual(1);
    // The mail went out before the push failed; the retry sends it again (at-least-once on failure).
    expect(smtp.to(t.user.email)).toHaveLength(2);
  });

  it('without REDIS_URL, SMTP_URL and PUSH_GATEWAY_URL: runs in-process at start, logs instead of sending', async () => {
    const t = await token('2 days', { name: 'Embedded' });
    const local = await startWorker({ REDIS_URL: '', SMTP_URL: '', PUSH_GATEWAY_URL: '' });
    try {
      const deadline = Date.now() + 15_000;
      while (!(await notifiedAt(t)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await notifiedAt(t)).toBeInstanceOf(Date);
      expect(smtp.to(t.user.email)).toEqual([]);
      expect(push.toTopic(topicOf(t))).toEqual([]);
    } finally {
      await local.close();
    }
  });
});
