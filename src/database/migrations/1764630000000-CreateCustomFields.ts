import { MigrationInterface, QueryRunner } from 'typeorm';
import { isolateTenantTable } from '../app-role';

/**
 * Custom-field definitions (CONTRACT §10): the keys a church's members may carry in
 * `custom_fields`, with their type. The key is unique per church; a select field has a non-empty
 * list of options, no other type has one. Member lists filter `custom_fields.<key>=value` by
 * containment (@>), which the GIN index over live members answers. No platform policy: only read
 * inside a church's transaction.
 */
export class CreateCustomFields1764630000000 implements MigrationInterface {
  name = 'CreateCustomFields1764630000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE custom_field_definitions (
         tenant_id uuid NOT NULL REFERENCES tenants (id),
         id uuid NOT NULL,
         key text NOT NULL,
         label text NOT NULL,
         type text NOT NULL CHECK (type IN ('text', 'number', 'date', 'boolean', 'select')),
         options text[],
         required boolean NOT NULL DEFAULT false,
         created_at timestamptz(3) NOT NULL DEFAULT now(),
         updated_at timestamptz(3) NOT NULL DEFAULT now(),
         PRIMARY KEY (tenant_id, id),
         CONSTRAINT custom_field_definitions_options_check CHECK ((type = 'select') = (options IS NOT NULL AND cardinality(options) > 0))
       )`,
      `CREATE UNIQUE INDEX custom_field_definitions_tenant_key_key ON custom_field_definitions (tenant_id, key)`,
      // Keyset pagination: (tenant_id, <sort field>, id); the unique index above serves sort=key.
      `CREATE INDEX custom_field_definitions_tenant_created_idx ON custom_field_definitions (tenant_id, created_at, id)`,
      ...isolateTenantTable('custom_field_definitions'),

      `CREATE INDEX members_custom_fields_idx ON members USING gin (custom_fields jsonb_path_ops) WHERE deleted_at IS NULL`,
      // Under row-level security a condition can only be an index condition if its operator is
      // LEAKPROOF (it then runs before the tenant policy, on other churches' rows too), and
      // PostgreSQL marks no jsonb operator so: without this, `custom_fields @> …` is a filter over
      // every member of the church. jsonb_contains is a pure comparison returning a boolean; its
      // only possible errors are out-of-memory and stack depth on nesting far deeper than any
      // custom_fields (flat scalars) or API body (at most 32 levels) holds, so it reveals nothing
      // of the rows it reads. Only a superuser may mark it; another role leaves the filter correct
      // but unindexed (a superuser can run this statement later).
      `DO $$ BEGIN
         IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
           ALTER FUNCTION jsonb_contains(jsonb, jsonb) LEAKPROOF;
         ELSE
           RAISE NOTICE 'not a superuser: jsonb_contains stays non-leakproof, custom_fields filters will not use members_custom_fields_idx';
         END IF;
       END $$`,
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS members_custom_fields_idx`);
    await q.query(`DROP TABLE IF EXISTS custom_field_definitions`);
  }
}
