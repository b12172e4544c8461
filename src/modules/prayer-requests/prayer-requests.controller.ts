import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { ApiList } from '../../common/lists/list-envelope';
import { Auth } from '../../platform/auth/auth.decorator';
import type { AuthRequest } from '../../platform/auth/principal';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { AnswerPrayerRequestDto } from './dto/answer-prayer-request.dto';
import { CreatePrayerRequestDto } from './dto/create-prayer-request.dto';
import { PrayerRequestResponse } from './dto/prayer-request.response';
import { UpdatePrayerRequestDto } from './dto/update-prayer-request.dto';
import { PRAYER_REQUEST_LIST } from './prayer-requests.list';
import { PrayerRequestsService } from './prayer-requests.service';

const PrayerRequestId = new ParseIdPipe('prq', 'prayer request');
const PRIVATE_NOTE =
  'A `private` request exists only for the staff user who created it (whatever token they use) and for org_admins: anyone else gets 404.';

@ApiTags('Prayer requests')
@Controller('v1/prayer-requests')
export class PrayerRequestsController {
  constructor(private readonly prayerRequests: PrayerRequestsService) {}

  @Post()
  @Idempotent()
  @Auth({ scopes: ['write:prayer_requests'] })
  @ApiOperation({
    summary: 'Create a prayer request',
    description: '`member_id` or `name` (at least one). Raises `prayer_request.created`.',
  })
  @ApiCreatedResponse({
    type: PrayerRequestResponse,
    headers: { Location: { description: 'URL of the new prayer request', schema: { type: 'string' } } },
  })
  async create(
    @Body() dto: CreatePrayerRequestDto,
    @Req() req: AuthRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PrayerRequestResponse> {
    const created = await this.prayerRequests.create(dto, req.principal!);
    res.location(`/v1/prayer-requests/${created.id}`);
    return created;
  }

  @Get()
  @Auth({ scopes: ['read:prayer_requests'] })
  @ApiOperation({
    summary: 'List prayer requests',
    description: `Keyset-paginated, oldest first by default. Private requests are listed (and counted in \`total\`) only for their author and org_admins.`,
  })
  @ApiList(PrayerRequestResponse, PRAYER_REQUEST_LIST)
  list(@Query() query: Record<string, unknown>, @Req() req: AuthRequest) {
    return this.prayerRequests.list(query, req.principal!);
  }

  @Get(':id')
  @Auth({ scopes: ['read:prayer_requests'] })
  @ApiOperation({ summary: 'Get a prayer request', description: `Carries an ETag. ${PRIVATE_NOTE}` })
  @ApiOkResponse({ type: PrayerRequestResponse })
  get(@Param('id', PrayerRequestId) id: string, @Req() req: AuthRequest): Promise<PrayerRequestResponse> {
    return this.prayerRequests.get(id, req.principal!);
  }

  @Patch(':id')
  @Auth({ scopes: ['write:prayer_requests'] })
  @ApiOperation({
    summary: 'Update a prayer request',
    description:
      'Any subset of request, member_id, name, visibility, urgent and campus (null clears member_id, name or campus; one of member_id and name must remain). The answer is set by POST …/answer only.',
  })
  @ApiOkResponse({ type: PrayerRequestResponse })
  update(
    @Param('id', PrayerRequestId) id: string,
    @Body() dto: UpdatePrayerRequestDto,
    @Req() req: AuthRequest,
  ): Promise<PrayerRequestResponse> {
    return this.prayerRequests.update(id, dto, req.principal!);
  }

  @Post(':id/answer')
  @HttpCode(200)
  @Auth({ scopes: ['write:prayer_requests'] })
  @ApiOperation({
    summary: 'Answer a prayer request',
    description:
      'Sets `answer` and `answered_at` once; answering an answered request is 409 `conflict`. Raises `prayer_request.answered`.',
  })
  @ApiOkResponse({ type: PrayerRequestResponse })
  answer(
    @Param('id', PrayerRequestId) id: string,
    @Body() dto: AnswerPrayerRequestDto,
    @Req() req: AuthRequest,
  ): Promise<PrayerRequestResponse> {
    return this.prayerRequests.answer(id, dto, req.principal!);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ scopes: ['write:prayer_requests'] })
  @ApiOperation({
    summary: 'Delete a prayer request',
    description: 'Soft delete: the request disappears from the API (404 afterwards).',
  })
  @ApiNoContentResponse()
  async remove(@Param('id', PrayerRequestId) id: string, @Req() req: AuthRequest): Promise<void> {
    await this.prayerRequests.remove(id, req.principal!);
  }
}
