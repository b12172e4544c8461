import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { ApiList } from '../../common/lists/list-envelope';
import { Auth } from '../../platform/auth/auth.decorator';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { DONATION_LIST } from './donations.list';
import { DonationsService } from './donations.service';
import { CreateDonationDto } from './dto/create-donation.dto';
import { DonationRefundedEvent, DonationResponse } from './dto/donation.response';
import { RefundDonationDto } from './dto/refund-donation.dto';
import { UpdateDonationDto } from './dto/update-donation.dto';

const DonationId = new ParseIdPipe('don', 'donation');

/** What the list and the API description say of net giving (pledges, statements and reports count it so). */
export const NET_GIVEN_DESCRIPTION =
  'Net given, as pledges, statements and reports count it: `amount - refunded_amount` for a donation whose status is `succeeded`, `partially_refunded` or `refunded`; 0 while `pending`, `disputed` or `failed`. Sums are per currency, never mixed.';

@ApiTags('Donations')
@ApiExtraModels(DonationRefundedEvent)
@Controller('v1/donations')
export class DonationsController {
  constructor(private readonly donations: DonationsService) {}

  @Post()
  @Idempotent()
  @Auth({ scopes: ['write:donations'], quota: 'donations' })
  @ApiOperation({
    summary: 'Record a donation',
    description:
      '30 requests per minute per token; send an `Idempotency-Key` so that a retry never records a gift twice. `amount` is an integer of minor units and `currency` a code of the currency table: a float, a string or an unknown currency is 422. ' +
      'Without `batch_id` the gift is `succeeded` and raises `donation.created`; with the id of an open batch (same currency) it is `pending` and raises nothing until the batch is committed; a committed batch is 409 `conflict`.',
  })
  @ApiCreatedResponse({
    type: DonationResponse,
    headers: { Location: { description: 'URL of the new donation', schema: { type: 'string' } } },
  })
  async create(@Body() dto: CreateDonationDto, @Res({ passthrough: true }) res: Response): Promise<DonationResponse> {
    const donation = await this.donations.create(dto);
    res.location(`/v1/donations/${donation.id}`);
    return donation;
  }

  @Get()
  @Auth({ scopes: ['read:donations'] })
  @ApiOperation({
    summary: 'List donations',
    description: `Keyset-paginated; filters by field name with \`[op]\` operators; sort \`created_at\` (default), \`received_at\` or \`amount\`. \`fund_id\`, \`donor_id\` and \`campus\` with \`received_at[…]\` read an index in received_at order: add \`sort=received_at\` (or \`-received_at\`) for the fastest pages of a large church. ${NET_GIVEN_DESCRIPTION}`,
  })
  @ApiList(DonationResponse, DONATION_LIST)
  list(@Query() query: Record<string, unknown>) {
    return this.donations.list(query);
  }

  @Get(':id')
  @Auth({ scopes: ['read:donations'] })
  @ApiOperation({
    summary: 'Get a donation',
    description: 'Carries an ETag; `If-None-Match` answers 304 while unchanged.',
  })
  @ApiOkResponse({ type: DonationResponse })
  get(@Param('id', DonationId) id: string): Promise<DonationResponse> {
    return this.donations.get(id);
  }

  @Patch(':id')
  @Auth({ scopes: ['write:donations'] })
  @ApiOperation({
    summary: 'Update a donation',
    description:
      '`fund_id`, `campus`, `note` and `check_number` only (any other field is 422 `unknown_field`): money is never edited; refund the gift and record it again. Raises no event.',
  })
  @ApiOkResponse({ type: DonationResponse })
  update(@Param('id', DonationId) id: string, @Body() dto: UpdateDonationDto): Promise<DonationResponse> {
    return this.donations.update(id, dto);
  }

  @Post(':id/refund')
  @HttpCode(200)
  @Idempotent()
  @Auth({ scopes: ['write:donations'] })
  @ApiOperation({
    summary: 'Refund a donation',
    description:
      'Full by default, or `amount` minor units; never more than what is left (422 `refund_exceeds_remaining`, which names what is left). Concurrent refunds of one donation run one after the other. ' +
      'Status becomes `partially_refunded`, then `refunded`; `refunded_amount` is the running sum. Raises `donation.refunded` (the donation and `refund: {amount, processor_refund_id, created_at}`). ' +
      'A `pending` (open batch), `disputed` or `failed` donation is 409 `conflict`, and so is a gift made through the payment processor: refund it there, and its `charge.refunded` event records the refund here.',
  })
  @ApiOkResponse({ type: DonationResponse })
  refund(@Param('id', DonationId) id: string, @Body() dto: RefundDonationDto): Promise<DonationResponse> {
    return this.donations.refund(id, dto);
  }
}
