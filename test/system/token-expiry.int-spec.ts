import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { QueueEvents } from 'bullmq';
import { ID_PREFIX, toPublicId } from '../../src/common/ids/id';
import { JobSweeper } from '../../src/platform/jobs/job-sweeper';
import { JobsService } from '../../src/platform/jobs/jobs.service';
import { QUEUES } from '../../src/platform/jobs/queues';
import { TokenExpiryNotifier } from '../../src/modules/api-tokens/token-expiry.notifier';
import { TestApi } from '../support/api';
import { newTenant, newToken, TestTenant } from '../support/factories';
import { FakePushGateway, FCM_SEND_PATH } from '../support/push-gateway';
import { TestSmtpServer } from '../support/smtp';
import { closeConnection, NO_REDIS_ENV, redisEnv, testQueueOptions } from '../support/redis';
import { startWorker } from '../support/worker';
import { sleep, waitFor } from '../support/wait';

type IssuedToken = Awaited<ReturnType<typeof newToken>>;
interface JobRow {
  status: string;
  attempts: number;
  total: number | null;
  done: number;
  result: { notified: number } | null;
  last_error: string | null;
}

describe('token expiry notices (a background job: BullMQ with Redis, in-process without)', () => {
  // Own BullMQ keys on the shared Redis, so that other runs' jobs never meet these.
  const prefix = `test-${Date.now()}-${randomBytes(3).toString('hex')}`;
  let smtp: TestSmtpServer;
  let push: FakePushGateway;
  let api: TestApi;
  let worker: INestApplicationContext;
  let events: QueueEvents;
  let church: TestTenant;
  const progress: { jobId: string; data: unknown }[] = [];

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    push = await FakePushGateway.start();
    const env = {
      SMTP_URL: smtp.url,
      PUSH_GATEWAY_URL: push.url,
      ...redisEnv(),
      QUEUE_PREFIX: prefix,
      MAIL_FROM: 'Church API <no-reply@church.test>',
      JOB_RETRY_BASE_MS: '200',
    };
    api = await TestApi.start(env);
    events = new QueueEvents(QUEUES.tokenExpiry, testQueueOptions(QUEUES.tokenExpiry, prefix));
    events.on('progress', ({ jobId, data }) => progress.push({ jobId, data }));
    await events.waitUntilReady();
    worker = await startWorker(env);
    church = await newTenant(api);
  });

  afterAll(async () => {
    await events?.close();
    if (events) closeConnection(events.opts.connection);
    await worker?.close();
    await api?.close();
    await push?.close();
    await smtp?.close();
  });

  const jobRow = async (id: string): Promise<JobRow> =>
    (
      await api.db.platform.query<JobRow[]>(
        'SELECT status, attempts, total, done, result, last_error FROM platform_jobs WHERE id = $1',
        [id],
      )
    )[0];

  /** Asks for a token-expiry job as any process would, and waits until the worker has finished it. */
  async function runJob(): Promise<JobRow & { id: string }> {
    const id = (await api.app.get(JobsService).enqueue(QUEUES.tokenExpiry, {}))!;
    const row = await waitFor(
      async () => {
        const r = await jobRow(id);
        return r.status === 'done' || (r.status === 'queued' && r.attempts > 0) || r.status === 'failed' ? r : null;
      },
      { what: `token-expiry job ${id} to finish`, timeout: 20_000 },
    );
    return { id, ...row };
  }

  /** Every mail to `address`, once the mail outbox has had time to send `count` of them. */
  const mailsTo = (address: string, count = 1) =>
    waitFor(() => smtp.to(address).length >= count, {
      what: `${count} mail(s) to ${address}`,
      timeout: 20_000,
    }).then(() => smtp.to(address));

  async function token(
    expiresIn: string | null,
    options: { name?: string; type?: 'pat' | 'service' | 'kiosk'; revoked?: boolean } = {},
  ): Promise<IssuedToken & { expiresAt: Date | null }> {
    const type = options.type ?? 'pat';
    const issued = await newToken(
      api,
      church,
      type === 'kiosk' ? [] : ['read:members'],
      type === 'pat' ? 'staff' : 'org_admin',
      type,
    );
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
    const [row] = await api.db.platform.query<{ expiry_notified_at: Date | null }[]>(
      'SELECT expiry_notified_at FROM api_tokens WHERE tenant_id = $1 AND id = $2',
      [church.id, t.uuid],
    );
    return row.expiry_notified_at;
  }

  const topicOf = (t: IssuedToken) => `user_${toPublicId(ID_PREFIX.user, t.user.id)}`;
  const longDate = (d: Date, lang = 'es') =>
    new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(d);

  it("asks for one job per UTC day at the worker's start, however many workers start", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const daily = () =>
      api.db.platform.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM platform_jobs WHERE kind = 'token-expiry' AND dedupe_key = $1`,
        [today],
      );
    expect(
      await waitFor(async () => (await daily())[0].n === 1, { what: 'one token-expiry job today', timeout: 20_000 }),
    ).toBe(true);
    const second = await startWorker({ ...redisEnv(), QUEUE_PREFIX: prefix });
    await second.close();
    expect(await daily()).toEqual([{ n: 1 }]);
  });

  it('mails and pushes the owner of each PAT and service token that expires within 14 days, once', async () => {
    const soon = await token('13 days', { name: 'Zapier sync' });
    const later = await token('20 days');
    const revoked = await token('10 days', { revoked: true });
    const expired = await token('-1 day');
    const kiosk = await token(null, { type: 'kiosk' });
    const service = await token('5 days', { name: 'Nightly export', type: 'service' });
    expect(kiosk.expiresAt).toBeNull();

    const job = await runJob();
    expect(job).toMatchObject({ status: 'done', attempts: 1, last_error: null });
    expect(job.result!.notified).toBeGreaterThanOrEqual(2);
    // Progress is on the row and went through BullMQ's job.updateProgress: all due tokens notified.
    expect(job.done).toBe(job.result!.notified);
    expect(job.total).toBe(job.done);
    expect(
      await waitFor(
        () =>
          progress.some(
            (p) =>
              p.jobId === job.id && JSON.stringify(p.data) === JSON.stringify({ done: job.done, total: job.total }),
          ),
        { what: 'the progress reported through BullMQ', timeout: 20_000 },
      ),
    ).toBe(true);

    const [mail] = await mailsTo(soon.user.email);
    expect(smtp.to(soon.user.email)).toHaveLength(1);
    expect(mail.from).toBe('no-reply@church.test');
    expect(mail.headers.from).toContain('no-reply@church.test');
    expect(mail.subject).toBe(`Tu token de API «Zapier sync» vence el ${longDate(soon.expiresAt!)}`);
    expect(mail.text).toContain('token de acceso personal «Zapier sync»');
    expect(mail.text).toContain(`${soon.token.slice(0, 4)}…${soon.token.slice(-4)}`);
    expect(mail.text).toContain(soon.expiresAt!.toISOString().slice(0, 10));
    expect(mail.text).toContain('Test Church');
    expect(mail.raw).not.toContain(soon.token);

    const [serviceMail] = await mailsTo(service.user.email);
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

    const pushes = push.requests.filter(
      (r) => (r.body as { message: { topic: string } }).message.topic === topicOf(soon),
    );
    expect(pushes).toHaveLength(1);
    expect(pushes[0]).toMatchObject({
      method: 'POST',
      path: FCM_SEND_PATH,
      headers: { 'content-type': 'application/json' },
    });
    expect(pushes[0].body).toEqual({
      message: {
        topic: topicOf(soon),
        notification: {
          title: 'Tu token de API vence pronto',
          body: `«Zapier sync» (Test Church) vence el ${longDate(soon.expiresAt!)}.`,
        },
        data: {
          type: 'token.expiring',
          token_id: soon.id,
          tenant: church.slug,
          expires_at: soon.expiresAt!.toISOString(),
        },
      },
    });
    expect(push.toTopic(topicOf(service))).toHaveLength(1);
    expect(await notifiedAt(soon)).toBeInstanceOf(Date);
    expect(await notifiedAt(service)).toBeInstanceOf(Date);

    // The daily job runs again: nothing more for these tokens.
    const mails = smtp.messages.length;
    const pushed = push.requests.length;
    expect((await runJob()).result).toEqual({ notified: 0 });
    await sleep(300);
    expect(smtp.messages.length).toBe(mails);
    expect(push.requests.length).toBe(pushed);
  });

  it('notifies once when runs overlap', async () => {
    const t = await token('3 days', { name: 'Overlap' });
    const notifier = worker.get(TokenExpiryNotifier);
    await Promise.all([notifier.run(), notifier.run(), runJob(), runJob()]);
    await mailsTo(t.user.email);
    await sleep(300);
    expect(smtp.to(t.user.email)).toHaveLength(1);
    expect(push.toTopic(topicOf(t))).toHaveLength(1);
  });

  it('a mail the SMTP server refuses stays in the mail outbox and its job retries it until it is delivered', async () => {
    const t = await token('7 days', { name: 'Bounced' });
    let refusals = 0;
    smtp.rejectRecipient = (address) => address === t.user.email && refusals++ < 2;
    try {
      expect(await runJob()).toMatchObject({ status: 'done' });
      expect(await notifiedAt(t)).toBeInstanceOf(Date); // the notice is queued: the claim stands
      const [mail] = await mailsTo(t.user.email);
      expect(mail.subject).toContain('«Bounced»');
      expect(refusals).toBe(3);
      // The SMTP server has the mail a moment before the job that sent it is marked done.
      const job = await waitFor(
        async () => {
          const [row] = await api.db.platform.query<
            { status: string; attempts: number; sent_at: Date | null; transport: string }[]
          >(
            `SELECT j.status, j.attempts, m.sent_at, m.transport FROM mail_outbox m JOIN platform_jobs j ON j.kind = 'mail' AND j.data->>'mailId' = m.id::text WHERE m.recipient = $1`,
            [t.user.email],
          );
          return row?.status === 'running' ? null : row;
        },
        { what: 'the mail job to settle', timeout: 20_000 },
      );
      expect(job).toEqual({ status: 'done', attempts: 3, sent_at: expect.any(Date), transport: 'smtp' });
    } finally {
      smtp.rejectRecipient = () => false;
    }
    expect(push.toTopic(topicOf(t))).toHaveLength(1);
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
    // The mail was queued before the push failed; the retry queues it again (at-least-once on failure).
    expect(await mailsTo(t.user.email, 2)).toHaveLength(2);
  });

  it("a job that never reached Redis (down at commit, a crash) is handed to its queue by the worker's sweeper", async () => {
    const to = `lost-${randomBytes(3).toString('hex')}@example.org`;
    // A mail and its job written as MailerService.enqueue does, but never handed over, and overdue.
    const [{ id: mailId }] = await api.db.platform.query<{ id: string }[]>(
      `INSERT INTO mail_outbox (id, tenant_id, recipient, subject, body) VALUES (gen_random_uuid(), $1, $2, 'Lost', 'Found') RETURNING id`,
      [church.id, to],
    );
    const job = await api.app
      .get(JobsService)
      .create(QUEUES.mail, { mailId, tenantId: church.id }, { runAt: new Date(Date.now() - 60_000) });
    // Only a sweep can hand it over: this one, or the worker's own (every 5 s), if that came first.
    await worker.get(JobSweeper).sweep();
    const [mail] = await mailsTo(to);
    expect(mail.subject).toBe('Lost');
    expect(
      await waitFor(async () => (await jobRow(job!.id)).status === 'done', {
        what: 'the job to be done',
        timeout: 20_000,
      }),
    ).toBe(true);
  });

  it('without REDIS_URL, SMTP_URL and PUSH_GATEWAY_URL: the same job runs in-process from the table, and mails are logged', async () => {
    const t = await token('2 days', { name: 'Embedded' });
    await api.db.platform.query(`DELETE FROM platform_jobs WHERE kind = 'token-expiry'`); // today's run is due again
    const local = await startWorker({ ...NO_REDIS_ENV, SMTP_URL: '', PUSH_GATEWAY_URL: '' });
    try {
      expect(await waitFor(() => notifiedAt(t), { what: 'the token to be notified', timeout: 20_000 })).toBeInstanceOf(
        Date,
      );
      const daily = await waitFor(
        async () => {
          const rows = await api.db.platform.query<JobRow[]>(
            `SELECT status, attempts, total, done FROM platform_jobs WHERE kind = 'token-expiry'`,
          );
          return rows.length === 1 && rows[0].status === 'done' ? rows[0] : null;
        },
        { what: "the day's job to be done", timeout: 20_000 },
      );
      expect(daily).toMatchObject({ status: 'done', attempts: 1, done: 1, total: 1 });
      const logged = await waitFor(
        async () => {
          const rows = await api.db.platform.query<{ transport: string | null }[]>(
            'SELECT transport FROM mail_outbox WHERE recipient = $1',
            [t.user.email],
          );
          return rows[0]?.transport ? rows : null;
        },
        { what: 'the mail to be logged', timeout: 20_000 },
      );
      expect(logged).toEqual([{ transport: 'log' }]);
      expect(smtp.to(t.user.email)).toEqual([]);
      expect(push.toTopic(topicOf(t))).toEqual([]);
    } finally {
      await local.close();
    }
  });
});
