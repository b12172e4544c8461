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
import { CreateTagDto } from './dto/create-tag.dto';
import { MemberTagEvent, TagResponse } from './dto/tag.response';
import { UpdateTagDto } from './dto/update-tag.dto';
import { TAG_LIST } from './tags.list';
import { TagsService } from './tags.service';

const TagId = new ParseIdPipe('tag', 'tag');

/** Tags ride on the members scopes (CONTRACT §5). */
@ApiTags('Tags')
@ApiExtraModels(MemberTagEvent)
@Controller('v1/tags')
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @Post()
  @Idempotent()
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Create a tag',
    description:
      'A name already used in the church, ignoring case, is a 409 `conflict`. Put it on members with PUT /v1/members/{id}/tags/{tag}.',
  })
  @ApiCreatedResponse({
    type: TagResponse,
    headers: { Location: { description: 'URL of the new tag', schema: { type: 'string' } } },
  })
  async create(@Body() dto: CreateTagDto, @Res({ passthrough: true }) res: Response): Promise<TagResponse> {
    const tag = await this.tags.create(dto);
    res.location(`/v1/tags/${tag.id}`);
    return tag;
  }

  @Get()
  @Auth({ scopes: ['read:members'] })
  @ApiOperation({ summary: 'List tags' })
  @ApiList(TagResponse, TAG_LIST)
  list(@Query() query: Record<string, unknown>) {
    return this.tags.list(query);
  }

  @Get(':id')
  @Auth({ scopes: ['read:members'] })
  @ApiOperation({ summary: 'Get a tag' })
  @ApiOkResponse({ type: TagResponse })
  get(@Param('id', TagId) id: string): Promise<TagResponse> {
    return this.tags.get(id);
  }

  @Patch(':id')
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Update a tag',
    description: 'Name and color. A rename shows at once in the `tags` of every member carrying it.',
  })
  @ApiOkResponse({ type: TagResponse })
  update(@Param('id', TagId) id: string, @Body() dto: UpdateTagDto): Promise<TagResponse> {
    return this.tags.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Delete a tag',
    description:
      'Takes it off every member at once, without a `tag.removed` event per member; those members count as changed (`updated_at`).',
  })
  @ApiNoContentResponse()
  async remove(@Param('id', TagId) id: string): Promise<void> {
    await this.tags.remove(id);
  }
}
