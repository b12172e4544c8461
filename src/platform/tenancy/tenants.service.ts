import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { newUuid } from '../../common/ids/id';
import { SLUG } from '../../common/validation/rules';
import { Database } from '../../database/database.service';
import { Plan, PLANS, TenantEntity } from './tenant.entity';

/** Churches. Platform rows: read and written on the pool's own role, never inside a tenant transaction. */
@Injectable()
export class TenantsService {
  constructor(private readonly db: Database) {}

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
