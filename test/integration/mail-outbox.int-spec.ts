import { randomUUID } from 'node:crypto';
import { MailerService } from '../../src/platform/mail/mailer.service';
import { TestApi } from '../support/api';

describe('mail without SMTP_URL', () => {
  let api: TestApi;
  beforeAll(async () => {
    delete process.env.SMTP_URL;
    delete process.env.REDIS_URL;
    api = await TestApi.start();
  });
  afterAll(() => api.close());

  it('keeps the mail in mail_outbox and marks it logged, through its background job', async () => {
    const to = `${randomUUID()}@example.org`;
    const id = await api.app.get(MailerService).enqueue({ to, subject: 'Prueba', text: 'Cuerpo del mensaje' });
    const read = () =>
      api.db.platform.query<{ recipient: string; subject: string; body: string; transport: string | null }[]>(
        'SELECT recipient, subject, body, transport FROM mail_outbox WHERE id = $1',
        [id],
      );
    for (let i = 0; i < 100 && (await read())[0]?.transport === null; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await read()).toEqual([{ recipient: to, subject: 'Prueba', body: 'Cuerpo del mensaje', transport: 'log' }]);
    // The outbox row is marked a moment before the job that marked it is.
    const jobs = () =>
      api.db.platform.query<{ status: string; attempts: number }[]>(
        `SELECT status, attempts FROM platform_jobs WHERE kind = 'mail' AND data->>'mailId' = $1`,
        [id],
      );
    for (let i = 0; i < 100 && (await jobs())[0]?.status === 'running'; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(await jobs()).toEqual([{ status: 'done', attempts: 1 }]);
  });
});
