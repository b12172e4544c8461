import { MigrationInterface, QueryRunner } from 'typeorm';
import { isolateTenantTable } from '../app-role';

/**
 * Kiosk check-ins (CONTRACT §11): one row per household visit, holding its security code. The code
 * is unique per church per day (`day` is the event's local date at check-in), enforced by a unique
 * index the service retries against. The kiosk search gets its indexes on members: the last four
 * digits of the phone (E.164, so digits only after the `+`) and case-folded name prefixes.
 */
export class CreateCheckIns1764820000000 implements MigrationInterface {
  name = 'CreateCheckIns1764820000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE check_ins (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         event_id uuid NOT NULL,
         day date NOT NULL,
         security_code text NOT NULL CHECK (security_code ~ '^[BCDFGHJKLMNPRSTXZ2456789]{4}$'),
         member_ids uuid[] NOT NULL,
         device_id uuid,
         token_id uuid,
         checked_out_at timestamptz(3),
         checked_out_device_id uuid,
         checked_out_token_id uuid,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, event_id) REFERENCES events (tenant_id, id)
       )`,
      `CREATE UNIQUE INDEX check_ins_tenant_day_code_key ON check_ins (tenant_id, day, security_code)`,
      `CREATE INDEX check_ins_tenant_event_idx ON check_ins (tenant_id, event_id, created_at, id)`,
      ...isolateTenantTable('check_ins'),
      // The attendance a check-in recorded points back at it (attendance.check_in_id).
      `ALTER TABLE attendance ADD CONSTRAINT attendance_check_in_fkey FOREIGN KEY (tenant_id, check_in_id) REFERENCES check_ins (tenant_id, id)`,
      // GET /v1/check-in/search?phone_last4=NNNN
      `CREATE INDEX members_tenant_phone_last4_idx ON members (tenant_id, right(phone, 4)) WHERE deleted_at IS NULL AND phone IS NOT NULL`,
      // GET /v1/check-in/search?name=… (prefix, any case)
      `CREATE INDEX members_tenant_lower_last_name_idx ON members (tenant_id, lower(last_name) text_pattern_ops) WHERE deleted_at IS NULL`,
      `CREATE INDEX members_tenant_lower_first_name_idx ON members (tenant_id, lower(first_name) text_pattern_ops) WHERE deleted_at IS NULL`,
      `CREATE INDEX households_tenant_lower_name_idx ON households (tenant_id, lower(name) text_pattern_ops) WHERE deleted_at IS NULL`,
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const index of [
      'members_tenant_phone_last4_idx',
      'members_tenant_lower_last_name_idx',
      'members_tenant_lower_first_name_idx',
      'households_tenant_lower_name_idx',
    ]) {
      await q.query(`DROP INDEX IF EXISTS ${index}`);
    }
    await q.query(`ALTER TABLE attendance DROP CONSTRAINT IF EXISTS attendance_check_in_fkey`);
    await q.query(`DROP TABLE IF EXISTS check_ins`);
  }
}
