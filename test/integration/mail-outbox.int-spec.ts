import { randomUUID } from 'node:crypto';
import { MailerService } from '../../src/platform/mail/mailer.service';
import { TestApi } from '../support/api';

describe('mail without SMTP_URL', () => {
  let api: TestApi;
  beforeAll(async () => {
    delete process.env.SMTP_URL;
    api = await TestApi.start();
  });
  afterAll(() => api.close());

  it('keeps the mail in mail_outbox instead of sending it', async () => {
    const to = `${randomUUID()}@example.org`;
    await api.app.get(MailerService).send({ to, subject: 'Prueba', text: 'Cuerpo del mensaje' });
    const rows: { recipient: string; subject: string; body: string }[] = await api.db.platform.query('SELECT recipient, subject, body FROM mail_outbox WHERE recipient = $1', [to]);
    expect(rows).toEqual([{ recipient: to, subject: 'Prueba', body: 'Cuerpo del mensaje' }]);
  });
});
