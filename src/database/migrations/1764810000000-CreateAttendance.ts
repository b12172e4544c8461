import { MigrationInterface, QueryRunner } from 'typeorm';
import { isolateTenantTable } from '../app-role';

/**
 * Attendance (CONTRACT §11): one row per member and calendar event, whatever the number of
 * concurrent recorders (the unique index decides; inserts skip a pair already there with ON
 * CONFLICT DO NOTHING). `check_in_id` names the kiosk check-in that recorded the row (the check-ins
 * migration adds its foreign key). Events and members are soft-deleted, so the foreign keys keep
 * the history.
 */
export class CreateAttendance1764810000000 implements MigrationInterface {
  name = 'CreateAttendance1764810000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE attendance (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         event_id uuid NOT NULL,
         member_id uuid NOT NULL,
         kind text NOT NULL DEFAULT 'regular' CHECK (kind IN ('regular', 'guest', 'volunteer')),
         checked_in_at timestamptz(3) NOT NULL,
         check_in_id uuid,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, event_id) REFERENCES events (tenant_id, id),
         FOREIGN KEY (tenant_id, member_id) REFERENCES members (tenant_id, id)
       )`,
      // A member is recorded once per event; the index also serves an event's count (attendance_count).
      `CREATE UNIQUE INDEX attendance_tenant_event_member_key ON attendance (tenant_id, event_id, member_id)`,
      // Keyset pagination: (tenant_id, sort field, id), and the per-event and per-member lists in the default order.
      `CREATE INDEX attendance_tenant_created_idx ON attendance (tenant_id, created_at, id)`,
      `CREATE INDEX attendance_tenant_checked_in_idx ON attendance (tenant_id, checked_in_at, id)`,
      `CREATE INDEX attendance_tenant_updated_idx ON attendance (tenant_id, updated_at, id)`,
      `CREATE INDEX attendance_tenant_event_created_idx ON attendance (tenant_id, event_id, created_at, id)`,
      `CREATE INDEX attendance_tenant_member_created_idx ON attendance (tenant_id, member_id, created_at, id)`,
      `CREATE INDEX attendance_tenant_check_in_idx ON attendance (tenant_id, check_in_id) WHERE check_in_id IS NOT NULL`,
      ...isolateTenantTable('attendance'),
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS attendance`);
  }
}
