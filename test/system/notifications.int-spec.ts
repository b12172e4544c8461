import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { Queue } from 'bullmq';
import { Client } from 'pg';
import { parsePublicId } from '../../src/common/ids/id';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import { loadConfig } from '../../src/config/app-config';
import { RECIPIENTS_PER_BATCH } from '../../src/modules/notifications/notification-fan-out.job';
import { InProcessJobs } from '../../src/platform/jobs/in-process-jobs';
import { JobsRepository } from '../../src/platform/jobs/jobs.repository';
import { QUEUES } from '../../src/platform/jobs/queues';
import { Call, JsonObject, TestApi } from '../support/api';
import { newEvent, newGroup, newMembers, newTag, newTenant, newToken, TestTenant } from '../support/factories';
import { FakePushGateway } from '../support/push-gateway';
import { TestSmtpServer } from '../support/smtp';
import { TEST_REDIS_URL } from '../support/test-env';
import { startWorker, stopWorkerMidQuery } from '../support/worker';
import { waitFor } from '../support/wait';
import { as } from '../support/http';
import type { NotificationResponse as Notification } from '../../src/modules/notifications/dto/notification.response';
import type { PushTokenResponse as PushToken } from '../../src/modules/push-tokens/dto/push-token.response';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';

interface Ref {
  id: string;
}

const zero = { sent: 0, skipped: 0, failed: 0 };

