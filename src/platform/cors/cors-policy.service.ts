import { Injectable } from '@nestjs/common';
import { BoundedMap } from '../../common/caching/bounded-map';
import { afterCommitOnce } from '../../common/context/tenant-context';
import { Database } from '../../database/database.service';

const CACHE_MS = 10_000;
/** Origins asked about and churches looked up, kept at most (the oldest entries go first). */
const CACHED_ORIGINS = 10_000;
const CACHED_CHURCHES = 10_000;

/**
 * Which browser origins may call the API: per church (Settings, API, CORS), refused by default.
 * Lookups are cached for a few seconds; a change through this service applies at once here: the
 * caches are dropped once the change has committed, and a lookup that read the database before
 * then does not store what it read (the generation moved on meanwhile).
 */
@Injectable()
export class CorsPolicy {
  private readonly anywhere = new BoundedMap<string, { allowed: boolean; at: number }>(CACHED_ORIGINS);
  private readonly perTenant = new BoundedMap<string, { origins: string[]; at: number }>(CACHED_CHURCHES);

  /** Moves on with every forget(): a lookup stores its answer only if none happened while it read. */
  private generation = 0;

  constructor(private readonly db: Database) {}

  /** For preflights, which carry no X-Tenant: is the origin on any church's allowlist? */
  async isAllowedAnywhere(origin: string): Promise<boolean> {
    const hit = this.anywhere.get(origin);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.allowed;
    const generation = this.generation;
    const rows: unknown[] = await this.db.platform.query(
      'SELECT 1 FROM tenant_settings WHERE cors_allowed_origins @> ARRAY[$1]::text[] LIMIT 1',
      [origin],
    );
    if (generation === this.generation) this.anywhere.set(origin, { allowed: rows.length > 0, at: Date.now() });
    return rows.length > 0;
  }

  async isAllowedFor(tenantId: string, origin: string): Promise<boolean> {
    return (await this.originsOf(tenantId)).includes(origin);
  }

  async originsOf(tenantId: string): Promise<string[]> {
    const hit = this.perTenant.get(tenantId);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.origins;
    const generation = this.generation;
    const rows: { cors_allowed_origins: string[] }[] = await this.db.platform.query(
      'SELECT cors_allowed_origins FROM tenant_settings WHERE tenant_id = $1',
      [tenantId],
    );
    const origins = rows[0]?.cors_allowed_origins ?? [];
    if (generation === this.generation) this.perTenant.set(tenantId, { origins, at: Date.now() });
    return origins;
  }

  /**
   * The church's allowlist changes in the current transaction: the caches are dropped after it
   * commits (before the answer goes out). Dropping them earlier would let a concurrent lookup
   * cache the old list again before the commit.
   */
  forgetAfterCommit(tenantId: string): void {
    afterCommitOnce(`cors:${tenantId}`, () => this.forget(tenantId));
  }

  private forget(tenantId: string): void {
    this.generation++;
    this.perTenant.delete(tenantId);
    this.anywhere.clear();
  }
}
