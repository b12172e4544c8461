import { ID_PREFIX } from '../../common/ids/id';
import type { FilterValue, ListSpec, Operator } from '../../common/lists/list-spec';
import { asStrings, idCondition, uuidsOf } from '../../common/lists/ref-filters';
import { CURRENCY_CODES } from '../../common/money/currencies';
import { DONATION_METHODS, DONATION_STATUSES, DonationEntity } from './donation.entity';

/** campus=<key or cmp_ id>, or campus[in]=a,b (as members filter it). */
function campusCondition(
  alias: string,
  _op: Operator,
  value: FilterValue | FilterValue[],
  param: (v: unknown) => string,
): string {
  const refs = asStrings(value);
  return `${alias}.campus_id IN (SELECT c.id FROM campuses c WHERE c.tenant_id = ${alias}.tenant_id AND (c.key IN ${param(refs)} OR c.id IN ${param(uuidsOf(ID_PREFIX.campus, refs))}))`;
}

const SORTS: ListSpec<DonationEntity>['sorts'] = {
  created_at: { column: 'created_at', type: 'timestamp', value: (row) => row.createdAt.toISOString() },
  received_at: { column: 'received_at', type: 'timestamp', value: (row) => row.receivedAt.toISOString() },
  amount: { column: 'amount', type: 'integer', value: (row) => row.amount },
};

const FILTERS: ListSpec<DonationEntity>['filters'] = {
  fund_id: {
    type: 'string',
    ops: ['in'],
    sql: idCondition('fund_id', ID_PREFIX.fund),
    description: 'The fund (fnd_ id); `fund_id[in]=a,b` for several.',
  },
  donor_id: {
    type: 'string',
    ops: ['in'],
    sql: idCondition('donor_id', ID_PREFIX.member),
    description: 'The donor (mem_ id); `donor_id[in]=a,b` for several.',
  },
  campus: {
    type: 'string',
    ops: ['in'],
    sql: campusCondition,
    description: 'Campus key or cmp_ id; `campus[in]=a,b` for several.',
  },
  method: {
    type: 'enum',
    values: DONATION_METHODS,
    ops: ['ne', 'in'],
    column: 'method',
    description: 'How the gift was given.',
  },
  status: {
    type: 'enum',
    values: DONATION_STATUSES,
    ops: ['ne', 'in'],
    column: 'status',
    description: 'e.g. `status=pending` for the gifts of open batches, `status[in]=refunded,partially_refunded`.',
  },
  currency: { type: 'enum', values: CURRENCY_CODES, ops: ['in'], column: 'currency', description: 'ISO 4217 code.' },
  batch_id: {
    type: 'string',
    ops: [],
    sql: idCondition('batch_id', ID_PREFIX.batch),
    description: 'The batch (bat_ id) the gifts were entered in.',
  },
  recurring_gift_id: {
    type: 'string',
    ops: [],
    sql: idCondition('recurring_gift_id', ID_PREFIX.recurringGift),
    description: 'The recurring gift (rcg_ id) the charges came from.',
  },
  amount: {
    type: 'integer',
    ops: ['ne', 'gt', 'gte', 'lt', 'lte'],
    column: 'amount',
    description: 'Minor units, e.g. `amount[gte]=10000` for gifts of 100.00 and more (compare within one currency).',
  },
  received_at: {
    type: 'timestamp',
    ops: ['gt', 'gte', 'lt', 'lte'],
    column: 'received_at',
    description: 'When the gift was received (ISO 8601; an offset is honoured).',
  },
  created_at: {
    type: 'timestamp',
    ops: ['gt', 'gte', 'lt', 'lte'],
    column: 'created_at',
    description: 'When it was entered (ISO 8601; an offset is honoured).',
  },
  updated_at: {
    type: 'timestamp',
    ops: ['gt', 'gte', 'lt', 'lte'],
    column: 'updated_at',
    description: 'Last change (a refund, a dispute, a PATCH, a batch commit): for incremental sync.',
  },
};

export const DONATION_LIST: ListSpec<DonationEntity> = {
  resource: 'donation',
  defaultSort: 'created_at',
  sorts: SORTS,
  filters: FILTERS,
};

/** GET /v1/members/{id}/donations: the same list for one donor (the donor is the path's). */
export const MEMBER_DONATION_LIST: ListSpec<DonationEntity> = {
  resource: 'donation',
  defaultSort: 'created_at',
  sorts: SORTS,
  filters: Object.fromEntries(Object.entries(FILTERS).filter(([name]) => name !== 'donor_id')),
};
