import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { ApiList } from '../../common/lists/list-envelope';
import { Auth } from '../../platform/auth/auth.decorator';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { CreatePledgeDto } from './dto/create-pledge.dto';
import { GIVEN_DESCRIPTION, PledgeResponse } from './dto/pledge.response';
import { UpdatePledgeDto } from './dto/update-pledge.dto';
import { PLEDGE_LIST } from './pledges.list';
import { PledgesService } from './pledges.service';

const PledgeId = new ParseIdPipe('plg', 'pledge');

const GIVEN = `\`given\`: ${GIVEN_DESCRIPTION} \`remaining\`: \`amount - given\`, never below 0.`;

/** Pledges ride on the donations scopes (CONTRACT, stage 2 preamble). They raise no webhook events. */
@ApiTags('Pledges')
@Controller('v1/pledges')
export class PledgesController {
  constructor(private readonly pledges: PledgesService) {}

  @Post()
  @Idempotent()
  @Auth({ scopes: ['write:donations'] })
  @ApiOperation({
    summary: 'Create a pledge',
    description: `A donor's promise (mem_) to give \`amount\` (integer, minor unit of \`currency\`) to a fund between \`starts_on\` and \`ends_on\` (both included). Donations already received in the window count at once. ${GIVEN}`,
  })
  @ApiCreatedResponse({
    type: PledgeResponse,
    headers: { Location: { description: 'URL of the new pledge', schema: { type: 'string' } } },
  })
  async create(@Body() dto: CreatePledgeDto, @Res({ passthrough: true }) res: Response): Promise<PledgeResponse> {
    const pledge = await this.pledges.create(dto);
    res.location(`/v1/pledges/${pledge.id}`);
    return pledge;
  }

  @Get()
  @Auth({ scopes: ['read:donations'] })
  @ApiOperation({
    summary: 'List pledges',
    description: `Keyset-paginated; filters by field name with \`[op]\` operators; \`total\` counts every match. ${GIVEN}`,
  })
  @ApiList(PledgeResponse, PLEDGE_LIST)
  list(@Query() query: Record<string, unknown>) {
    return this.pledges.list(query);
  }

  @Get(':id')
  @Auth({ scopes: ['read:donations'] })
  @ApiOperation({
    summary: 'Get a pledge',
    description: `Carries an ETag; \`If-None-Match\` answers 304 while unchanged (a new gift or refund changes \`given\`, hence the ETag). ${GIVEN}`,
  })
  @ApiOkResponse({ type: PledgeResponse })
  get(@Param('id', PledgeId) id: string): Promise<PledgeResponse> {
    return this.pledges.get(id);
  }

  @Patch(':id')
  @Auth({ scopes: ['write:donations'] })
  @ApiOperation({
    summary: 'Update a pledge',
    description:
      'Any subset of `fund_id`, `amount`, `currency`, `starts_on`, `ends_on` (the donor cannot change). `given` follows the new fund, currency and window.',
  })
  @ApiOkResponse({ type: PledgeResponse })
  update(@Param('id', PledgeId) id: string, @Body() dto: UpdatePledgeDto): Promise<PledgeResponse> {
    return this.pledges.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ scopes: ['write:donations'] })
  @ApiOperation({
    summary: 'Delete a pledge',
    description: 'Soft delete: the pledge disappears from the API; the donations stay as they are.',
  })
  @ApiNoContentResponse()
  async remove(@Param('id', PledgeId) id: string): Promise<void> {
    await this.pledges.remove(id);
  }
}
