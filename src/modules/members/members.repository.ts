import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { TenantContext } from '../../common/context/tenant-context';
import { CachedTotal, fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { CampusEntity } from '../campuses/campus.entity';
import { MemberEntity } from './member.entity';
import { MEMBER_LIST } from './members.list';
import { ListTotals } from '../../platform/list-totals/list-totals.service';

/** The module's only TypeORM surface. Every query names the tenant (RLS enforces it too) and skips soft-deleted rows. */
@Injectable()
export class MembersRepository {
  constructor(private readonly totals: ListTotals) {}

  private scope() {
    const { manager, tenantId } = TenantContext.current();
    return { repo: manager.getRepository(MemberEntity), tenantId };
  }

  /** Any number of members in one statement (unnest of one array per column). */
  async insert(members: MemberEntity[]): Promise<void> {
    if (!members.length) return;
    const { repo, tenantId } = this.scope();
    const column = <K extends keyof MemberEntity>(key: K) => members.map((m) => m[key]);
    await repo.manager.query(
      `INSERT INTO members (tenant_id, id, first_name, last_name, email, phone, birthdate, gender, status, campus_id, active,
                            household_id, address, custom_fields, created_at, updated_at)
       SELECT $1, * FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::date[], $8::text[], $9::text[],
                                $10::uuid[], $11::boolean[], $12::uuid[], $13::jsonb[], $14::jsonb[], $15::timestamptz[], $16::timestamptz[])`,
      [
        tenantId,
        column('id'), column('firstName'), column('lastName'), column('email'), column('phone'), column('birthdate'), column('gender'),
        column('status'), column('campusId'), column('active'), column('householdId'),
        members.map((m) => (m.address ? JSON.stringify(m.address) : null)),
        members.map((m) => JSON.stringify(m.customFields)),
        column('createdAt'), column('updatedAt'),
      ],
    );
    this.totals.invalidate('members');
  }

  async findLive(id: string): Promise<MemberEntity | null> {
    const { repo, tenantId } = this.scope();
    return repo.findOneBy({ tenantId, id, deletedAt: IsNull() });
  }

  /** Updates a live member; false when it does not exist (or was deleted meanwhile). */
  async update(id: string, changes: Partial<MemberEntity>): Promise<boolean> {
    const { repo, tenantId } = this.scope();
    const result = await repo.update({ tenantId, id, deletedAt: IsNull() }, changes);
    this.totals.invalidate('members');
    return (result.affected ?? 0) > 0;
  }

  list(query: ListQuery, totals?: CachedTotal): Promise<Page<MemberEntity>> {
    const { repo, tenantId } = this.scope();
    const qb = repo.createQueryBuilder('m').where('m.tenant_id = :tenantId AND m.deleted_at IS NULL', { tenantId });
    return fetchPage(qb, query, MEMBER_LIST, {
      totals,
      // The campus comes with the page (one query, not one more round trip).
      decorate: (page) => page.leftJoinAndMapOne('m.campus', CampusEntity, 'c', 'c.tenant_id = m.tenant_id AND c.id = m.campus_id'),
    });
  }
}
