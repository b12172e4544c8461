import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { ApiList } from '../../common/lists/list-envelope';
import { Auth } from '../../platform/auth/auth.decorator';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { CreateFundDto } from './dto/create-fund.dto';
import { FundResponse } from './dto/fund.response';
import { UpdateFundDto } from './dto/update-fund.dto';
import { FUND_LIST } from './funds.list';
import { FundsService } from './funds.service';

const FundId = new ParseIdPipe('fnd', 'fund');

/** Funds ride on the donations scopes (CONTRACT §9b). */
@ApiTags('Funds')
@Controller('v1/funds')
export class FundsController {
  constructor(private readonly funds: FundsService) {}

  @Post()
  @Idempotent()
  @Auth({ scopes: ['write:donations'] })
  @ApiOperation({
    summary: 'Create a fund',
    description:
      'A designation gifts are given to (general, missions, building). The name is unique in the church ignoring case (409 `conflict`).',
  })
  @ApiCreatedResponse({
    type: FundResponse,
    headers: { Location: { description: 'URL of the new fund', schema: { type: 'string' } } },
  })
  async create(@Body() dto: CreateFundDto, @Res({ passthrough: true }) res: Response): Promise<FundResponse> {
    const fund = await this.funds.create(dto);
    res.location(`/v1/funds/${fund.id}`);
    return fund;
  }

  @Get()
  @Auth({ scopes: ['read:donations'] })
  @ApiOperation({
    summary: 'List funds',
    description: 'Keyset-paginated; `active=true` for the funds that take gifts.',
  })
  @ApiList(FundResponse, FUND_LIST)
  list(@Query() query: Record<string, unknown>) {
    return this.funds.list(query);
  }

  @Get(':id')
  @Auth({ scopes: ['read:donations'] })
  @ApiOperation({ summary: 'Get a fund', description: 'Carries an ETag; `If-None-Match` answers 304 while unchanged.' })
  @ApiOkResponse({ type: FundResponse })
  get(@Param('id', FundId) id: string): Promise<FundResponse> {
    return this.funds.get(id);
  }

  @Patch(':id')
  @Auth({ scopes: ['write:donations'] })
  @ApiOperation({
    summary: 'Update a fund',
    description:
      'Any subset of the fields; null clears description or ledger_code. `active: false` archives the fund: it takes no new gifts, its donations stay. A rename shows on its donations.',
  })
  @ApiOkResponse({ type: FundResponse })
  update(@Param('id', FundId) id: string, @Body() dto: UpdateFundDto): Promise<FundResponse> {
    return this.funds.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ scopes: ['write:donations'] })
  @ApiOperation({
    summary: 'Delete a fund',
    description:
      'Only a fund nobody gave to (nor pledged or gives to regularly): otherwise 409 `conflict`; archive it with `active: false`.',
  })
  @ApiNoContentResponse()
  async remove(@Param('id', FundId) id: string): Promise<void> {
    await this.funds.remove(id);
  }
}
