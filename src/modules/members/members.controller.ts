import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
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
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { Auth } from '../../platform/auth/auth.decorator';
import { BulkCreateMembersDto } from './dto/bulk-create-members.dto';
import { CreateMemberDto } from './dto/create-member.dto';
import { BulkCreateMembersResponse, MemberResponse } from './dto/member.response';
import { UpdateMemberDto } from './dto/update-member.dto';
import { MEMBER_LIST } from './members.list';
import { MembersBulkService } from './members-bulk.service';
import { MembersService } from './members.service';

const MemberId = new ParseIdPipe('mem', 'member');

@ApiTags('Members')
@Controller('v1/members')
export class MembersController {
  constructor(
    private readonly members: MembersService,
    private readonly bulk: MembersBulkService,
  ) {}

  @Get()
  @Auth({ scopes: ['read:members'] })
  @ApiOperation({
    summary: 'List members',
    description:
      'Keyset-paginated; filters by field name with `[op]` operators; `total` counts every match. Custom fields filter as `custom_fields.<key>=value` (exact, typed by the field), with `[gt]` `[gte]` `[lt]` `[lte]` for number and date fields; a key the church has not defined is a 400.',
  })
  @ApiList(MemberResponse, MEMBER_LIST)
  async list(
    @Query() query: Record<string, unknown>,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { etag, body } = await this.members.list(query, ifNoneMatch);
    if (etag) res.setHeader('ETag', etag);
    return body;
  }

  @Post()
  @Idempotent()
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({ summary: 'Create a member', description: 'Raises `member.created`.' })
  @ApiCreatedResponse({
    type: MemberResponse,
    headers: { Location: { description: 'URL of the new member', schema: { type: 'string' } } },
  })
  async create(@Body() dto: CreateMemberDto, @Res({ passthrough: true }) res: Response): Promise<MemberResponse> {
    const member = await this.members.create(dto);
    res.location(`/v1/members/${member.id}`);
    return member;
  }

  @Post('bulk')
  @HttpCode(200)
  @Idempotent()
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Create up to 500 members',
    description: 'Valid rows are created even when others fail; one `member.created` per member. Over 500 rows: 413.',
  })
  @ApiOkResponse({ type: BulkCreateMembersResponse })
  @ApiBody({ type: BulkCreateMembersDto })
  createMany(@Body() body: Record<string, unknown>): Promise<BulkCreateMembersResponse> {
    // Not a DTO parameter: the rows are validated one by one below, without a class-transformer pass over 500 rows.
    return this.bulk.create(body);
  }

  @Get(':id')
  @Auth({ scopes: ['read:members'] })
  @ApiOperation({
    summary: 'Get a member',
    description: 'Carries an ETag; `If-None-Match` answers 304 while unchanged.',
  })
  @ApiOkResponse({ type: MemberResponse })
  get(@Param('id', MemberId) id: string): Promise<MemberResponse> {
    return this.members.get(id);
  }

  @Patch(':id')
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Update a member',
    description: 'Any subset of the fields; null clears an optional field. Raises `member.updated`.',
  })
  @ApiOkResponse({ type: MemberResponse })
  update(@Param('id', MemberId) id: string, @Body() dto: UpdateMemberDto): Promise<MemberResponse> {
    return this.members.update(id, dto);
  }

  @Put(':id')
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Replace a member',
    description: 'Full body; omitted optional fields are cleared. PATCH is preferred. Raises `member.updated`.',
  })
  @ApiOkResponse({ type: MemberResponse })
  replace(@Param('id', MemberId) id: string, @Body() dto: CreateMemberDto): Promise<MemberResponse> {
    return this.members.replace(id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Delete a member',
    description: 'Soft delete: the member disappears from the API. Raises `member.deleted`.',
  })
  @ApiNoContentResponse()
  async remove(@Param('id', MemberId) id: string): Promise<void> {
    await this.members.remove(id);
  }
}
