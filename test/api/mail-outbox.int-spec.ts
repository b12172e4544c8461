import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { TenantContext } from '../../src/common/context/tenant-context';
import { newUuid } from '../../src/common/ids/id';
import { MailRetentionJob } from '../../src/platform/mail/mail-retention.job';
import { MailerService } from '../../src/platform/mail/mailer.service';
import { TestApi } from '../support/api';
import { inTenant, newTenant, TestTenant } from '../support/factories';
import { waitFor } from '../support/wait';

describe('mail without SMTP_URL', () => {
  let api: TestApi;
  let church: TestTenant;
  let other: TestTenant;
  beforeAll(async () => {
    delete process.env.SMTP_URL;
    delete process.env.REDIS_URL;
    api = await TestApi.start();
    church = await newTenant(api);
    other = await newTenant(api);
  });
  afterAll(() => api.close());

  it('keeps the mail, with its church, in mail_outbox and marks it logged through its background job, logging no address', async () => {
    const logged = jest.spyOn(Logger.prototype, 'log');
    const to = `${randomUUID()}@example.org`;
    const id = await api.app
      .get(MailerService)
      .enqueue(church.id, { to, subject: 'Prueba', text: 'Cuerpo del mensaje' });
    const read = () =>
      api.db.platform.query<
        { tenant_id: string; recipient: string; subject: string; body: string; transport: string | null }[]
      >('SELECT tenant_id, recipient, subject, body, transport FROM mail_outbox WHERE id = $1', [id]);
    expect(
      await waitFor(read, { what: 'the outbox row to be marked', until: (rows) => rows[0]?.transport !== null }),
    ).toEqual([
      { tenant_id: church.id, recipient: to, subject: 'Prueba', body: 'Cuerpo del mensaje', transport: 'log' },
    ]);
    // The outbox row is marked a moment before the job that marked it is.
    const jobs = () =>
      api.db.platform.query<{ status: string; attempts: number }[]>(
        `SELECT status, attempts FROM platform_jobs WHERE kind = 'mail' AND data->>'mailId' = $1`,
        [id],
      );
    expect(
      await waitFor(jobs, { what: 'the mail job to finish', until: (rows) => rows[0]?.status !== 'running' }),
    ).toEqual([{ status: 'done', attempts: 1 }]);
    const lines = logged.mock.calls.map((call) => call.map(String).join(' '));
    logged.mockRestore();
    expect(lines.some((line) => line.includes(id))).toBe(true);
    expect(lines.filter((line) => line.includes(to))).toEqual([]);
  });

  it('lets a church add mail of its own only (row-level security)', async () => {
    const insert = (tenantId: string) =>
      inTenant(api, church.id, () =>
        TenantContext.current().manager.query(
          'INSERT INTO mail_outbox (id, tenant_id, recipient, subject, body) VALUES ($1, $2, $3, $4, $5)',
          [newUuid(), tenantId, 'x@example.org', 's', 'b'],
        ),
      );
    await expect(insert(church.id)).resolves.toBeDefined();
    // The mail job reads it by (church, id), on the platform's role.
    await expect(insert(other.id)).rejects.toThrow(/row-level security/);
  });

  it('deletes mail sent more than 30 days ago, daily; recent and unsent mail stays', async () => {
    const add = async (sentDaysAgo: number | null) => {
      const id = newUuid();
      await api.db.platform.query(
        `INSERT INTO mail_outbox (id, tenant_id, recipient, subject, body, created_at, sent_at, transport)
         VALUES ($1, $2, 'x@example.org', 's', 'b', now() - interval '40 days',
                 CASE WHEN $3::int IS NULL THEN NULL ELSE now() - make_interval(days => $3::int) END, 'smtp')`,
        [id, church.id, sentDaysAgo],
      );
      return id;
    };
    const [old, recent, unsent] = [await add(31), await add(29), await add(null)];
    const { deleted } = await api.app.get(MailRetentionJob).run();
    expect(deleted).toBeGreaterThanOrEqual(1);
    const left = await api.db.platform.query<{ id: string }[]>('SELECT id FROM mail_outbox WHERE id = ANY($1)', [
      [old, recent, unsent],
    ]);
    expect(left.map((r) => r.id).sort()).toEqual([recent, unsent].sort());
    // The API process asks for the day's retention job at start, as for the token-expiry notices.
    const today = new Date().toISOString().slice(0, 10);
    const daily = await api.db.platform.query<{ kind: string }[]>(
      `SELECT kind FROM platform_jobs WHERE dedupe_key = $1 AND kind IN ('mail-retention', 'token-expiry') ORDER BY kind`,
      [today],
    );
    expect(daily).toEqual([{ kind: 'mail-retention' }, { kind: 'token-expiry' }]);
  });
});
