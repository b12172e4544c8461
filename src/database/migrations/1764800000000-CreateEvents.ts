import { MigrationInterface, QueryRunner } from 'typeorm';
import { APP_ROLE, isolateTenantTable } from '../app-role';

/**
 * Calendar events and their registrations (CONTRACT §11). `registration_count` is the number of
 * registrations, kept by the service under the event's row lock (FOR NO KEY UPDATE) so that
 * concurrent registrations for the last seat are decided one after the other: never more than
 * `capacity`. A member registers once per event (unique index); a guest registration carries the
 * guest's name and e-mail instead of a member.
 */
export class CreateEvents1764800000000 implements MigrationInterface {
  name = 'CreateEvents1764800000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE events (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         name text NOT NULL,
         description text,
         location text,
         campus_id uuid,
         timezone text NOT NULL DEFAULT 'UTC',
         starts_at timestamptz(3) NOT NULL,
         ends_at timestamptz(3) NOT NULL,
         capacity integer CHECK (capacity >= 0),
         registration_open boolean NOT NULL DEFAULT true,
         status text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'canceled')),
         registration_count integer NOT NULL DEFAULT 0 CHECK (registration_count >= 0),
         canceled_at timestamptz(3),
         cancel_reason text,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         deleted_at timestamptz(3),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, campus_id) REFERENCES campuses (tenant_id, id),
         CONSTRAINT events_ends_after_starts CHECK (ends_at > starts_at),
         CONSTRAINT events_canceled_check CHECK ((status = 'canceled') = (canceled_at IS NOT NULL))
       )`,
      // Keyset pagination: (tenant_id, field, id) over live rows.
      `CREATE INDEX events_tenant_created_idx ON events (tenant_id, created_at, id) WHERE deleted_at IS NULL`,
      `CREATE INDEX events_tenant_starts_idx ON events (tenant_id, starts_at, id) WHERE deleted_at IS NULL`,
      `CREATE INDEX events_tenant_updated_idx ON events (tenant_id, updated_at, id) WHERE deleted_at IS NULL`,
      `CREATE INDEX events_tenant_campus_starts_idx ON events (tenant_id, campus_id, starts_at, id) WHERE deleted_at IS NULL`,
      ...isolateTenantTable('events'),

      `CREATE TABLE event_registrations (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         event_id uuid NOT NULL,
         member_id uuid,
         guest_first_name text,
         guest_last_name text,
         guest_email text,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, event_id) REFERENCES events (tenant_id, id),
         FOREIGN KEY (tenant_id, member_id) REFERENCES members (tenant_id, id),
         CONSTRAINT event_registrations_who_check CHECK ((member_id IS NULL) <> (guest_first_name IS NULL))
       )`,
      `CREATE UNIQUE INDEX event_registrations_tenant_event_member_key ON event_registrations (tenant_id, event_id, member_id) WHERE member_id IS NOT NULL`,
      `CREATE INDEX event_registrations_tenant_event_created_idx ON event_registrations (tenant_id, event_id, created_at, id)`,
      `CREATE INDEX event_registrations_tenant_event_updated_idx ON event_registrations (tenant_id, event_id, updated_at, id)`,
      `CREATE INDEX event_registrations_tenant_member_idx ON event_registrations (tenant_id, member_id) WHERE member_id IS NOT NULL`,
      ...isolateTenantTable('event_registrations'),
      // A cancellation's mails are written to the (platform) mail outbox in the church's transaction
      // (MailerService.enqueueInTransaction): the app role may add mails, never read or change them.
      `GRANT INSERT ON mail_outbox TO ${APP_ROLE}`,
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`REVOKE INSERT ON mail_outbox FROM ${APP_ROLE}`);
    await q.query(`DROP TABLE IF EXISTS event_registrations`);
    await q.query(`DROP TABLE IF EXISTS events`);
  }
}
