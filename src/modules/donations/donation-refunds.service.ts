import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { newUuid } from '../../common/ids/id';
import { ListTotals } from '../../platform/list-totals/list-totals.service';
import { OutboxService } from '../../platform/outbox/outbox.service';
import { DonationRefundEntity } from './donation-refund.entity';
import type { DonationEntity, DonationStatus } from './donation.entity';
import { DonationRefsLoader } from './donation-refs';
import { toDonationRefundedEvent } from './donations.mapper';
import { DonationsRepository } from './donations.repository';
import type { DonationResponse } from './dto/donation.response';
import type { RefundDonationDto } from './dto/refund-donation.dto';

const REFUNDABLE: readonly DonationStatus[] = ['succeeded', 'partially_refunded', 'refunded'];

/**
 * Refunds of donations, through the API or reported by the payment processor (DonationsService
 * answers both): a donation_refunds row, the donation's refunded amount and status, and
 * `donation.refunded`, in the caller's transaction. The donation is locked first (FOR NO KEY
 * UPDATE), so concurrent refunds run one after the other, each on what the previous one left.
 */
@Injectable()
export class DonationRefundsService {
  constructor(
    private readonly donations: DonationsRepository,
    private readonly refs: DonationRefsLoader,
    private readonly outbox: OutboxService,
    private readonly totals: ListTotals,
  ) {}

  /**
   * POST /v1/donations/{id}/refund: all that is left by default, never more (422
   * `refund_exceeds_remaining`). A processor payment is refunded at the processor (its
   * `charge.refunded` records it here): 409 through the API.
   */
  async refund(id: string, dto: RefundDonationDto): Promise<DonationResponse> {
    const donation = await this.donations.findById(id, 'for_no_key_update');
    if (!donation) throw AppError.notFound('donation');
    if (donation.processorId) {
      throw new AppError('conflict', {
        reason:
          'this gift was made through the payment processor: refund it there, and the refund is recorded here from its event',
      });
    }
    if (!REFUNDABLE.includes(donation.status))
      throw new AppError('conflict', { reason: `a ${donation.status} donation cannot be refunded` });
    const remaining = donation.amount - donation.refundedAmount;
    const amount = dto.amount ?? remaining;
    if (remaining === 0 || amount > remaining)
      throw new AppError('refund_exceeds_remaining', { remaining, currency: donation.currency }, [
        { field: 'amount', issue: 'out_of_range', params: { min: 1, max: remaining } },
      ]);
    return this.apply(donation, amount, null);
  }

  /**
   * The processor's refund (`charge.refunded`) of the donation it made with `processorId`: null when
   * no donation has that id. A refund id already recorded changes nothing (returns the donation as
   * it is); an amount past what is left is capped (the processor has moved the money already).
   */
  async refundByProcessor(
    processorId: string,
    refund: { amount: number; processorRefundId?: string | null },
  ): Promise<DonationResponse | null> {
    const donation = await this.donations.findByProcessorId(processorId, 'for_no_key_update');
    if (!donation) return null;
    const already = refund.processorRefundId
      ? await this.donations.hasProcessorRefund(refund.processorRefundId)
      : false;
    const amount = Math.min(Math.trunc(refund.amount), donation.amount - donation.refundedAmount);
    if (already || !(amount > 0) || donation.status === 'pending' || donation.status === 'failed')
      return this.refs.respond(donation);
    return this.apply(donation, amount, refund.processorRefundId ?? null);
  }

  private async apply(
    donation: DonationEntity,
    amount: number,
    processorRefundId: string | null,
  ): Promise<DonationResponse> {
    const now = new Date();
    const refund = Object.assign(new DonationRefundEntity(), {
      tenantId: donation.tenantId,
      id: newUuid(),
      donationId: donation.id,
      amount,
      processorRefundId,
      createdAt: now,
    });
    await this.donations.insertRefund(refund);
    const refundedAmount = donation.refundedAmount + amount;
    const status: DonationStatus =
      donation.status === 'disputed'
        ? 'disputed'
        : refundedAmount === donation.amount
          ? 'refunded'
          : 'partially_refunded';
    const changes: Partial<DonationEntity> = { refundedAmount, status, updatedAt: now };
    await this.donations.update(donation.id, changes);
    const response = await this.refs.respond(Object.assign(donation, changes));
    await this.outbox.record('donation.refunded', toDonationRefundedEvent(response, refund));
    this.totals.invalidate('donations');
    return response;
  }
}
