import { Controller, Headers, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { ApiRequest } from '../../common/http/request';
import { Public } from '../../platform/auth/auth.decorator';
import { ProcessorEventAck } from './dto/processor-event-ack.response';
import { PROCESSOR_EVENT_TYPES } from './payment-webhooks.path';
import { ProcessorWebhooksService } from './processor-webhooks.service';

const problem = { content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };

const EXAMPLE_EVENT = {
  id: 'evt_3PqR8sLkdIwHu7ix1a2b3c4d',
  object: 'event',
  type: 'payment_intent.succeeded',
  created: 1767628800,
  data: {
    object: {
      id: 'pi_3PqR8sLkdIwHu7ix0aBcDeFg',
      object: 'payment_intent',
      amount: 2500,
      amount_received: 2500,
      currency: 'usd',
      payment_method_types: ['card'],
      metadata: { fund_id: 'fnd_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', donor_id: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' },
    },
  },
};

/**
 * The processor's inbound events for one church (specification: "internal, created automatically
 * when the church connects the processor"). Public: the processor's signature is the credential.
 */
@ApiTags('Payment processor')
@Controller('v1/webhooks/payments')
export class ProcessorWebhooksController {
  constructor(private readonly webhooks: ProcessorWebhooksService) {}

  @Post(':tenant')
  @HttpCode(200)
  @Public({ addressLimit: false }) // the processor posts signed events from a few addresses: its signature is the limit
  @ApiOperation({
    summary: 'Receive a payment processor event (internal)',
    description:
      'Called by the processor, never by clients: the endpoint is registered at the processor by `PUT /v1/settings/payment-processor`. No bearer token or X-Tenant: ' +
      '`Stripe-Signature` is verified over the raw body with the church’s `whsec_` secret by the official `stripe` package (`t=` more than 300 s away, or a signature that does not match: ' +
      '400 `invalid_signature`, nothing written). An unknown church, or one without a processor, is 404. ' +
      'Each event id is recorded once per church: a replay, or the same event sent many times at once, is a 200 `duplicate` that changes nothing. Mappings: ' +
      '`payment_intent.succeeded` with `metadata.fund_id` → a `succeeded` donation (amount and currency of the intent; fund, donor and recurring gift from `metadata.fund_id`, `metadata.donor_id`, ' +
      '`metadata.recurring_gift_id`; method `card` or `ach` from the payment method, `online` when it cannot be told; `processor_id` = the intent id) and `donation.created`; ' +
      "`charge.refunded` → refunds of the intent's donation up to the charge's `amount_refunded` (`donation.refunded`); " +
      '`charge.dispute.created` → `status: disputed` and `donation.disputed` with `dispute: {reason, status, amount}`; ' +
      '`invoice.payment_failed` of a recurring gift (`metadata.recurring_gift_id` on the invoice or its subscription) → `recurring.charge_failed`. ' +
      `Subscribed: ${PROCESSOR_EVENT_TYPES.join(', ')}; any other type is acknowledged and ignored. ` +
      'A refund, dispute or failure of something this church does not have is acknowledged as `unmatched`, and a gift that cannot be recorded as sent (unknown fund, currency outside the table) as `rejected`: ' +
      'both are recorded with the reason, since sending them again would not change the answer.',
  })
  @ApiParam({ name: 'tenant', description: 'The church key (slug).', example: 'grace-church' })
  @ApiHeader({
    name: 'Stripe-Signature',
    required: true,
    description: '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, as the processor signs.',
    schema: { type: 'string' },
  })
  @ApiBody({
    description: "The processor's event (Stripe's `event` object), as it sends it.",
    schema: { type: 'object', example: EXAMPLE_EVENT },
  })
  @ApiOkResponse({ type: ProcessorEventAck })
  @ApiResponse({ status: 400, description: 'invalid_signature (or invalid_json): nothing was recorded.', ...problem })
  @ApiResponse({
    status: 404,
    description: 'resource_not_found: no such church, or it has no payment processor connected.',
    ...problem,
  })
  @ApiResponse({
    status: 503,
    description: 'service_unavailable: the database is unreachable; the processor retries.',
    ...problem,
  })
  receive(
    @Param('tenant') tenant: string,
    @Headers('stripe-signature') signature: string | undefined,
    @Req() req: ApiRequest,
  ): Promise<ProcessorEventAck> {
    return this.webhooks.receive(tenant, req.rawBody, signature);
  }
}
