/** The role every tenant transaction switches to; it does not bypass row-level security. */
export const APP_ROLE = 'church_app';

/** The RLS predicate of every tenant-owned table (CONTRACT §4). */
export const TENANT_PREDICATE = `tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid`;

/** SQL that makes `table` tenant-isolated: RLS enabled and forced, one policy, grants for the app role. */
export function isolateTenantTable(table: string, grants = 'SELECT, INSERT, UPDATE, DELETE'): string[] {
  return [
    `ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`,
    `ALTER TABLE ${table} FORCE ROW LEVEL SECURITY`,
    `CREATE POLICY tenant_isolation ON ${table} USING (${TENANT_PREDICATE}) WITH CHECK (${TENANT_PREDICATE})`,
    `GRANT ${grants} ON ${table} TO ${APP_ROLE}`,
  ];
}

/**
 * Platform tables (tenants, users, tokens) are read before a tenant is known, by the auth and
 * tenancy modules only, on the pool's own role (the role that ran the migrations).
 */
export function allowPlatformAccess(table: string): string {
  return `CREATE POLICY platform_access ON ${table} TO CURRENT_USER USING (true) WITH CHECK (true)`;
}
