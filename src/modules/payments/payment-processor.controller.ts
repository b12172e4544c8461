import { Body, Controller, Delete, Get, HttpCode, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Auth } from '../../platform/auth/auth.decorator';
import { ConnectPaymentProcessorDto } from './dto/connect-payment-processor.dto';
import { PaymentProcessorResponse } from './dto/payment-processor.response';
import { PaymentProcessorService } from './payment-processor.service';
import { PROCESSOR_EVENT_TYPES } from './payment-webhooks.path';
import { OutsideTransaction } from '../../platform/tenancy/outside-transaction.decorator';

const problem = { content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };

const SET_UP =
  'Set-up: in the processor (Stripe) dashboard create a secret key, or a restricted key with write access to webhook endpoints, and PUT it here with `provider: stripe`. ' +
  'The API then creates a webhook endpoint at the processor (through the official `stripe` client, at the server setting `PAYMENTS_API_URL`) that sends ' +
  `${PROCESSOR_EVENT_TYPES.map((t) => `\`${t}\``).join(', ')} to \`<PUBLIC_URL>/v1/webhooks/payments/<church key>\`, and keeps the key and the endpoint's \`whsec_\` signing secret sealed (AES-256-GCM): ` +
  'neither is ever returned. Payments become donations when the PaymentIntent carries `metadata.fund_id` (`fnd_…`), and optionally `metadata.donor_id` (`mem_…`) and `metadata.recurring_gift_id` (`rcg_…`).';

/** The church's payment processor (CONTRACT §12): settings, so `admin:*`. */
@ApiTags('Settings')
@Controller('v1/settings/payment-processor')
export class PaymentProcessorController {
  constructor(private readonly processors: PaymentProcessorService) {}

  @Get()
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'The connected payment processor',
    description:
      'Provider, when it was connected and the last four characters of its key; every field is null while no processor is connected. Secrets are never shown.',
  })
  @ApiOkResponse({ type: PaymentProcessorResponse })
  get(): Promise<PaymentProcessorResponse> {
    return this.processors.get();
  }

  @Put()
  @OutsideTransaction()
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'Connect the payment processor',
    description:
      `${SET_UP} ` +
      'A church already connected is reconnected with the new key: a new endpoint is made, then the old one is deleted at the processor. ' +
      'A key the processor refuses is 422 (`errors[].issue: rejected` on `api_key`); a processor that cannot be reached or fails is 502 `processor_unavailable` and changes nothing; ' +
      'a server without `PUBLIC_URL` (production) is 422 `public_url_required`.',
  })
  @ApiOkResponse({ type: PaymentProcessorResponse })
  @ApiResponse({
    status: 502,
    description:
      'processor_unavailable: the processor could not be reached, timed out or refused; nothing was changed.',
    ...problem,
  })
  connect(@Body() dto: ConnectPaymentProcessorDto): Promise<PaymentProcessorResponse> {
    return this.processors.connect(dto);
  }

  @Delete()
  @OutsideTransaction()
  @HttpCode(204)
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'Disconnect the payment processor',
    description:
      'Deletes the webhook endpoint at the processor, then the connection and its sealed secrets; events sent afterwards are answered 404. ' +
      'An endpoint the processor no longer has, or a key it no longer accepts, does not stop the disconnect (remove the endpoint in its dashboard then). ' +
      '404 when no processor is connected; 502 `processor_unavailable` (nothing changed) when the processor cannot be reached; 409 `conflict` when a reconnection landed meanwhile (it is kept).',
  })
  @ApiNoContentResponse()
  @ApiResponse({
    status: 502,
    description: 'processor_unavailable: the processor could not be reached; nothing was changed.',
    ...problem,
  })
  async disconnect(): Promise<void> {
    await this.processors.disconnect();
  }
}
