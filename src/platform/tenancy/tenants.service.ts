import { Injectable } from '@nestjs/common';
import { BoundedMap } from '../../common/caching/bounded-map';
import { AppError } from '../../common/errors/app-error';
import { newUuid } from '../../common/ids/id';
import { SLUG } from '../../common/validation/rules';
import { Database } from '../../database/database.service';
import { tenantScope } from '../../database/tenant-scope';
import { Plan, PLANS, TenantEntity } from './tenant.entity';

/** Churches whose slug a process keeps (the oldest go first). */
const CACHED_SLUGS = 10_000;

/**
 * Churches, and the one reader of the tenants table. By slug, create and update: platform rows, read
 * and written on the pool's own role, never inside a tenant transaction. The current church's slug
 * and name: read in the current tenant transaction.
 */
@Injectable()
export class TenantsService {
  /** Slugs by church id: a slug never changes (update() cannot change it), so each is read once per process. */
  private readonly slugs = new BoundedMap<string, string>(CACHED_SLUGS);

  constructor(private readonly db: Database) {}

  /** The key (slug) of the church of the current tenant transaction (event payloads, its payment webhook URL). */
  async currentSlug(): Promise<string> {
    const { manager, tenantId } = tenantScope();
    let slug = this.slugs.get(tenantId);
    if (slug === undefined) {
      const rows: { slug: string }[] = await manager.query('SELECT slug FROM tenants WHERE id = $1', [tenantId]);
      slug = rows[0].slug;
      this.slugs.set(tenantId, slug);
    }
    return slug;
  }

  /**
   * The name of the church of the current tenant transaction (mails, statements), read in it every
   * time: a church can be renamed (update(), from another process), so it is never cached.
   */
  async currentName(): Promise<string> {
    const { manager, tenantId } = tenantScope();
    const [row] = await manager.query<{ name: string }[]>('SELECT name FROM tenants WHERE id = $1', [tenantId]);
    return row?.name ?? '';
  }

  async create(input: { slug: string; name: string; plan?: Plan }): Promise<TenantEntity> {
    const issues = [];
    if (!SLUG.test(input.slug))
      issues.push({
        field: 'slug',
        issue: 'invalid_format',
        params: { format: 'lowercase letters, digits and dashes' },
      });
    if (!input.name?.trim()) issues.push({ field: 'name', issue: 'required' });
    if (input.plan && !PLANS.includes(input.plan))
      issues.push({ field: 'plan', issue: 'one_of', params: { values: PLANS.join(', ') } });
    if (issues.length) throw AppError.validation(issues);
    const repo = this.db.platform.getRepository(TenantEntity);
    if (await repo.findOneBy({ slug: input.slug }))
      throw new AppError('conflict', { reason: `a church with slug ${input.slug} exists` });
    const now = new Date();
    const tenant = repo.create({
      id: newUuid(),
      slug: input.slug,
      name: input.name.trim(),
      plan: input.plan ?? 'starter',
      status: 'active',
      quotaRpm: null,
      quotaPerDay: null,
      quotaBurst: null,
      quotaUntil: null,
      createdAt: now,
      updatedAt: now,
    });
    await repo.insert(tenant);
    return tenant;
  }

  async requireBySlug(slug: string): Promise<TenantEntity> {
    const tenant = await this.db.platform.getRepository(TenantEntity).findOneBy({ slug });
    if (!tenant) throw AppError.notFound('church');
    return tenant;
  }

  async update(
    slug: string,
    changes: Partial<
      Pick<TenantEntity, 'plan' | 'status' | 'name' | 'quotaRpm' | 'quotaPerDay' | 'quotaBurst' | 'quotaUntil'>
    >,
  ): Promise<TenantEntity> {
    const tenant = await this.requireBySlug(slug);
    Object.assign(tenant, changes, { updatedAt: new Date() });
    await this.db.platform.getRepository(TenantEntity).save(tenant);
    return tenant;
  }
}
