import { Body, Controller, Get, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { ApiList } from '../../common/lists/list-envelope';
import { Auth } from '../../platform/auth/auth.decorator';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { CreateRecurringGiftDto } from './dto/create-recurring-gift.dto';
import { RecurringChargeFailedEvent, RecurringGiftResponse } from './dto/recurring-gift.response';
import { UpdateRecurringGiftDto } from './dto/update-recurring-gift.dto';
import { RECURRING_GIFT_LIST } from './recurring-gifts.list';
import { RecurringGiftsService } from './recurring-gifts.service';

const RecurringGiftId = new ParseIdPipe('rcg', 'recurring gift');

const NEXT_CHARGE =
  '`next_charge_on` is computed when read (UTC calendar): the first `start_on` + k × `interval` on or after today, on or before `end_on`; ' +
  'monthly, quarterly and yearly gifts keep the day of `start_on`, clamped to shorter months (Jan 31 → Feb 28 → Mar 31). ' +
  'It is null while the gift is paused or canceled and once no date is left before `end_on`.';

/** Recurring gifts ride on the donations scopes (CONTRACT, stage 2 preamble). Never deleted: cancel them (PATCH status). */
@ApiTags('Recurring gifts')
@ApiExtraModels(RecurringChargeFailedEvent)
@Controller('v1/recurring-gifts')
export class RecurringGiftsController {
  constructor(private readonly gifts: RecurringGiftsService) {}

  @Post()
  @Idempotent()
  @Auth({ scopes: ['write:donations'] })
  @ApiOperation({
    summary: 'Create a recurring gift',
    description:
      'A donor (mem_) gives `amount` (integer, minor unit of `currency`) to a fund every `interval` from `start_on`, until `end_on` or until canceled. ' +
      'Status `active`. Raises `recurring.created`. The payment processor does the charging: each charge it reports becomes a donation with `recurring_gift_id`; ' +
      'a failed one raises `recurring.charge_failed`. ' +
      NEXT_CHARGE,
  })
  @ApiCreatedResponse({
    type: RecurringGiftResponse,
    headers: { Location: { description: 'URL of the new recurring gift', schema: { type: 'string' } } },
  })
  async create(
    @Body() dto: CreateRecurringGiftDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<RecurringGiftResponse> {
    const gift = await this.gifts.create(dto);
    res.location(`/v1/recurring-gifts/${gift.id}`);
    return gift;
  }

  @Get()
  @Auth({ scopes: ['read:donations'] })
  @ApiOperation({
    summary: 'List recurring gifts',
    description: 'Keyset-paginated; filters by field name with `[op]` operators; `total` counts every match.',
  })
  @ApiList(RecurringGiftResponse, RECURRING_GIFT_LIST)
  list(@Query() query: Record<string, unknown>) {
    return this.gifts.list(query);
  }

  @Get(':id')
  @Auth({ scopes: ['read:donations'] })
  @ApiOperation({
    summary: 'Get a recurring gift',
    description: `Carries an ETag; \`If-None-Match\` answers 304 while unchanged. ${NEXT_CHARGE}`,
  })
  @ApiOkResponse({ type: RecurringGiftResponse })
  get(@Param('id', RecurringGiftId) id: string): Promise<RecurringGiftResponse> {
    return this.gifts.get(id);
  }

  @Patch(':id')
  @Auth({ scopes: ['write:donations'] })
  @ApiOperation({
    summary: 'Update, pause, resume or cancel a recurring gift',
    description:
      'Any subset of `amount`, `currency`, `fund_id`, `interval`, `start_on`, `end_on` (null clears it) and `status` (the donor cannot change: another donor is another gift). ' +
      'Pause, resume and cancel are this PATCH of `status`: `{"status": "paused"}` pauses the charges, `{"status": "active"}` resumes them on the next regular date of the schedule ' +
      '(anchored on `start_on`: no catch-up of the skipped dates), `{"status": "canceled"}` ends the gift for good and sets `canceled_at`. ' +
      'Raises `recurring.canceled` for a cancel, `recurring.updated` for any other change, nothing when the body changes nothing. ' +
      'A canceled gift takes no change at all: 409 `conflict` (a resume included). Concurrent changes of one gift are applied one after the other.',
  })
  @ApiOkResponse({ type: RecurringGiftResponse })
  update(
    @Param('id', RecurringGiftId) id: string,
    @Body() dto: UpdateRecurringGiftDto,
  ): Promise<RecurringGiftResponse> {
    return this.gifts.update(id, dto);
  }
}
