import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { Database } from '../../database/database.service';
import type { Principal } from './principal';
import type { Plan } from '../tenancy/tenant.entity';
import { Role, withinRole } from './scopes';
import { hashToken, isWellFormedToken } from './token-format';

interface TokenRow {
  id: string;
  tenant_id: string;
  type: Principal['tokenType'];
  name: string;
  scopes: string[];
  user_id: string | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  slug: string;
  plan: Plan;
  quota_rpm: number | null;
  quota_per_day: number | null;
  quota_burst: number | null;
  quota_until: Date | null;
  status: string;
  role: Role | null;
  acting_user_id: string | null;
}

const LOOKUP = `
  SELECT t.id, t.tenant_id, t.type, t.name, t.scopes, t.user_id, t.expires_at, t.revoked_at,
         n.slug, n.plan, n.status, n.quota_rpm, n.quota_per_day, n.quota_burst, n.quota_until, u.role, u.id AS acting_user_id
    FROM api_tokens t
    JOIN tenants n ON n.id = t.tenant_id
    LEFT JOIN users u ON u.tenant_id = t.tenant_id AND u.id = coalesce(t.user_id, t.created_by)
   WHERE t.token_hash = $1`;

const LAST_USED_INTERVAL_MS = 60_000;

/**
 * Bearer token -> Principal with one indexed SHA-256 match. `last_used_at` is written at most once
 * a minute per token per process, off the request's critical path.
 */
@Injectable()
export class TokenAuthenticator implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Auth');
  private readonly lastUsedWrites = new Map<string, number>();
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly db: Database) {}

  async authenticate(value: string, tenantSlug: string): Promise<Principal> {
    if (!isWellFormedToken(value)) throw new AppError('unauthorized');
    const rows = await this.db.platformRows<TokenRow>(LOOKUP, [hashToken(value)]);
    const row = rows[0];
    if (!row) throw new AppError('unauthorized');
    if (row.revoked_at) throw new AppError('token_revoked');
    if (row.expires_at && row.expires_at.getTime() <= Date.now()) throw new AppError('token_expired');
    if (row.slug !== tenantSlug) throw new AppError('tenant_forbidden');
    if (row.status !== 'active') throw new AppError('tenant_inactive');
    this.touch(row.tenant_id, row.id);
    return {
      tokenId: row.id,
      tokenName: row.name,
      tokenType: row.type,
      // An OAuth access token acts for its user: a role lowered since the consent caps it at once.
      scopes: row.type === 'oauth' && row.role ? withinRole(row.role, row.scopes) : row.scopes,
      userId: row.user_id,
      actingUserId: row.acting_user_id,
      role: row.role,
      tenantId: row.tenant_id,
      tenantSlug: row.slug,
      tenantPlan: row.plan,
      quotaOverride:
        row.quota_rpm === null && row.quota_per_day === null && row.quota_burst === null
          ? null
          : { rpm: row.quota_rpm, perDay: row.quota_per_day, burst: row.quota_burst, until: row.quota_until },
    };
  }

  private touch(tenantId: string, tokenId: string): void {
    const now = Date.now();
    const last = this.lastUsedWrites.get(tokenId) ?? 0;
    if (now - last < LAST_USED_INTERVAL_MS) return;
    this.lastUsedWrites.set(tokenId, now);
    if (this.lastUsedWrites.size > 50_000) this.lastUsedWrites.clear();
    const write = this.db.platform
      .query('UPDATE api_tokens SET last_used_at = now() WHERE tenant_id = $1 AND id = $2', [tenantId, tokenId])
      .catch((error: unknown) => this.logger.warn(`last_used_at not recorded: ${String(error)}`))
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }

  /** Lets in-flight last_used_at writes finish before the pool closes. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }
}
