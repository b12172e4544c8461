import { MigrationInterface, QueryRunner } from 'typeorm';
import { isolateTenantTable } from '../app-role';

/**
 * Cell groups (CONTRACT §11) and who is in them. A member may belong to several groups, once each
 * (unique (tenant_id, group_id, member_id)); `group_members` has its own (tenant_id, id) key so that
 * a group's roster pages by (joined_at, id) on an index that leads with tenant_id and group_id.
 * `closed_at` is set exactly when the status is `closed` (the CHECK holds it); `parent_group_id`
 * names the group a multiply came from.
 */
export class CreateGroups1764830000000 implements MigrationInterface {
  name = 'CreateGroups1764830000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE groups (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         name text NOT NULL,
         description text,
         campus_id uuid,
         meeting_day text CHECK (meeting_day IN ('monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday')),
         meeting_time text CHECK (meeting_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
         location text,
         capacity integer CHECK (capacity > 0),
         status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'full', 'closed')),
         parent_group_id uuid,
         closed_at timestamptz(3),
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         deleted_at timestamptz(3),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, campus_id) REFERENCES campuses (tenant_id, id),
         FOREIGN KEY (tenant_id, parent_group_id) REFERENCES groups (tenant_id, id),
         CONSTRAINT groups_closed_check CHECK ((status = 'closed') = (closed_at IS NOT NULL))
       )`,
      // Keyset pagination: one index per sortable field, (tenant_id, field, id), over live rows.
      `CREATE INDEX groups_tenant_created_idx ON groups (tenant_id, created_at, id) WHERE deleted_at IS NULL`,
      `CREATE INDEX groups_tenant_name_idx ON groups (tenant_id, name, id) WHERE deleted_at IS NULL`,
      `CREATE INDEX groups_tenant_parent_idx ON groups (tenant_id, parent_group_id) WHERE parent_group_id IS NOT NULL`,
      ...isolateTenantTable('groups'),
      `CREATE TABLE group_members (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         group_id uuid NOT NULL,
         member_id uuid NOT NULL,
         group_role text NOT NULL CHECK (group_role IN ('leader', 'member')),
         joined_at timestamptz(3) NOT NULL DEFAULT now(),
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id),
         FOREIGN KEY (tenant_id, group_id) REFERENCES groups (tenant_id, id),
         FOREIGN KEY (tenant_id, member_id) REFERENCES members (tenant_id, id)
       )`,
      `CREATE UNIQUE INDEX group_members_tenant_group_member_key ON group_members (tenant_id, group_id, member_id)`,
      // A group's roster, page by page (GET /v1/groups/{id}/members), and its counts.
      `CREATE INDEX group_members_tenant_group_joined_idx ON group_members (tenant_id, group_id, joined_at, id)`,
      // A member's groups (and the members foreign key).
      `CREATE INDEX group_members_tenant_member_idx ON group_members (tenant_id, member_id)`,
      ...isolateTenantTable('group_members'),
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS group_members`);
    await q.query(`DROP TABLE IF EXISTS groups`);
  }
}
