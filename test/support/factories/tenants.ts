import { randomBytes } from 'node:crypto';
import { ID_PREFIX, toPublicId } from '../../../src/common/ids/id';
import { Role, Scope } from '../../../src/platform/auth/scopes';
import { TokensService } from '../../../src/platform/auth/tokens.service';
import type { Plan } from '../../../src/platform/tenancy/tenant.entity';
import { TenantsService } from '../../../src/platform/tenancy/tenants.service';
import type { UserEntity } from '../../../src/platform/users/user.entity';
import { UsersService } from '../../../src/platform/users/users.service';
import type { TestApi } from '../api';

export interface TestTenant {
  id: string;
  slug: string;
  admin: UserEntity;
  /** An org_admin token with admin:* */
  token: string;
}

export function uniqueSlug(prefix = 'church'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/** A church with an org_admin user and an admin:* token. Enterprise plan unless given, so that suites are not rate limited. */
export async function newTenant(api: TestApi, options: { plan?: Plan; slug?: string } = {}): Promise<TestTenant> {
  const tenant = await api.app
    .get(TenantsService)
    .create({ slug: options.slug ?? uniqueSlug(), name: 'Test Church', plan: options.plan ?? 'enterprise' });
  const { admin, token } = await inTenant(api, tenant.id, async () => {
    const user = await api.app
      .get(UsersService)
      .create({ email: `admin-${randomBytes(8).toString('hex')}@example.org`, role: 'org_admin' });
    const issued = await api.app
      .get(TokensService)
      .issue({ type: 'service', name: 'test admin', scopes: ['admin:*'], creator: user });
    return { admin: user, token: issued.value };
  });
  return { id: tenant.id, slug: tenant.slug, admin, token };
}

/** A staff user of `role` and a PAT with `scopes`. */
export async function newToken(
  api: TestApi,
  tenant: TestTenant,
  scopes: Scope[],
  role: Role = 'org_admin',
  type: 'pat' | 'service' | 'kiosk' = 'pat',
) {
  return inTenant(api, tenant.id, async () => {
    const user = await api.app
      .get(UsersService)
      .create({ email: `${role}-${randomBytes(8).toString('hex')}@example.org`, role });
    const issued = await api.app.get(TokensService).issue({ type, name: `${role} token`, scopes, creator: user });
    return { token: issued.value, id: toPublicId(ID_PREFIX.token, issued.entity.id), uuid: issued.entity.id, user };
  });
}

export function inTenant<T>(api: TestApi, tenantId: string, fn: () => Promise<T>): Promise<T> {
  return api.db.runInTenant({ tenantId, actor: { kind: 'cli' }, lang: 'en' }, fn);
}

/** Cancels the churches' pending webhook deliveries, so that nothing is delivered into the suites that run next. */
export async function cancelPendingDeliveries(api: TestApi, tenantIds: string[]): Promise<void> {
  if (tenantIds.length === 0) return;
  await api.db.platform.query(
    `UPDATE webhook_deliveries SET status = 'canceled', next_attempt_at = NULL WHERE tenant_id = ANY($1::uuid[]) AND status = 'pending'`,
    [tenantIds],
  );
}

/**
 * Tokens of one church for the routes limited per token (30 requests a minute: POST /v1/donations,
 * the reports): `next()` hands out a token used fewer than `uses` times, making a new one (a staff
 * user of `role` with `scopes`) when none is left. Safe with calls at once.
 */
export class TokenPool {
  private readonly tokens: { token: string; used: number }[] = [];
  private making: Promise<void> | null = null;

  constructor(
    private readonly api: TestApi,
    private readonly tenant: TestTenant,
    private readonly scopes: Scope[],
    private readonly role: Role = 'finance',
    private readonly uses = 25,
  ) {}

  async next(): Promise<string> {
    for (;;) {
      const spare = this.tokens.find((t) => t.used < this.uses);
      if (spare) {
        spare.used++;
        return spare.token;
      }
      this.making ??= newToken(this.api, this.tenant, this.scopes, this.role)
        .then(({ token }) => void this.tokens.push({ token, used: 0 }))
        .finally(() => (this.making = null));
      await this.making;
    }
  }
}
