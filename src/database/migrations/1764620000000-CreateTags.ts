import { MigrationInterface, QueryRunner } from 'typeorm';
import { isolateTenantTable } from '../app-role';

/**
 * Tags (CONTRACT §10) and the members they are on. A tag's name is unique per church ignoring case
 * (the index settles two concurrent creates). member_tags is keyed both ways: (tag, member) answers
 * the `tag` filter of member lists and the removal of a deleted tag from every member, (member, tag)
 * loads the tags of a page of members. No platform policy: only read inside a church's transaction.
 */
export class CreateTags1764620000000 implements MigrationInterface {
  name = 'CreateTags1764620000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE tags (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 50),
         color text CHECK (color IN ('blue', 'brown', 'green', 'grey', 'orange', 'pink', 'purple', 'red')),
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id)
       )`,
      `CREATE UNIQUE INDEX tags_tenant_lower_name_key ON tags (tenant_id, lower(name))`,
      // Keyset pagination: (tenant_id, <sort field>, id).
      `CREATE INDEX tags_tenant_created_idx ON tags (tenant_id, created_at, id)`,
      `CREATE INDEX tags_tenant_name_idx ON tags (tenant_id, name, id)`,
      ...isolateTenantTable('tags'),

      `CREATE TABLE member_tags (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         tag_id uuid NOT NULL,
         member_id uuid NOT NULL,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, tag_id, member_id),
         FOREIGN KEY (tenant_id, tag_id) REFERENCES tags (tenant_id, id) ON DELETE CASCADE,
         FOREIGN KEY (tenant_id, member_id) REFERENCES members (tenant_id, id)
       )`,
      `CREATE INDEX member_tags_tenant_member_idx ON member_tags (tenant_id, member_id, tag_id)`,
      // A tag belongs to one church: without this the planner multiplies the two selectivities and
      // expects a common tag to match a few hundred members where it matches thousands (a 54 ms page
      // of ?tag= instead of 0.4 ms on 50,000 members).
      `CREATE STATISTICS member_tags_tenant_tag_stats (dependencies) ON tenant_id, tag_id FROM member_tags`,
      ...isolateTenantTable('member_tags', 'SELECT, INSERT, DELETE'),
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS member_tags`);
    await q.query(`DROP TABLE IF EXISTS tags`);
  }
}
