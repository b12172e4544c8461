import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { Auth } from '../../platform/auth/auth.decorator';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { OutsideTransaction } from '../../platform/tenancy/outside-transaction.decorator';
import { CHECKOUT_LOCK, CheckInService } from './check-in.service';
import { CheckInSearchQuery } from './dto/check-in-search.query';
import { CheckInResponse, CheckInSearchResponse, CheckoutResponse } from './dto/check-in.response';
import { CheckoutDto } from './dto/checkout.dto';
import { CreateCheckInDto } from './dto/create-check-in.dto';
import { BANNED_SEQUENCES, SECURITY_CODE_ALPHABET } from './security-code';

/** Kiosk check-in (CONTRACT §11): kiosk keys reach these routes (and GET /v1/events) only; staff tokens need write:attendance. */
@ApiTags('Check-in')
@Controller('v1')
export class CheckInController {
  constructor(private readonly checkIns: CheckInService) {}

  @Get('check-in/search')
  @Auth({ scopes: ['read:members', 'write:attendance'] })
  @ApiOperation({
    summary: 'Find households at the kiosk',
    description:
      'By `phone_last4` (the last four digits of a member’s phone) or `name` (the start of a household name or a member’s first or last name, any case): ' +
      'one of the two. Lists up to 25 households, each with all its members (`checked_in`: already has attendance at `event_id`); a matching person ' +
      'in no household is listed alone with `id: null`. Nothing else about them. The event must be the church’s (404).',
  })
  @ApiOkResponse({ type: CheckInSearchResponse })
  search(@Query() query: CheckInSearchQuery): Promise<CheckInSearchResponse> {
    return this.checkIns.search(query);
  }

  @Post('check-ins')
  @Idempotent()
  @Auth({ scopes: ['write:attendance'] })
  @ApiOperation({
    summary: 'Check people in',
    description:
      'Checks in several people (a household visit) at once: one `attendance.recorded` each, and one security code for the visit: ' +
      `4 characters from ${SECURITY_CODE_ALPHABET}, unique in the church for the day (the event’s local date), never containing a sequence ` +
      `of the church’s banned list: the built-in one (${BANNED_SEQUENCES.join(', ')}) and the church’s own additions, set by an admin with ` +
      'PUT /v1/settings/check-in (e.g. `{"banned_sequences": ["GRR", "PK"]}`: no code then contains GRR or PK) and read at each check-in. ' +
      `Labels: one per person (with \`allergies\` when the church defines a custom field with the key \`allergies\`) ` +
      'and one for the parent. Anyone already recorded at the event is 409 `already_checked_in` and nothing is recorded; a canceled event is 409 `event_canceled`.',
  })
  @ApiCreatedResponse({ type: CheckInResponse })
  checkIn(@Body() dto: CreateCheckInDto): Promise<CheckInResponse> {
    return this.checkIns.checkIn(dto);
  }

  @Post('check-ins/:id/checkout')
  @HttpCode(200)
  @Auth({ scopes: ['write:attendance'] })
  // Outside the request's transaction so that a wrong code stays counted although the answer is a 422 (see the service).
  @OutsideTransaction()
  @ApiOperation({
    summary: 'Check a household visit out',
    description:
      'Needs the security code of the visit (any letter case): a wrong one is 422 `security_code_mismatch`, and nothing changes but the ' +
      `count of wrong codes. The ${CHECKOUT_LOCK.failures}th wrong code in a row locks the visit’s check-out for ${CHECKOUT_LOCK.seconds / 60} minutes: ` +
      'until then every attempt, even with the right code, is 423 `checkout_locked` with `Retry-After` (seconds left); after it, ' +
      `the count starts again. The right one records \`checked_out_at\` and the token (and its kiosk device) that did it, and clears the count. ` +
      'Checking out twice is 409 `conflict`.',
  })
  @ApiOkResponse({ type: CheckoutResponse })
  @ApiResponse({
    status: 423,
    description: `checkout_locked: ${CHECKOUT_LOCK.failures} wrong security codes in a row; check-out of this visit is refused, even with the right code, for ${CHECKOUT_LOCK.seconds / 60} minutes from the last of them.`,
    headers: {
      'Retry-After': { description: 'Seconds until the lock runs out.', schema: { type: 'integer', minimum: 1 } },
    },
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  })
  checkout(
    @Param('id', new ParseIdPipe('cki', 'check-in')) id: string,
    @Body() dto: CheckoutDto,
  ): Promise<CheckoutResponse> {
    return this.checkIns.checkout(id, dto);
  }
}
