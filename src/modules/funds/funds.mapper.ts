import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import type { FundRef, FundResponse } from './dto/fund.response';
import type { FundEntity } from './fund.entity';

export function toFundResponse(fund: FundEntity): FundResponse {
  return {
    id: toPublicId(ID_PREFIX.fund, fund.id),
    name: fund.name,
    description: fund.description,
    ledger_code: fund.ledgerCode,
    active: fund.active,
    tax_deductible: fund.taxDeductible,
    created_at: fund.createdAt.toISOString(),
    updated_at: fund.updatedAt.toISOString(),
  };
}

export function toFundRef(fund: FundEntity): FundRef {
  return { id: toPublicId(ID_PREFIX.fund, fund.id), name: fund.name };
}
