import { Injectable } from '@nestjs/common';
import { hash } from 'argon2';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError } from '../../common/errors/app-error';
import { newUuid } from '../../common/ids/id';
import { Role, ROLES } from '../auth/scopes';
import { UserEntity } from './user.entity';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Staff users of the current church (runs inside a tenant transaction). */
@Injectable()
export class UsersService {
  private get repo() {
    return TenantContext.current().manager.getRepository(UserEntity);
  }

  async create(input: { email: string; role: Role; name?: string; password?: string }): Promise<UserEntity> {
    const issues = [];
    if (!EMAIL.test(input.email ?? ''))
      issues.push({ field: 'email', issue: 'invalid_format', params: { format: 'email' } });
    if (!ROLES.includes(input.role))
      issues.push({ field: 'role', issue: 'one_of', params: { values: ROLES.join(', ') } });
    if (input.password !== undefined && input.password.length < 12)
      issues.push({ field: 'password', issue: 'too_short', params: { min: 12 } });
    if (issues.length) throw AppError.validation(issues);
    const { tenantId } = TenantContext.current();
    if (await this.findByEmail(input.email))
      throw new AppError('conflict', { reason: `a user with email ${input.email} exists` });
    const now = new Date();
    const user = this.repo.create({
      tenantId,
      id: newUuid(),
      email: input.email.toLowerCase(),
      role: input.role,
      name: input.name ?? null,
      passwordHash: input.password ? await hash(input.password) : null,
      createdAt: now,
      updatedAt: now,
    });
    await this.repo.insert(user);
    return user;
  }

  async findByEmail(email: string): Promise<UserEntity | null> {
    const { tenantId } = TenantContext.current();
    return this.repo
      .createQueryBuilder('u')
      .where('u.tenant_id = :tenantId AND lower(u.email) = lower(:email)', { tenantId, email })
      .getOne();
  }

  async requireByEmail(email: string): Promise<UserEntity> {
    const user = await this.findByEmail(email);
    if (!user) throw AppError.notFound('user');
    return user;
  }

  findById(id: string): Promise<UserEntity | null> {
    return this.repo.findOneBy({ tenantId: TenantContext.current().tenantId, id });
  }

  async requireById(id: string): Promise<UserEntity> {
    const user = await this.repo.findOneBy({ tenantId: TenantContext.current().tenantId, id });
    if (!user) throw AppError.notFound('user');
    return user;
  }
}