describe('notifications (CONTRACT §13): e-mail and push to members, fanned out by the worker', () => {
  const prefix = `ntf-${Date.now()}-${randomBytes(3).toString('hex')}`;
  let env: Record<string, string>;
  let smtp: TestSmtpServer;
  let push: FakePushGateway;
  let api: TestApi;
  let worker: INestApplicationContext;
  let queue: Queue;
  let church: TestTenant;
  let other: TestTenant;
  const tag = randomBytes(4).toString('hex');
  const mail = (name: string) => `${name}-${tag}@example.org`;

  async function send(c: TestTenant, body: JsonObject, extra: Call = {}): Promise<Notification> {
    const res = await api.post<Notification>('/v1/notifications', as(c, { body, ...extra }));
    if (res.status !== 202) throw new Error(`notification failed: ${res.status} ${JSON.stringify(res.body)}`);
    expect(res.headers.location).toBe(`/v1/notifications/${res.body.id}`);
    return res.body;
  }

  async function settled(c: TestTenant, id: string): Promise<Notification> {
    return waitFor(
      async () => {
        const res = await api.get<Notification>(`/v1/notifications/${id}`, as(c));
        return res.body.status === 'sent' ? res.body : null;
      },
      { what: `notification ${id} to be sent`, timeout: 20_000 },
    );
  }

  /** The notification's job row. */
  const jobOf = async (id: string) =>
    (
      await api.db.platform.query<{ id: string; status: string; attempts: number; run_at: Date; result: unknown }[]>(
        `SELECT id, status, attempts, run_at, result FROM background_jobs WHERE kind = 'notifications' AND data->>'notificationId' = $1`,
        [parsePublicId('ntf', id)],
      )
    )[0];

  async function registerToken(c: TestTenant, member: string, token: string, platform = 'android') {
    return api.post<PushToken>(`/v1/members/${member}/push-tokens`, as(c, { body: { token, platform } }));
  }

  const pushesTo = (token: string) =>
    push.requests.filter((r) => (r.body as { message?: { token?: string } }).message?.token === token);

  let ana: string;
  let bob: string;
  let cid: string;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    push = await FakePushGateway.start();
    env = {
      SMTP_URL: smtp.url,
      PUSH_GATEWAY_URL: push.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: prefix,
      MAIL_FROM: 'Church API <no-reply@church.test>',
      JOB_RETRY_BASE_MS: '300',
    };
    api = await TestApi.start(env);
    worker = await startWorker(env);
    queue = new Queue(QUEUES.notifications, { connection: { url: TEST_REDIS_URL }, prefix });
    church = await newTenant(api);
    other = await newTenant(api);
    [ana, bob, cid] = await newMembers(api, church, [
      { first_name: 'Ana', last_name: 'Uno', email: mail('ana') },
      { first_name: 'Bob', last_name: 'Dos', email: mail('bob') },
      { first_name: 'Cid', last_name: 'Tres' },
    ]);
  });

  afterAll(async () => {
    await queue?.close();
    await worker?.close();
    await api?.close();
    await push?.close();
    await smtp?.close();
  });

  describe('push tokens', () => {
    it('registers (201), re-registers in place (200), lists the last 8 characters only, and deletes', async () => {
      const value = `fcm-${tag}-ana-phone-0123456789abcdef`;
      const first = await registerToken(church, ana, value);
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ member_id: ana, platform: 'android', token_last8: value.slice(-8) });
      expect(first.body.id).toMatch(/^ptk_[0-9a-f]{32}$/);
      const again = await registerToken(church, ana, value, 'ios');
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ id: first.body.id, platform: 'ios' });
      const list = await api.get<{ data: PushToken[]; total: number }>(`/v1/members/${ana}/push-tokens`, as(church));
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual([again.body]);
      expect(JSON.stringify(list.body)).not.toContain(value);
      // The same device signs in as another member: the token moves.
      expect((await registerToken(church, bob, value)).body).toMatchObject({ id: first.body.id, member_id: bob });
      expect((await api.get<{ data: PushToken[] }>(`/v1/members/${ana}/push-tokens`, as(church))).body.data).toEqual(
        [],
      );
      expect((await api.delete(`/v1/members/${ana}/push-tokens/${first.body.id}`, as(church))).status).toBe(404); // bob's now
      expect((await api.delete(`/v1/members/${bob}/push-tokens/${first.body.id}`, as(church))).status).toBe(204);
      expect((await api.get<{ data: PushToken[] }>(`/v1/members/${bob}/push-tokens`, as(church))).body.data).toEqual(
        [],
      );
      expect((await api.delete(`/v1/members/${bob}/push-tokens/${first.body.id}`, as(church))).status).toBe(404);
    });

    it('makes one row of two registrations of one token at once', async () => {
      const value = `fcm-${tag}-race-token`;
      const [a, b] = await Promise.all([registerToken(church, cid, value), registerToken(church, cid, value)]);
      expect([a.status, b.status].sort()).toEqual([200, 201]);
      expect(a.body.id).toBe(b.body.id);
      expect(
        (await api.get<{ data: PushToken[] }>(`/v1/members/${cid}/push-tokens`, as(church))).body.data,
      ).toHaveLength(1);
      expect((await api.delete(`/v1/members/${cid}/push-tokens/${a.body.id}`, as(church))).status).toBe(204);
    });

    it('validates the body, and refuses another church and a token without write:members', async () => {
      const bad = await api.post<Problem>(
        `/v1/members/${ana}/push-tokens`,
        as(church, { body: { token: '', platform: 'windows' } }),
      );
      expect(bad.status).toBe(422);
      expect(bad.body.errors!.map((e) => e.field).sort()).toEqual(['platform', 'token']);
      expect((await registerToken(other, ana, 'fcm-other-church')).status).toBe(404);
      expect((await api.get(`/v1/members/${ana}/push-tokens`, as(other))).status).toBe(404);
      const reader = await newToken(api, church, ['read:members'], 'staff');
      expect(
        (
          await api.post(`/v1/members/${ana}/push-tokens`, {
            token: reader.token,
            tenant: church.slug,
            body: { token: 'x', platform: 'web' },
          })
        ).status,
      ).toBe(403);
    });
  });

  describe('a notification to members', () => {
    let sent: Notification;
    const anaPhone = `fcm-${tag}-ana-phone`;
    const anaTablet = `fcm-${tag}-ana-tablet`;
    const cidPhone = `fcm-${tag}-cid-phone`;

    beforeAll(async () => {
      for (const [member, token] of [
        [ana, anaPhone],
        [ana, anaTablet],
        [cid, cidPhone],
      ])
        expect((await registerToken(church, member, token)).status).toBe(201);
      const queued = await send(
        church,
        { title: 'Youth night moved', body: 'We meet on Friday at 7 pm.', audience: { member_ids: [ana, bob, cid] } },
        { lang: 'en' },
      );
      expect(queued).toMatchObject({
        status: 'queued',
        channels: ['email', 'push'],
        recipients: null,
        counts: { email: zero, push: zero },
        audience: { member_ids: [ana, bob, cid] },
      });
      expect(queued.id).toMatch(/^ntf_[0-9a-f]{32}$/);
      sent = await settled(church, queued.id);
    });

    it('sends e-mail to members with an address and push to each of their tokens; the others are skipped', () => {
      expect(sent).toMatchObject({
        status: 'sent',
        recipients: 3,
        counts: { email: { sent: 2, skipped: 1, failed: 0 }, push: { sent: 2, skipped: 1, failed: 0 } },
      });
      expect(sent.sent_at).not.toBeNull();
      for (const who of ['ana', 'bob']) {
        const [m] = smtp.to(mail(who));
        expect(smtp.to(mail(who))).toHaveLength(1);
        expect(m.subject).toBe('Youth night moved');
        expect(m.text).toBe(
          `Hello ${who === 'ana' ? 'Ana' : 'Bob'},\n\nWe meet on Friday at 7 pm.\n\n— Test Church\n\nYou are receiving this message because you belong to Test Church.`,
        );
      }
      for (const token of [anaPhone, anaTablet, cidPhone]) {
        const requests = pushesTo(token);
        expect(requests).toHaveLength(1);
        expect((requests[0].body as { message: unknown }).message).toEqual({
          token,
          notification: { title: 'Youth night moved', body: 'We meet on Friday at 7 pm.' },
          data: { notification_id: sent.id },
        });
      }
    });

    it('writes the e-mail in the language of the request (Spanish by default)', async () => {
      const n = await settled(
        church,
        (await send(church, { title: 'Aviso', body: 'Texto.', channels: ['email'], audience: { member_ids: [bob] } }))
          .id,
      );
      expect(n.counts).toEqual({ email: { sent: 1, skipped: 0, failed: 0 }, push: zero });
      expect(smtp.to(mail('bob')).pop()!.text).toBe(
        'Hola, Bob:\n\nTexto.\n\n— Test Church\n\nRecibes este mensaje porque eres parte de Test Church.',
      );
      const pt = await settled(
        church,
        (
          await send(
            church,
            { title: 'Aviso', body: 'Texto.', channels: ['email'], audience: { member_ids: [bob] } },
            { lang: 'pt-BR' },
          )
        ).id,
      );
      expect(pt.counts.email.sent).toBe(1);
      expect(smtp.to(mail('bob')).pop()!.text).toContain('Olá, Bob:');
    });

    it('lists and gets with write:notifications only; another church sees nothing', async () => {
      const list = await api.get<List<Notification>>('/v1/notifications?sort=-created_at&limit=250', as(church));
      expect(list.status).toBe(200);
      expect(list.body.data.find((n) => n.id === sent.id)).toEqual(sent);
      expect((await api.get<List<Notification>>('/v1/notifications', as(other))).body.data).toEqual([]);
      expect((await api.get(`/v1/notifications/${sent.id}`, as(other))).status).toBe(404);
      expect((await api.post(`/v1/notifications/${sent.id}/cancel`, as(other))).status).toBe(404);
      const staff = await newToken(api, church, ['read:members', 'write:members', 'read:reports'], 'staff');
      const call = { token: staff.token, tenant: church.slug };
      expect((await api.get(`/v1/notifications/${sent.id}`, call)).status).toBe(403);
      expect(
        (
          await api.post('/v1/notifications', {
            ...call,
            body: { title: 't', body: 'b', audience: { member_ids: [ana] } },
          })
        ).status,
      ).toBe(403);
      // Another church's members are not found.
      const foreign = await api.post<Problem>(
        '/v1/notifications',
        as(other, { body: { title: 't', body: 'b', audience: { member_ids: [ana] } } }),
      );
      expect(foreign.status).toBe(422);
      expect(foreign.body.errors).toEqual([
        expect.objectContaining({ field: 'audience.member_ids[0]', issue: 'not_found' }),
      ]);
    });

    it('is 409 to cancel once sent', async () => {
      const res = await api.post<Problem>(`/v1/notifications/${sent.id}/cancel`, as(church));
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('conflict');
    });
  });

  describe('audiences', () => {
    const addresses = (names: string[]) => names.map(mail).sort();
    /** The addresses a notification's e-mails went to. */
    const mailedBy = (title: string) =>
      smtp.messages
        .filter((m) => m.subject === title)
        .flatMap((m) => m.to)
        .sort();

    it('by tag, group, campus and event registrants (members only, not guests)', async () => {
      const c = await newTenant(api);
      const campus = await api.post<Ref>('/v1/campuses', as(c, { body: { key: 'north', name: 'North' } }));
      expect(campus.status).toBe(201);
      const [t1, t2, t3, t4] = await newMembers(api, c, [
        { first_name: 'T1', last_name: 'A', email: mail('t1'), campus: 'north' },
        { first_name: 'T2', last_name: 'A', email: mail('t2') },
        { first_name: 'T3', last_name: 'A', email: mail('t3'), campus: 'north' },
        { first_name: 'T4', last_name: 'A', email: mail('t4') },
      ]);
      const youth = await newTag(api, c, { name: 'Youth' });
      for (const m of [t1, t2])
        expect((await api.put(`/v1/members/${m}/tags/${youth.id}`, as(c))).status).toBeLessThan(300);
      const group = await newGroup(api, c, { name: 'Cell' });
      for (const m of [t2, t3])
        expect((await api.put(`/v1/groups/${group.id}/members/${m}`, as(c, { body: {} }))).status).toBeLessThan(300);
      const event = await newEvent(api, c, {
        name: 'Retreat',
        starts_at: '2030-05-01T10:00:00Z',
        ends_at: '2030-05-01T18:00:00Z',
      });
      expect((await api.post(`/v1/events/${event.id}/registrations`, as(c, { body: { member_id: t4 } }))).status).toBe(
        201,
      );
      expect(
        (
          await api.post(
            `/v1/events/${event.id}/registrations`,
            as(c, { body: { guest: { first_name: 'G', last_name: 'Uest', email: mail('guest') } } }),
          )
        ).status,
      ).toBe(201);
      // A deleted member is never a recipient.
      const [gone] = await newMembers(api, c, [
        { first_name: 'Gone', last_name: 'A', email: mail('gone'), campus: 'north' },
      ]);
      expect((await api.put(`/v1/members/${gone}/tags/${youth.id}`, as(c))).status).toBeLessThan(300);
      expect((await api.delete(`/v1/members/${gone}`, as(c))).status).toBe(204);

      const cases: [JsonObject, string[]][] = [
        [{ tag: 'youth' }, ['t1', 't2']],
        [{ tag: youth.id }, ['t1', 't2']],
        [{ group_id: group.id }, ['t2', 't3']],
        [{ campus: 'north' }, ['t1', 't3']],
        [{ campus: campus.body.id }, ['t1', 't3']],
        [{ event_id: event.id }, ['t4']],
      ];
      for (const [i, [audience, expected]] of cases.entries()) {
        const title = `Audience ${i} ${tag}`;
        const n = await settled(c, (await send(c, { title, body: 'Hi', channels: ['email'], audience })).id);
        expect({ audience, recipients: n.recipients, counts: n.counts }).toEqual({
          audience,
          recipients: expected.length,
          counts: { email: { sent: expected.length, skipped: 0, failed: 0 }, push: zero },
        });
        expect(mailedBy(title)).toEqual(addresses(expected));
      }
    });

    it('refuses an unknown or foreign reference, several audiences or none, and a time not in the future (422)', async () => {
      const foreignGroup = await newGroup(api, other, { name: 'Theirs' });
      const bad: [JsonObject, string][] = [
        [{ audience: { group_id: foreignGroup.id } }, 'audience.group_id'],
        [{ audience: { tag: 'no-such-tag' } }, 'audience.tag'],
        [{ audience: { campus: 'nowhere' } }, 'audience.campus'],
        [{ audience: { event_id: 'evt_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' } }, 'audience.event_id'],
        [{ audience: { member_ids: ['mem_nope'] } }, 'audience.member_ids[0]'],
        [{ audience: { tag: 'youth', campus: 'north' } }, 'audience'],
        [{ audience: {} }, 'audience'],
        [{ audience: { member_ids: [ana] }, scheduled_at: '2020-01-01T00:00:00Z' }, 'scheduled_at'],
        [{ audience: { member_ids: [ana] }, channels: ['sms'] }, 'channels'],
      ];
      for (const [body, field] of bad) {
        const res = await api.post<Problem>(
          '/v1/notifications',
          as(church, { body: { title: 't', body: 'b', ...body } }),
        );
        expect({ body, status: res.status, fields: res.body.errors?.map((e) => e.field) }).toEqual({
          body,
          status: 422,
          fields: [field],
        });
      }
    });
  });

  describe('failures', () => {
    it('counts a refused e-mail and a refused push as failed', async () => {
      const c = await newTenant(api);
      const [ok, refused] = await newMembers(api, c, [
        { first_name: 'Ok', last_name: 'A', email: mail('ok') },
        { first_name: 'No', last_name: 'A', email: mail('refused') },
      ]);
      expect((await registerToken(c, ok, `fcm-${tag}-failing`)).status).toBe(201);
      smtp.rejectRecipient = (address) => address === mail('refused');
      push.status = 503;
      try {
        const n = await settled(
          c,
          (await send(c, { title: 'Fails', body: 'x', audience: { member_ids: [ok, refused] } })).id,
        );
        expect(n.counts).toEqual({
          email: { sent: 1, skipped: 0, failed: 1 },
          push: { sent: 0, skipped: 1, failed: 1 },
        });
      } finally {
        smtp.rejectRecipient = () => false;
        push.status = 200;
      }
    });
  });

  describe('scheduling and cancel', () => {
    it('waits until scheduled_at (a delayed job), then sends', async () => {
      const at = new Date(Date.now() + 3600_000);
      const n = await send(church, {
        title: `Scheduled ${tag}`,
        body: 'Later',
        channels: ['email'],
        audience: { member_ids: [bob] },
        scheduled_at: at.toISOString(),
      });
      expect(n).toMatchObject({ status: 'queued', scheduled_at: at.toISOString() });
      const job = await jobOf(n.id);
      expect(job.run_at.toISOString()).toBe(at.toISOString());
      const queued = await waitFor(() => queue.getJob(job.id), { what: 'the job in its queue', timeout: 20_000 });
      expect(await queued.isDelayed()).toBe(true);
      expect(queued.delay).toBeGreaterThan(3500_000);
      expect((await api.get<Notification>(`/v1/notifications/${n.id}`, as(church))).body.status).toBe('queued');
      // Its time comes: the delayed job is promoted, as BullMQ does at run_at.
      await queued.promote();
      const done = await settled(church, n.id);
      expect(done.counts.email.sent).toBe(1);
      expect(smtp.messages.filter((m) => m.subject === `Scheduled ${tag}`)).toHaveLength(1);
    });

    it('without Redis, the in-process runner waits until scheduled_at too (the job row’s run_at), then sends', async () => {
      const local = await startWorker({ REDIS_URL: '' });
      try {
        const title = `In-process ${tag}`;
        const n = await send(church, {
          title,
          body: 'Later',
          channels: ['email'],
          audience: { member_ids: [bob] },
          scheduled_at: new Date(Date.now() + 3600_000).toISOString(),
        });
        const job = await jobOf(n.id);
        const due = await local.get(JobsRepository).due(0, 500, [QUEUES.notifications]);
        expect(due.map((d) => d.id)).not.toContain(job.id);
        // Its time comes (written, not waited for): the poller takes it from the table.
        await api.db.platform.query(`UPDATE background_jobs SET run_at = now() WHERE id = $1`, [job.id]);
        local.get(InProcessJobs).kick();
        expect((await settled(church, n.id)).counts.email.sent).toBe(1);
        expect(smtp.messages.filter((m) => m.subject === title)).toHaveLength(1);
      } finally {
        await local.close();
      }
    });

    it('cancels a queued notification: nothing is sent when its time comes; a second cancel is 409', async () => {
      const n = await send(church, {
        title: `Canceled ${tag}`,
        body: 'Never',
        audience: { member_ids: [ana, bob] },
        scheduled_at: new Date(Date.now() + 3600_000).toISOString(),
      });
      const canceled = await api.post<Notification>(`/v1/notifications/${n.id}/cancel`, as(church));
      expect(canceled.status).toBe(200);
      expect(canceled.body).toMatchObject({ status: 'canceled', recipients: null });
      expect(canceled.body.canceled_at).not.toBeNull();
      expect((await api.post<Problem>(`/v1/notifications/${n.id}/cancel`, as(church))).status).toBe(409);
      const job = await jobOf(n.id);
      await (await waitFor(() => queue.getJob(job.id), { what: 'the job in its queue', timeout: 20_000 })).promote();
      expect(
        await waitFor(async () => ((await jobOf(n.id)).status === 'done' ? jobOf(n.id) : null), {
          what: 'the job to be done',
          timeout: 20_000,
        }),
      ).toMatchObject({ result: { skipped: 'canceled' } });
      expect(smtp.messages.filter((m) => m.subject === `Canceled ${tag}`)).toEqual([]);
      expect((await api.get<Notification>(`/v1/notifications/${n.id}`, as(church))).body).toMatchObject({
        status: 'canceled',
        recipients: null,
        counts: { email: zero, push: zero },
      });
    });

    it('settles two cancels at once: one 200, one 409', async () => {
      const n = await send(church, {
        title: 'Race',
        body: 'x',
        audience: { member_ids: [ana] },
        scheduled_at: new Date(Date.now() + 3600_000).toISOString(),
      });
      const answers = await Promise.all([
        api.post(`/v1/notifications/${n.id}/cancel`, as(church)),
        api.post(`/v1/notifications/${n.id}/cancel`, as(church)),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    });
  });

  describe('quota', () => {
    it('allows 100 notifications a minute per token, then 429', async () => {
      const sender = await newToken(api, church, ['write:notifications'], 'org_admin');
      const call = { token: sender.token, tenant: church.slug };
      const body = {
        title: 'Quota',
        body: 'x',
        audience: { member_ids: [ana] },
        scheduled_at: new Date(Date.now() + 3600_000).toISOString(),
      };
      // All at once: sent one after another on a loaded machine, they could straddle the end of the
      // quota's clock minute. The limiter decides before any work, so they land in one window.
      const answers = await Promise.all(
        Array.from({ length: 101 }, () => api.post('/v1/notifications', { ...call, body })),
      );
      const statuses = answers.map((a) => a.status);
      expect({
        accepted: statuses.filter((st) => st === 202).length,
        limited: statuses.filter((st) => st === 429).length,
      }).toEqual({
        accepted: 100,
        limited: 1,
      });
      // The other routes are not limited by it.
      expect((await api.get('/v1/notifications?limit=1', call)).status).toBe(200);
    });
  });

  describe('a send in flight when its worker died', () => {
    it('is not sent again, and is counted failed; a member deleted since the audience was fixed is skipped', async () => {
      const c = await newTenant(api);
      const [x, y, z] = await newMembers(api, c, [
        { first_name: 'X', last_name: 'A', email: mail('inflight-x') },
        { first_name: 'Y', last_name: 'A', email: mail('inflight-y') },
        { first_name: 'Z', last_name: 'A', email: mail('inflight-z') },
      ]);
      const title = `In flight ${tag}`;
      const n = await send(c, {
        title,
        body: 'x',
        channels: ['email'],
        audience: { member_ids: [x, y, z] },
        scheduled_at: new Date(Date.now() + 3600_000).toISOString(),
      });
      const id = parsePublicId('ntf', n.id)!;
      // What a run that died mid-send leaves: the audience fixed, X's e-mail claimed and not settled. Z is deleted since.
      await api.db.platform.query(
        `UPDATE notifications SET status = 'sending', recipients = 3 WHERE tenant_id = $1 AND id = $2`,
        [c.id, id],
      );
      await api.db.platform.query(
        `INSERT INTO notification_recipients (tenant_id, notification_id, member_id) SELECT $1, $2, unnest($3::uuid[])`,
        [c.id, id, [x, y, z].map((m) => parsePublicId('mem', m))],
      );
      await api.db.platform.query(
        `INSERT INTO notification_deliveries (tenant_id, notification_id, member_id, channel, status) VALUES ($1, $2, $3, 'email', 'sending')`,
        [c.id, id, parsePublicId('mem', x)],
      );
      expect((await api.delete(`/v1/members/${z}`, as(c))).status).toBe(204);
      await (
        await waitFor(async () => queue.getJob((await jobOf(n.id)).id), {
          what: 'the job in its queue',
          timeout: 20_000,
        })
      ).promote();
      const done = await settled(c, n.id);
      expect(done).toMatchObject({ recipients: 3, counts: { email: { sent: 1, skipped: 1, failed: 1 }, push: zero } });
      expect(smtp.messages.filter((m) => m.subject === title).flatMap((m) => m.to)).toEqual([mail('inflight-y')]);
    });
  });

  describe('a fan-out interrupted after a batch', () => {
    it('resumes on a restarted worker without sending anything twice', async () => {
      const c = await newTenant(api);
      const count = RECIPIENTS_PER_BATCH + 10;
      const members = await newMembers(
        api,
        c,
        Array.from({ length: count }, (_, i) => ({
          first_name: `R${i}`,
          last_name: 'Resume',
          email: mail(`resume${i}`),
        })),
      );
      // The job walks its recipients in uuid order: the greatest is in the second batch.
      const last = members
        .map((m) => parsePublicId('mem', m)!)
        .sort()
        .pop()!;
      const blocker = new Client({ connectionString: loadConfig().DATABASE_URL });
      await blocker.connect();
      try {
        const title = `Resume ${tag}`;
        const n = await send(c, {
          title,
          body: 'Once',
          channels: ['email'],
          audience: { member_ids: members },
          scheduled_at: new Date(Date.now() + 3600_000).toISOString(),
        });
        const id = parsePublicId('ntf', n.id)!;
        // Another session holds an uncommitted delivery row of that member: the worker sends the
        // first batch, then waits on the primary key with the second.
        await blocker.query('BEGIN');
        await blocker.query(
          `INSERT INTO notification_deliveries (tenant_id, notification_id, member_id, channel, status) VALUES ($1, $2, $3, 'email', 'sending')`,
          [c.id, id, last],
        );
        await (
          await waitFor(async () => queue.getJob((await jobOf(n.id)).id), {
            what: 'the job in its queue',
            timeout: 20_000,
          })
        ).promote();
        const progressed = await waitFor(
          async () => {
            const r = (await api.get<Notification>(`/v1/notifications/${n.id}`, as(c))).body;
            return r.counts.email.sent === RECIPIENTS_PER_BATCH ? r : null;
          },
          { what: 'the first batch to be sent', timeout: 20_000 },
        );
        expect(progressed).toMatchObject({ status: 'sending', recipients: count });

        // The worker stops while the job waits, and the job's connection is cut.
        await stopWorkerMidQuery(api.db, worker, blocker, '%INSERT INTO notification_deliveries%');
        expect((await api.get<Notification>(`/v1/notifications/${n.id}`, as(c))).body).toMatchObject({
          status: 'sending',
          counts: { email: { sent: RECIPIENTS_PER_BATCH } },
        });

        // A new worker takes the retry and sends what is left, once each.
        worker = await startWorker(env);
        const done = await settled(c, n.id);
        expect(done).toMatchObject({
          recipients: count,
          counts: { email: { sent: count, skipped: 0, failed: 0 }, push: zero },
        });
        const to = smtp.messages.filter((m) => m.subject === title).flatMap((m) => m.to);
        expect(to).toHaveLength(count);
        expect(new Set(to).size).toBe(count);
        // The notification is marked sent inside the job, a moment before the runner marks the job done.
        const job = await waitFor(async () => ((await jobOf(n.id)).status === 'done' ? jobOf(n.id) : null), {
          what: 'the job to be done',
          timeout: 20_000,
        });
        expect(job).toMatchObject({ attempts: 2, status: 'done' });
      } finally {
        await blocker.end();
      }
    });
  });
});
