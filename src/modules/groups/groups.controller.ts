import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiExtraModels,
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
import { CreateGroupDto } from './dto/create-group.dto';
import { GroupMultipliedEvent, GroupResponse } from './dto/group.response';
import { UpdateGroupDto } from './dto/update-group.dto';
import { GROUP_LIST } from './groups.list';
import { GroupsService } from './groups.service';

export const GroupId = new ParseIdPipe('grp', 'group');

@ApiTags('Groups')
@ApiExtraModels(GroupMultipliedEvent)
@Controller('v1/groups')
export class GroupsController {
  constructor(private readonly groups: GroupsService) {}

  @Post()
  @Idempotent()
  @Auth({ scopes: ['write:groups'] })
  @ApiOperation({
    summary: 'Create a cell group',
    description: 'Status `open` unless given (never `closed`: see close). Raises `group.created`.',
  })
  @ApiCreatedResponse({
    type: GroupResponse,
    headers: { Location: { description: 'URL of the new group', schema: { type: 'string' } } },
  })
  async create(@Body() dto: CreateGroupDto, @Res({ passthrough: true }) res: Response): Promise<GroupResponse> {
    const group = await this.groups.create(dto);
    res.location(`/v1/groups/${group.id}`);
    return group;
  }

  @Get()
  @Auth({ scopes: ['read:groups'] })
  @ApiOperation({
    summary: 'List cell groups',
    description:
      'Keyset-paginated; filters by field name with `[op]` operators; `total` counts every match. Each group carries its `member_count`.',
  })
  @ApiList(GroupResponse, GROUP_LIST)
  list(@Query() query: Record<string, unknown>) {
    return this.groups.list(query);
  }

  @Get(':id')
  @Auth({ scopes: ['read:groups'] })
  @ApiOperation({
    summary: 'Get a cell group',
    description: 'Carries an ETag; `If-None-Match` answers 304 while unchanged.',
  })
  @ApiOkResponse({ type: GroupResponse })
  get(@Param('id', GroupId) id: string): Promise<GroupResponse> {
    return this.groups.get(id);
  }

  @Patch(':id')
  @Auth({ scopes: ['write:groups'] })
  @ApiOperation({
    summary: 'Update a cell group',
    description:
      'Any subset of the fields; null clears an optional field. `status` moves between `open` and `full`; `closed` is refused (422: only close sets it) and a closed group keeps its status (409).',
  })
  @ApiOkResponse({ type: GroupResponse })
  update(@Param('id', GroupId) id: string, @Body() dto: UpdateGroupDto): Promise<GroupResponse> {
    return this.groups.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ scopes: ['write:groups'] })
  @ApiOperation({
    summary: 'Delete a cell group',
    description:
      'Soft delete: the group disappears from the API (groups that multiplied from it keep their parent_group_id).',
  })
  @ApiNoContentResponse()
  async remove(@Param('id', GroupId) id: string): Promise<void> {
    await this.groups.remove(id);
  }

  @Post(':id/close')
  @HttpCode(200)
  @Idempotent()
  @Auth({ scopes: ['write:groups'] })
  @ApiOperation({
    summary: 'Close a cell group',
    description:
      'Sets `status: closed` and `closed_at`, raises `group.closed`. Closing a closed group is 409 `conflict`; so is adding members to it, multiplying it or changing its status afterwards. Its members stay listed.',
  })
  @ApiOkResponse({ type: GroupResponse })
  close(@Param('id', GroupId) id: string): Promise<GroupResponse> {
    return this.groups.close(id);
  }
}
