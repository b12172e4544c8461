import { ID_PREFIX } from '../../common/ids/id';
import type { ListSpec } from '../../common/lists/list-spec';
import { idCondition } from '../../common/lists/ref-filters';
import { CURRENCY_CODES } from '../../common/money/currencies';
import { DONATION_METHODS, DONATION_STATUSES, DonationEntity } from './donation.entity';
import { timestampFilter, timestampSort } from '../../common/lists/list-spec-parts';
import { CAMPUS_FILTER } from '../campuses/campus-filter';

const SORTS: ListSpec<DonationEntity>['sorts'] = {
  created_at: timestampSort('created_at', (row) => row.createdAt),
  received_at: timestampSort('received_at', (row) => row.receivedAt),
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
  campus: CAMPUS_FILTER,
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
  received_at: timestampFilter('received_at', 'When the gift was received (ISO 8601; an offset is honoured).'),
  created_at: timestampFilter('created_at', 'When it was entered (ISO 8601; an offset is honoured).'),
  updated_at: timestampFilter(
    'updated_at',
    'Last change (a refund, a dispute, a PATCH, a batch commit): for incremental sync.',
  ),
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
