import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError, FieldIssue } from '../../common/errors/app-error';
import { ID_PREFIX, newUuid, parsePublicId } from '../../common/ids/id';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import { clearedRequiredFields } from '../../common/validation/validation-issues';
import type { RowLock } from '../../database/row-lock';
import type { CreateFundDto } from './dto/create-fund.dto';
import type { FundResponse } from './dto/fund.response';
import type { UpdateFundDto } from './dto/update-fund.dto';
import { FundEntity } from './fund.entity';
import { FUND_LIST } from './funds.list';
import { toFundResponse } from './funds.mapper';
import { FundsRepository } from './funds.repository';

const duplicateName = (name: string) =>
  new AppError('conflict', { reason: `a fund named ${name} exists` }, [{ field: 'name', issue: 'duplicate' }]);

@Injectable()
export class FundsService {
  constructor(private readonly funds: FundsRepository) {}

  async create(dto: CreateFundDto): Promise<FundResponse> {
    const now = new Date();
    const fund = Object.assign(new FundEntity(), {
      tenantId: TenantContext.current().tenantId,
      id: newUuid(),
      name: dto.name.trim(),
      description: dto.description ?? null,
      ledgerCode: dto.ledger_code ?? null,
      active: dto.active ?? true,
      taxDeductible: dto.tax_deductible ?? true,
      createdAt: now,
      updatedAt: now,
    });
    if (!fund.name) throw AppError.validation([{ field: 'name', issue: 'required' }]);
    if (!(await this.funds.insert(fund))) throw duplicateName(fund.name);
    return toFundResponse(fund);
  }

  async get(id: string): Promise<FundResponse> {
    return toFundResponse(await this.require(id));
  }

  /** The funds among `ids` as GET returns them, by id (the changes feed's objects), in one query. */
  async getMany(ids: string[]): Promise<Map<string, FundResponse>> {
    return new Map((await this.funds.findManyByIds(ids)).map((f) => [f.id, toFundResponse(f)]));
  }

  async list(rawQuery: Record<string, unknown>): Promise<ListEnvelope<FundResponse>> {
    const page = await this.funds.list(parseListQuery(rawQuery, FUND_LIST));
    return toEnvelope(page, toFundResponse);
  }

  /** Any subset of the fields; `active: false` archives the fund (its donations stay as they are). */
  async update(id: string, dto: UpdateFundDto): Promise<FundResponse> {
    const cleared = clearedRequiredFields(dto, ['name', 'active', 'tax_deductible']);
    if (cleared.length) throw AppError.validation(cleared);
    const fund = await this.require(id, 'for_no_key_update');
    const changes: Partial<FundEntity> = { updatedAt: new Date() };
    if (dto.name !== undefined) {
      changes.name = dto.name.trim();
      if (!changes.name) throw AppError.validation([{ field: 'name', issue: 'required' }]);
      const other = await this.funds.findByName(changes.name);
      if (other && other.id !== fund.id) throw duplicateName(changes.name);
    }
    if (dto.description !== undefined) changes.description = dto.description;
    if (dto.ledger_code !== undefined) changes.ledgerCode = dto.ledger_code;
    if (dto.active !== undefined) changes.active = dto.active;
    if (dto.tax_deductible !== undefined) changes.taxDeductible = dto.tax_deductible;
    await this.funds.update(fund.id, changes);
    return toFundResponse(Object.assign(fund, changes));
  }

  /**
   * A fund nobody gave to can be deleted; one with donations is 409 `conflict` (archive it with
   * `active: false`). The row is locked FOR UPDATE first: a donation being made to it meanwhile
   * waits (it locks the fund FOR KEY SHARE) and then finds no fund (422).
   */
  async remove(id: string): Promise<void> {
    const fund = await this.require(id, 'pessimistic_write');
    const referencedBy = await this.funds.referencedBy(fund.id);
    if (referencedBy)
      throw new AppError('conflict', { reason: `the fund has ${referencedBy}; archive it with active: false instead` });
    await this.funds.delete(fund.id);
  }

  /**
   * What is wrong with giving to the fund `fund_id` names (a gift, a pledge, a recurring gift): not
   * found, or archived (`inactive`). Locked FOR KEY SHARE: a concurrent delete waits.
   */
  async givingIssues(publicId: string): Promise<FieldIssue[]> {
    const fund = await this.findByPublicId(publicId, 'for_key_share');
    if (!fund) return [{ field: 'fund_id', issue: 'not_found' }];
    return fund.active ? [] : [{ field: 'fund_id', issue: 'inactive' }];
  }

  /** The fund a body or a processor names (`fnd_` id), or null. `lock` as RowLock (a donation takes for_key_share). */
  async findByPublicId(publicId: string, lock?: RowLock): Promise<FundEntity | null> {
    const uuid = parsePublicId(ID_PREFIX.fund, publicId);
    return uuid ? this.funds.findById(uuid, lock) : null;
  }

  /** The fund with this uuid, or null. */
  findById(id: string, lock?: RowLock): Promise<FundEntity | null> {
    return this.funds.findById(id, lock);
  }

  /** The funds of a page of rows, by id, in one query. */
  async byIdOf(rows: { fundId: string }[]): Promise<Map<string, FundEntity>> {
    const ids = [...new Set(rows.map((r) => r.fundId))];
    return new Map((await this.funds.findManyByIds(ids)).map((f) => [f.id, f]));
  }

  private async require(id: string, lock?: RowLock): Promise<FundEntity> {
    const fund = await this.funds.findById(id, lock);
    if (!fund) throw AppError.notFound('fund');
    return fund;
  }
}
