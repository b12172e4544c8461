import { MigrationInterface, QueryRunner } from 'typeorm';
import { isolateTenantTable } from '../app-role';

/**
 * Notifications to members (CONTRACT §13) and the push tokens their devices register.
 *
 * - `member_push_tokens`: one row per device token, unique per church (a token registered again,
 *   even for another member, moves to that member: one device, one owner). Kept as sent (a push
 *   token is the device's address, not a credential of ours); the API shows its last 8 characters.
 * - `notifications`: one POST /v1/notifications; `status`, `recipients` and `counts` mirror the
 *   `notifications` background job that fans it out.
 * - `notification_recipients`: the audience, fixed when the job resolves it (at send time).
 * - `notification_deliveries`: one row per (notification, member, channel), written before the send
 *   is attempted and settled after it; the primary key is what makes a restarted worker resume
 *   without sending anything twice.
 */
export class CreateNotifications1764980000000 implements MigrationInterface {
  name = 'CreateNotifications1764980000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE member_push_tokens (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         member_id uuid NOT NULL,
         token text NOT NULL CHECK (char_length(token) BETWEEN 1 AND 4096),
         platform text NOT NULL CHECK (platform IN ('ios', 'android', 'web')),
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, member_id) REFERENCES members (tenant_id, id)
       )`,
      `CREATE UNIQUE INDEX member_push_tokens_tenant_token_key ON member_push_tokens (tenant_id, token)`,
      `CREATE INDEX member_push_tokens_tenant_member_idx ON member_push_tokens (tenant_id, member_id, created_at, id)`,
      ...isolateTenantTable('member_push_tokens'),

      `CREATE TABLE notifications (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         title text NOT NULL,
         body text NOT NULL,
         channels text[] NOT NULL,
         audience jsonb NOT NULL,
         language text NOT NULL CHECK (language IN ('es', 'en', 'pt')),
         status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'canceled')),
         scheduled_at timestamptz(3),
         recipients integer CHECK (recipients >= 0),
         counts jsonb NOT NULL,
         last_error text,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         sent_at timestamptz(3),
         canceled_at timestamptz(3),
         PRIMARY KEY (tenant_id, id)
       )`,
      `CREATE INDEX notifications_tenant_created_idx ON notifications (tenant_id, created_at, id)`,
      ...isolateTenantTable('notifications'),

      `CREATE TABLE notification_recipients (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         notification_id uuid NOT NULL,
         member_id uuid NOT NULL,
         PRIMARY KEY (tenant_id, notification_id, member_id),
         FOREIGN KEY (tenant_id, notification_id) REFERENCES notifications (tenant_id, id)
       )`,
      ...isolateTenantTable('notification_recipients'),

      `CREATE TABLE notification_deliveries (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         notification_id uuid NOT NULL,
         member_id uuid NOT NULL,
         channel text NOT NULL CHECK (channel IN ('email', 'push')),
         status text NOT NULL CHECK (status IN ('sending', 'sent', 'skipped', 'failed')),
         error text,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, notification_id, member_id, channel),
         FOREIGN KEY (tenant_id, notification_id) REFERENCES notifications (tenant_id, id)
       )`,
      ...isolateTenantTable('notification_deliveries'),
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS notification_deliveries`);
    await q.query(`DROP TABLE IF EXISTS notification_recipients`);
    await q.query(`DROP TABLE IF EXISTS notifications`);
    await q.query(`DROP TABLE IF EXISTS member_push_tokens`);
  }
}
