import { MigrationInterface, QueryRunner } from 'typeorm';
import { isolateTenantTable } from '../app-role';

/**
 * Prospects (CONTRACT §10): people on their way to membership. A converted prospect points to the
 * member it became; the CHECK keeps stage, converted_at and member_id in step, and the unique index
 * lets a member come from one prospect at most. No platform policy: prospects are only ever read
 * inside a church's transaction.
 */
export class CreateProspects1764610000000 implements MigrationInterface {
  name = 'CreateProspects1764610000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE prospects (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         first_name text NOT NULL,
         last_name text NOT NULL,
         email text,
         phone text,
         campus_id uuid,
         source text CHECK (source IN ('visit', 'event', 'online', 'referral', 'other')),
         stage text NOT NULL DEFAULT 'new' CHECK (stage IN ('new', 'contacted', 'visited', 'connecting', 'converted', 'lost')),
         assigned_to uuid,
         follow_up_on date,
         notes text,
         converted_at timestamptz(3),
         member_id uuid,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         deleted_at timestamptz(3),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, campus_id) REFERENCES campuses (tenant_id, id),
         FOREIGN KEY (tenant_id, assigned_to) REFERENCES users (tenant_id, id),
         FOREIGN KEY (tenant_id, member_id) REFERENCES members (tenant_id, id),
         CONSTRAINT prospects_converted_check CHECK (
           CASE WHEN stage = 'converted' THEN member_id IS NOT NULL AND converted_at IS NOT NULL ELSE member_id IS NULL AND converted_at IS NULL END
         )
       )`,
      `CREATE UNIQUE INDEX prospects_tenant_member_key ON prospects (tenant_id, member_id) WHERE member_id IS NOT NULL`,
      // Keyset pagination: one index per sortable field, (tenant_id, field, id), over live rows.
      `CREATE INDEX prospects_tenant_created_idx ON prospects (tenant_id, created_at, id) WHERE deleted_at IS NULL`,
      `CREATE INDEX prospects_tenant_last_name_idx ON prospects (tenant_id, last_name, id) WHERE deleted_at IS NULL`,
      `CREATE INDEX prospects_tenant_follow_up_idx ON prospects (tenant_id, follow_up_on, id) WHERE deleted_at IS NULL`,
      // The pipeline views: a stage's prospects, and a staff user's follow-ups by date.
      `CREATE INDEX prospects_tenant_stage_idx ON prospects (tenant_id, stage, created_at, id) WHERE deleted_at IS NULL`,
      `CREATE INDEX prospects_tenant_assigned_idx ON prospects (tenant_id, assigned_to, follow_up_on, id) WHERE deleted_at IS NULL`,
      ...isolateTenantTable('prospects'),
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS prospects`);
  }
}
