import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import type { CampusEntity } from '../campuses/campus.entity';
import type { FundEntity } from '../funds/fund.entity';
import { toFundRef } from '../funds/funds.mapper';
import type { DonationRefundEntity } from './donation-refund.entity';
import type { DonationEntity } from './donation.entity';
import type { MemberName } from '../members/member-lookup';
import type { DonationRefundedEvent, DonationResponse } from './dto/donation.response';

/** What a page of donations refers to, by id: funds, donors and campuses (each read in one query). */
export interface DonationRefs {
  funds: Map<string, FundEntity>;
  donors: Map<string, Pick<MemberName, 'id' | 'firstName'>>;
  campuses: Map<string, CampusEntity>;
}

export function toDonationResponse(d: DonationEntity, refs: DonationRefs): DonationResponse {
  const fund = refs.funds.get(d.fundId)!;
  const donor = d.donorId ? refs.donors.get(d.donorId) : undefined;
  const campus = d.campusId ? refs.campuses.get(d.campusId) : undefined;
  return {
    id: toPublicId(ID_PREFIX.donation, d.id),
    amount: d.amount,
    currency: d.currency,
    fund: toFundRef(fund),
    donor: donor ? { id: toPublicId(ID_PREFIX.member, donor.id), first_name: donor.firstName } : null,
    campus: campus ? { id: toPublicId(ID_PREFIX.campus, campus.id), name: campus.name } : null,
    method: d.method,
    status: d.status,
    received_at: d.receivedAt.toISOString(),
    check_number: d.checkNumber,
    note: d.note,
    batch_id: d.batchId ? toPublicId(ID_PREFIX.batch, d.batchId) : null,
    recurring_gift_id: d.recurringGiftId ? toPublicId(ID_PREFIX.recurringGift, d.recurringGiftId) : null,
    processor_id: d.processorId,
    refunded_amount: d.refundedAmount,
    dispute: d.dispute
      ? { reason: d.dispute.reason ?? null, status: d.dispute.status ?? null, amount: d.dispute.amount ?? null }
      : null,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
  };
}

export function toDonationRefundedEvent(
  donation: DonationResponse,
  refund: DonationRefundEntity,
): DonationRefundedEvent {
  return {
    ...donation,
    refund: {
      amount: refund.amount,
      processor_refund_id: refund.processorRefundId,
      created_at: refund.createdAt.toISOString(),
    },
  };
}
