import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { ApiList } from '../../common/lists/list-envelope';
import { Auth } from '../../platform/auth/auth.decorator';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { ConvertProspectDto, readConvertBody } from './dto/convert-prospect.dto';
import { CreateProspectDto } from './dto/create-prospect.dto';
import { ProspectResponse } from './dto/prospect.response';
import { UpdateProspectDto } from './dto/update-prospect.dto';
import { PROSPECT_LIST } from './prospects.list';
import { ProspectsService } from './prospects.service';

const ProspectId = new ParseIdPipe('prs', 'prospect');

/** Prospects ride on the members scopes (CONTRACT §5). */
@ApiTags('Prospects')
@Controller('v1/prospects')
export class ProspectsController {
  constructor(private readonly prospects: ProspectsService) {}

  @Post()
  @Idempotent()
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Create a prospect',
    description: 'Stage `new` unless given (never `converted`). Raises `prospect.created`.',
  })
  @ApiCreatedResponse({
    type: ProspectResponse,
    headers: { Location: { description: 'URL of the new prospect', schema: { type: 'string' } } },
  })
  async create(@Body() dto: CreateProspectDto, @Res({ passthrough: true }) res: Response): Promise<ProspectResponse> {
    const prospect = await this.prospects.create(dto);
    res.location(`/v1/prospects/${prospect.id}`);
    return prospect;
  }

  @Get()
  @Auth({ scopes: ['read:members'] })
  @ApiOperation({
    summary: 'List prospects',
    description: 'Keyset-paginated; filters by field name with `[op]` operators; `total` counts every match.',
  })
  @ApiList(ProspectResponse, PROSPECT_LIST)
  list(@Query() query: Record<string, unknown>) {
    return this.prospects.list(query);
  }

  @Get(':id')
  @Auth({ scopes: ['read:members'] })
  @ApiOperation({
    summary: 'Get a prospect',
    description: 'Carries an ETag; `If-None-Match` answers 304 while unchanged.',
  })
  @ApiOkResponse({ type: ProspectResponse })
  get(@Param('id', ProspectId) id: string): Promise<ProspectResponse> {
    return this.prospects.get(id);
  }

  @Patch(':id')
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Update a prospect',
    description:
      'Any subset of the fields; null clears an optional field. `stage: converted` is refused (422: only convert sets it); a converted prospect keeps its stage (409).',
  })
  @ApiOkResponse({ type: ProspectResponse })
  update(@Param('id', ProspectId) id: string, @Body() dto: UpdateProspectDto): Promise<ProspectResponse> {
    return this.prospects.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Delete a prospect',
    description: 'Soft delete: the prospect disappears from the API (a member it became stays).',
  })
  @ApiNoContentResponse()
  async remove(@Param('id', ProspectId) id: string): Promise<void> {
    await this.prospects.remove(id);
  }

  @Post(':id/convert')
  @HttpCode(200)
  @Idempotent()
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Convert a prospect into a member',
    description:
      "Creates the member from the prospect's first_name, last_name, email, phone and campus, overridden by any member field of the optional body; " +
      'sets `stage: converted`, `converted_at` and `member_id`; raises `member.created` and `prospect.converted`, all in one transaction. ' +
      'Converting a converted prospect is 409 `conflict`.',
  })
  @ApiBody({ type: ConvertProspectDto, required: false })
  @ApiOkResponse({ type: ProspectResponse })
  async convert(@Param('id', ProspectId) id: string, @Body() body: unknown): Promise<ProspectResponse> {
    return this.prospects.convert(id, await readConvertBody(body));
  }
}
