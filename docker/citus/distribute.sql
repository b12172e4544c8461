-- Distributes the API's schema on Citus: run once on the coordinator, after the migrations
-- (`npm run migration:run` with DATABASE_URL pointing at the coordinator), as the role that ran them.
--
-- Church tables (every table with a NOT NULL tenant_id) are distributed by tenant_id, all co-located,
-- so that a church's rows of every table live on one node and every statement of a request (which
-- always names the church) runs there whole. The other tables (tenants, platform jobs, the
-- migrations' table) are reference tables, copied to every node.
--
-- It relies on the schema rules test/api/citus-schema.int-spec.ts checks: the primary key and every
-- unique index of a church table include tenant_id, and every foreign key between church tables
-- joins on tenant_id. Foreign keys between church tables are dropped while the tables are distributed
-- (members and households refer to each other) and added back once all of them are.
CREATE EXTENSION IF NOT EXISTS citus;

DO $$
DECLARE
  t record;
  fk record;
  first regclass;
BEGIN
  CREATE TEMP TABLE church_tables ON COMMIT DROP AS
    SELECT c.oid::regclass AS tbl
      FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id' AND a.attnotnull
     WHERE c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace
     ORDER BY c.relname;
  CREATE TEMP TABLE church_fks ON COMMIT DROP AS
    SELECT con.conrelid::regclass AS tbl, con.conname, pg_get_constraintdef(con.oid) AS def
      FROM pg_constraint con
     WHERE con.contype = 'f'
       AND con.conrelid IN (SELECT tbl FROM church_tables) AND con.confrelid IN (SELECT tbl FROM church_tables);

  FOR fk IN SELECT * FROM church_fks LOOP
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', fk.tbl, fk.conname);
  END LOOP;

  FOR t IN
    SELECT c.oid::regclass AS tbl FROM pg_class c
     WHERE c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace
       AND c.oid NOT IN (SELECT tbl FROM church_tables)
     ORDER BY c.relname
  LOOP
    PERFORM create_reference_table(t.tbl);
  END LOOP;

  FOR t IN SELECT tbl FROM church_tables LOOP
    IF first IS NULL THEN
      PERFORM create_distributed_table(t.tbl, 'tenant_id');
      first := t.tbl;
    ELSE
      PERFORM create_distributed_table(t.tbl, 'tenant_id', colocate_with => first::text);
    END IF;
  END LOOP;

  FOR fk IN SELECT * FROM church_fks LOOP
    EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I %s', fk.tbl, fk.conname, fk.def);
  END LOOP;
END $$;
