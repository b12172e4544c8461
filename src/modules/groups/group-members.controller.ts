import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
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
import { GroupMemberResponse } from './dto/group-member.response';
import { GroupResponse } from './dto/group.response';
import { MultiplyGroupDto } from './dto/multiply-group.dto';
import { PutGroupMemberDto, readPutGroupMemberBody } from './dto/put-group-member.dto';
import { GROUP_MEMBER_LIST } from './group-members.list';
import { GroupMembersService } from './group-members.service';
import { GroupId } from './groups.controller';

const MemberId = new ParseIdPipe('mem', 'member');

@ApiTags('Groups')
@Controller('v1/groups')
export class GroupMembersController {
  constructor(private readonly members: GroupMembersService) {}

  @Get(':id/members')
  @Auth({ scopes: ['read:groups'] })
  @ApiOperation({
    summary: "List a group's members",
    description:
      'The member list envelope: each member as GET /v1/members/{id} returns it, plus `group_role` and `joined_at`. Keyset-paginated by `joined_at` (the id breaks ties); `created_at[…]`/`updated_at[…]` filter on the member. Deleted members are not listed.',
  })
  @ApiList(GroupMemberResponse, GROUP_MEMBER_LIST)
  async list(
    @Param('id', GroupId) id: string,
    @Query() query: Record<string, unknown>,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { etag, body } = await this.members.list(id, query, ifNoneMatch);
    if (etag) res.setHeader('ETag', etag);
    return body;
  }

  @Put(':id/members/:member_id')
  @Auth({ scopes: ['write:groups'] })
  @ApiOperation({
    summary: 'Put a member in the group, or change their role',
    description:
      'A member may be in several groups, once each. Joining: `group_role` `member` unless given, `joined_at` now. Already in the group: the role changes (joined_at stays). A closed group is 409 `conflict`; so is a group at its `capacity`. Another church’s member is 404.' +
      ' A member merged into another (POST /v1/members/{id}/merge) names the survivor: the place is its, and the answer shows its id.',
  })
  @ApiBody({ type: PutGroupMemberDto, required: false })
  @ApiOkResponse({ type: GroupMemberResponse })
  async put(
    @Param('id', GroupId) id: string,
    @Param('member_id', MemberId) memberId: string,
    @Body() body: unknown,
  ): Promise<GroupMemberResponse> {
    return this.members.put(id, memberId, await readPutGroupMemberBody(body));
  }

  @Delete(':id/members/:member_id')
  @HttpCode(204)
  @Auth({ scopes: ['write:groups'] })
  @ApiOperation({
    summary: 'Take a member out of the group',
    description:
      '404 when the member is not in this group. A member merged into another (POST /v1/members/{id}/merge) names the survivor.',
  })
  @ApiNoContentResponse()
  async remove(
    @Param('id', GroupId) id: string,
    @Param('member_id', new ParseIdPipe('mem', 'group member')) memberId: string,
  ): Promise<void> {
    await this.members.remove(id, memberId);
  }

  @Post(':id/multiply')
  @Idempotent()
  @Auth({ scopes: ['write:groups'] })
  @ApiOperation({
    summary: 'Multiply a cell group',
    description:
      'Moves `member_ids` (and `leader_id`, who leads the new group) out of this group into a new group named `name`, whose `parent_group_id` is this group and whose campus is this group’s; the others join as `member`. ' +
      'All in one transaction, raising `group.created` (the new group) and `group.multiplied` (`{group, new_group}`). A `leader_id` or member that is not in this group (another church’s included) is 422 `validation_failed` (issue `not_in_group`) and nothing moves; a closed group is 409. Answers 201 with the new group.',
  })
  @ApiCreatedResponse({
    type: GroupResponse,
    headers: { Location: { description: 'URL of the new group', schema: { type: 'string' } } },
  })
  async multiply(
    @Param('id', GroupId) id: string,
    @Body() dto: MultiplyGroupDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<GroupResponse> {
    const group = await this.members.multiply(id, dto);
    res.location(`/v1/groups/${group.id}`);
    return group;
  }
}
