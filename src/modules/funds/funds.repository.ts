import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { lockClause, RowLock } from '../../database/row-lock';
import { tenantScope } from '../../database/tenant-scope';
import { FundEntity } from './fund.entity';
import { FUND_LIST } from './funds.list';

const FUND_COLUMNS =
  'tenant_id AS "tenantId", id, name, description, ledger_code AS "ledgerCode", active, tax_deductible AS "taxDeductible", created_at AS "createdAt", updated_at AS "updatedAt"';

/** The module's only TypeORM surface; every query names the tenant (RLS enforces it too). */
@Injectable()
export class FundsRepository {
  /** False when another fund has the name (ignoring case): the unique index decides, races included. */
  async insert(fund: FundEntity): Promise<boolean> {
    const { manager, tenantId } = tenantScope();
    const rows: unknown[] = await manager.query(
      `INSERT INTO funds (tenant_id, id, name, description, ledger_code, active, tax_deductible, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
       ON CONFLICT (tenant_id, lower(name)) DO NOTHING RETURNING id`,
      [
        tenantId,
        fund.id,
        fund.name,
        fund.description,
        fund.ledgerCode,
        fund.active,
        fund.taxDeductible,
        fund.createdAt,
      ],
    );
    return rows.length === 1;
  }

  /** With `lock`, the row stays locked until the transaction ends (see RowLock). Plain SQL: every gift reads its fund. */
  async findById(id: string, lock?: RowLock): Promise<FundEntity | null> {
    const { manager, tenantId } = tenantScope();
    const rows: FundEntity[] = await manager.query(
      `SELECT ${FUND_COLUMNS} FROM funds WHERE tenant_id = $1 AND id = $2 ${lockClause(lock)}`,
      [tenantId, id],
    );
    return rows.length ? Object.assign(new FundEntity(), rows[0]) : null;
  }

  async findByName(name: string): Promise<FundEntity | null> {
    const { repo, tenantId } = tenantScope(FundEntity);
    return repo
      .createQueryBuilder('f')
      .where('f.tenant_id = :tenantId AND lower(f.name) = lower(:name)', { tenantId, name })
      .getOne();
  }

  async findManyByIds(ids: string[]): Promise<FundEntity[]> {
    if (ids.length === 0) return [];
    const { repo, tenantId } = tenantScope(FundEntity);
    return repo.findBy({ tenantId, id: In(ids) });
  }

  async update(id: string, changes: Partial<FundEntity>): Promise<void> {
    const { repo, tenantId } = tenantScope(FundEntity);
    await repo.update({ tenantId, id }, changes);
  }

  /** What keeps the fund from being deleted: its donations, recurring gifts or pledges (deleted ones too), or null (one query). */
  async referencedBy(id: string): Promise<'donations' | 'recurring gifts' | 'pledges' | null> {
    const { manager, tenantId } = tenantScope();
    const [row]: { what: 'donations' | 'recurring gifts' | 'pledges' | null }[] = await manager.query(
      `SELECT CASE
                WHEN EXISTS (SELECT 1 FROM donations WHERE tenant_id = $1 AND fund_id = $2) THEN 'donations'
                WHEN EXISTS (SELECT 1 FROM recurring_gifts WHERE tenant_id = $1 AND fund_id = $2) THEN 'recurring gifts'
                WHEN EXISTS (SELECT 1 FROM pledges WHERE tenant_id = $1 AND fund_id = $2) THEN 'pledges'
              END AS what`,
      [tenantId, id],
    );
    return row.what;
  }

  async delete(id: string): Promise<void> {
    const { repo, tenantId } = tenantScope(FundEntity);
    await repo.delete({ tenantId, id });
  }

  list(query: ListQuery): Promise<Page<FundEntity>> {
    const { repo, tenantId } = tenantScope(FundEntity);
    return fetchPage(repo.createQueryBuilder('f').where('f.tenant_id = :tenantId', { tenantId }), query, FUND_LIST);
  }
}
