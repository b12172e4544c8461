import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { ApiList } from '../../common/lists/list-envelope';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { Auth } from '../../platform/auth/auth.decorator';
import { ReadsOnly } from '../../platform/tenancy/reads-only.decorator';
import { ReadsListVersion } from '../../platform/list-totals/list-version';
import { BulkCreateMembersDto } from './dto/bulk-create-members.dto';
import { CreateMemberDto } from './dto/create-member.dto';
import { MemberMergeResponse } from './dto/member-merge.response';
import { BulkCreateMembersResponse, MemberResponse } from './dto/member.response';
import { MergeMemberDto } from './dto/merge-member.dto';
import { UpdateMemberDto } from './dto/update-member.dto';
import { MemberMergeService } from './member-merge.service';
import { MEMBER_LIST } from './members.list';
import { MembersBulkService } from './members-bulk.service';
import { ApiMemberMerged } from './member-merged.openapi';
import { MembersService } from './members.service';

const MemberId = new ParseIdPipe('mem', 'member');

const EXAMPLE_SURVIVOR = 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f';
const EXAMPLE_REQUEST = 'req_0192f0c1a2b37c4d8e9f0a1b2c3d4e61';

/** What a write naming a merged member does (PATCH, PUT, DELETE, tags): said once for every such route. */
const FOLLOWS_MERGES =
  ' An id merged into another member (POST /v1/members/{id}/merge) names the survivor: the write lands on it, and the answer shows its id.';

@ApiTags('Members')
@Controller('v1/members')
export class MembersController {
  constructor(
    private readonly members: MembersService,
    private readonly bulk: MembersBulkService,
    private readonly merges: MemberMergeService,
  ) {}

  @Get()
  @Auth({ scopes: ['read:members'] })
  @ReadsOnly()
  @ReadsListVersion('members')
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
    description:
      'Carries an ETag; `If-None-Match` answers 304 while unchanged. A member merged into another answers 301 `member_merged`: `Location` and `merged_into` name the survivor (merged ids keep working: a chain of merges answers the last survivor).',
  })
  @ApiOkResponse({ type: MemberResponse })
  @ApiMemberMerged()
  get(@Param('id', MemberId) id: string): Promise<MemberResponse> {
    return this.members.get(id);
  }

  @Patch(':id')
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Update a member',
    description: 'Any subset of the fields; null clears an optional field. Raises `member.updated`.' + FOLLOWS_MERGES,
  })
  @ApiOkResponse({ type: MemberResponse })
  update(@Param('id', MemberId) id: string, @Body() dto: UpdateMemberDto): Promise<MemberResponse> {
    return this.members.update(id, dto);
  }

  @Put(':id')
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Replace a member',
    description:
      'Full body; omitted optional fields are cleared. PATCH is preferred. Raises `member.updated`.' + FOLLOWS_MERGES,
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
    description: 'Soft delete: the member disappears from the API. Raises `member.deleted`.' + FOLLOWS_MERGES,
  })
  @ApiNoContentResponse()
  async remove(@Param('id', MemberId) id: string): Promise<void> {
    await this.members.remove(id);
  }

  @Post(':id/merge')
  @HttpCode(200)
  @Idempotent()
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Merge a duplicate into this member',
    description:
      'This member (`{id}`) survives; `duplicate_id` is merged into it, in one transaction. Everything that named the duplicate moves to the survivor: ' +
      'donations, recurring gifts, pledges, statements (their donor links), attendance, kiosk check-ins, event registrations, group memberships ' +
      '(one per group: leader wins), tags, households it was the primary contact of, converted prospects (`member_id`), push tokens and prayer requests; ' +
      '`moved` counts each kind. Where both had the same (an event attended or registered for, a group, a tag), the survivor keeps one. ' +
      'The survivor keeps its own household; the duplicate’s is reported (`duplicate_household_id`) and taken only when the survivor had none. ' +
      'The survivor’s empty fields are filled from the duplicate’s, unless `prefer` says otherwise per field. ' +
      'The duplicate is then deleted: its id keeps working (GET answers 301 `member_merged` to the survivor; a donation, registration, tag or member write naming it lands on the survivor), ' +
      'and members merged into it before now name the survivor (A into B, then B into C: A answers C). ' +
      'Raises `member.merged` (the survivor and `duplicate_id`) and `member.deleted` (the duplicate). ' +
      'Merging a member into itself, into a deleted member, a deleted or already merged member, or a member of another church, is 422 `merge_invalid` and changes nothing; ' +
      'of two merges of the same people at once, one runs after the other (the second then finds the duplicate merged: 422).',
  })
  @ApiBody({
    type: MergeMemberDto,
    examples: {
      fill: {
        summary: 'Fill the survivor’s empty fields from the duplicate',
        value: { duplicate_id: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e60' },
      },
      prefer: {
        summary: 'Take the duplicate’s e-mail and household, keep the survivor’s phone even if empty',
        value: {
          duplicate_id: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e60',
          prefer: { email: 'duplicate', household_id: 'duplicate', phone: 'survivor' },
        },
      },
    },
  })
  @ApiOkResponse({ type: MemberMergeResponse, description: 'The survivor after the merge, and what moved to it.' })
  @ApiResponse({
    status: 422,
    description:
      'merge_invalid (the same member, a deleted, merged or unknown one, another church’s; nothing changed), validation_failed (errors[] lists every field; `prefer` takes only the member fields, each `survivor` or `duplicate`) or idempotency_key_reused',
    content: {
      'application/problem+json': {
        schema: { $ref: '#/components/schemas/Problem' },
        example: {
          type: 'https://docs.example.org/errors/merge_invalid',
          title: 'Merge not possible',
          status: 422,
          detail: `These members cannot be merged: the member mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e60 was already merged into ${EXAMPLE_SURVIVOR}. Nothing was changed.`,
          code: 'merge_invalid',
          request_id: EXAMPLE_REQUEST,
        },
      },
    },
  })
  merge(@Param('id', MemberId) id: string, @Body() dto: MergeMemberDto): Promise<MemberMergeResponse> {
    return this.merges.merge(id, dto);
  }
}
