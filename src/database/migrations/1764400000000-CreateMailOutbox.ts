import { MigrationInterface, QueryRunner } from 'typeorm';

/** Mails kept when SMTP_URL is unset (development), so they can be read back. Not tenant-owned. */
export class CreateMailOutbox1764400000000 implements MigrationInterface {
  name = 'CreateMailOutbox1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE mail_outbox (
      id uuid PRIMARY KEY,
      recipient text NOT NULL,
      subject text NOT NULL,
      body text NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX mail_outbox_created_idx ON mail_outbox (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS mail_outbox`);
  }
}
