import { MigrationInterface, QueryRunner } from 'typeorm';
import { isolateTenantTable } from '../app-role';

/** Prayer requests (CONTRACT §10): soft-deleted, a private one visible to its author and org_admins only. */
export class CreatePrayerRequests1764600000000 implements MigrationInterface {
  name = 'CreatePrayerRequests1764600000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE prayer_requests (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         request text NOT NULL CHECK (char_length(request) BETWEEN 1 AND 4000),
         member_id uuid,
         name text,
         visibility text NOT NULL DEFAULT 'staff' CHECK (visibility IN ('private', 'staff', 'public')),
         urgent boolean NOT NULL DEFAULT false,
         campus_id uuid,
         answered_at timestamptz(3),
         answer text,
         created_by uuid,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         deleted_at timestamptz(3),
         PRIMARY KEY (tenant_id, id),
         CHECK (member_id IS NOT NULL OR name IS NOT NULL),
         CHECK ((answered_at IS NULL) = (answer IS NULL)),
         FOREIGN KEY (tenant_id, member_id) REFERENCES members (tenant_id, id),
         FOREIGN KEY (tenant_id, campus_id) REFERENCES campuses (tenant_id, id),
         FOREIGN KEY (tenant_id, created_by) REFERENCES users (tenant_id, id)
       )`,
      // Keyset pagination over live rows (the only sort is created_at); the member filter has its own index.
      `CREATE INDEX prayer_requests_tenant_created_idx ON prayer_requests (tenant_id, created_at, id) WHERE deleted_at IS NULL`,
      `CREATE INDEX prayer_requests_tenant_member_idx ON prayer_requests (tenant_id, member_id, created_at, id) WHERE deleted_at IS NULL`,
      ...isolateTenantTable('prayer_requests'),
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS prayer_requests');
  }
}
