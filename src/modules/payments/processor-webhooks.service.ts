import { Inject, Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { SECRET_BOX } from '../../common/crypto/crypto.module';
import type { SecretBox } from '../../common/crypto/secret-box';
import { AppError } from '../../common/errors/app-error';
import { newUuid } from '../../common/ids/id';
import { SLUG } from '../../common/validation/rules';
import { Database } from '../../database/database.service';
import { TenantsService } from '../../platform/tenancy/tenants.service';
import { DonationsService } from '../donations/donations.service';
import { RecurringGiftsService } from '../recurring-gifts/recurring-gifts.service';
import type { AckOutcome, ProcessorEventAck } from './dto/processor-event-ack.response';
import { ProcessorCommand, readEvent, toCommand } from './processor-events';
import { EventOutcome, PaymentsRepository } from './payments.repository';
import { StripeGateway } from './stripe-gateway';

interface Result {
  outcome: EventOutcome;
  detail: string | null;
}

/** PostgreSQL refusing a value the event carried: a data exception (class 22), a missing reference, a CHECK. */
const REFUSED_DATA = /^(22...|23503|23514)$/;

/**
 * The inbound endpoint `POST /v1/webhooks/payments/<church>`: verifies the processor's signature
 * with the church's secret, records the event id (once), and applies the event through the
 * donations and recurring-gift services, all in one transaction of the church, as the processor.
 */
@Injectable()
export class ProcessorWebhooksService {
  constructor(
    private readonly db: Database,
    private readonly tenants: TenantsService,
    private readonly repo: PaymentsRepository,
    private readonly gateway: StripeGateway,
    private readonly donations: DonationsService,
    private readonly recurringGifts: RecurringGiftsService,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  /**
   * 404 for an unknown church or one without a processor; 400 `invalid_signature` (nothing written)
   * for a signature that does not verify. Otherwise the event is acknowledged (see ProcessorEventAck).
   */
  async receive(slug: string, rawBody: Buffer | undefined, signature: string | undefined): Promise<ProcessorEventAck> {
    if (!SLUG.test(slug)) throw AppError.notFound('church');
    const tenant = await this.tenants.requireBySlug(slug);
    return this.db.runInTenant({ tenantId: tenant.id, actor: { kind: 'processor' } }, async () => {
      const processor = await this.repo.findProcessor();
      if (!processor) throw AppError.notFound('payment processor');
      const verified: unknown = this.gateway.verify(rawBody, signature, this.box.open(processor.webhookSecretSealed));
      const event = readEvent(verified);
      if (!event) return ack(null, 'ignored', 'not an event: no id or type');
      const claimed = await this.repo.claimEvent(
        {
          provider: processor.provider,
          eventId: event.id,
          type: event.type,
          objectId: event.objectId,
          payload: verified,
        },
        newUuid(),
      );
      if (!claimed) return ack(event.id, 'duplicate', 'this event was received before; nothing changed');
      const result = await this.apply(toCommand(event));
      await this.repo.settleEvent(claimed, result.outcome, result.detail);
      return ack(event.id, result.outcome, result.detail);
    });
  }

  private async apply(command: ProcessorCommand): Promise<Result> {
    switch (command.kind) {
      case 'ignored':
        return { outcome: 'ignored', detail: command.reason };
      case 'rejected':
        return { outcome: 'rejected', detail: command.reason };
      case 'payment':
        return this.refusable(async () => {
          const donation = await this.donations.recordProcessorPayment({
            processorId: command.processorId,
            amount: command.amount,
            currency: command.currency,
            fundId: command.fundId,
            donorId: command.donorId,
            recurringGiftId: command.recurringGiftId,
            method: command.method,
            receivedAt: command.receivedAt,
          });
          return { outcome: 'processed', detail: donation.id };
        });
      case 'refund':
        return this.refusable(() => this.refund(command));
      case 'dispute':
        return this.refusable(async () => {
          const donation = await this.donations.disputeByProcessor(command.processorId, {
            reason: command.reason,
            status: command.status,
            amount: command.amount,
          });
          return donation
            ? { outcome: 'processed', detail: donation.id }
            : unmatched(`no donation of payment ${command.processorId}`);
        });
      case 'charge_failed':
        return this.refusable(async () => {
          const failed = await this.recurringGifts.chargeFailed(command.recurringGiftId, {
            reason: command.reason,
            invoiceId: command.invoiceId,
          });
          return failed
            ? { outcome: 'processed', detail: command.recurringGiftId }
            : unmatched(`no recurring gift ${command.recurringGiftId}`);
        });
    }
  }

  /**
   * Brings the donation's refunds up to the charge's `amount_refunded`, whatever order the refund
   * events come in. The first call (amount 0) only finds and locks the donation, so that two refund
   * events of one payment are applied one after the other, each on what the other committed.
   */
  private async refund(command: Extract<ProcessorCommand, { kind: 'refund' }>): Promise<Result> {
    const donation = await this.donations.refundByProcessor(command.processorId, { amount: 0 });
    if (!donation) return unmatched(`no donation of payment ${command.processorId}`);
    const missing = command.refundedTotal - donation.refunded_amount;
    if (missing <= 0) return { outcome: 'processed', detail: `${donation.id}: nothing more to refund` };
    const refundId = command.latest && command.latest.amount === missing ? command.latest.id : null;
    const refunded = await this.donations.refundByProcessor(command.processorId, {
      amount: missing,
      processorRefundId: refundId,
    });
    return { outcome: 'processed', detail: refunded!.id };
  }

  /**
   * Runs one mapping after a savepoint. What the church's data refuses (a 4xx AppError such as an
   * unknown fund, or a value PostgreSQL refuses) is undone and recorded as `rejected`: the event is
   * acknowledged, since sending it again would not change the answer. Anything else (the database
   * went away) is thrown, and the processor retries.
   */
  private async refusable(fn: () => Promise<Result>): Promise<Result> {
    const scope = TenantContext.current();
    const pending = scope.afterCommit.length;
    try {
      return await this.repo.withSavepoint('processor_event', fn);
    } catch (error) {
      const refusal = describeRefusal(error);
      if (refusal === null) throw error;
      scope.afterCommit.splice(pending); // deliveries of events undone with the savepoint
      return { outcome: 'rejected', detail: refusal };
    }
  }
}

function ack(eventId: string | null, outcome: AckOutcome, detail: string | null): ProcessorEventAck {
  return { received: true, event_id: eventId, outcome, detail };
}

function unmatched(detail: string): Result {
  return { outcome: 'unmatched', detail };
}

/** A refusal in words (`validation_failed: metadata.fund_id not_found`), or null for an error that is not one. */
function describeRefusal(error: unknown): string | null {
  if (error instanceof AppError) {
    if (error.status >= 500 || error.status === 409) return null;
    const fields = error.errors.map((e) => `${e.field} ${e.issue}`).join(', ');
    return `${error.code}${fields ? `: ${fields}` : ''}`;
  }
  const code =
    (error as { driverError?: { code?: unknown }; code?: unknown } | null)?.driverError?.code ??
    (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && REFUSED_DATA.test(code)
    ? `the database refused a value of the event (${code})`
    : null;
}
