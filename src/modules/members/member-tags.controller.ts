import { Controller, Delete, HttpCode, Param, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { Auth } from '../../platform/auth/auth.decorator';
import { MemberResponse } from './dto/member.response';
import { MemberTagsService } from './member-tags.service';

const MemberId = new ParseIdPipe('mem', 'member');
const TAG_PARAM = {
  name: 'tag',
  description: 'The tag: its `tag_` id or its name (ignoring case). An unknown tag is a 404.',
  schema: { type: 'string', example: 'Youth' },
};

@ApiTags('Members')
@Controller('v1/members')
export class MemberTagsController {
  constructor(private readonly memberTags: MemberTagsService) {}

  @Put(':id/tags/:tag')
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Tag a member',
    description:
      'Raises `tag.added` and answers with the member. A tag the member already has changes nothing and raises nothing (200 all the same). ' +
      'A member merged into another (POST /v1/members/{id}/merge) names the survivor: the tag lands on it, and the answer shows its id.',
  })
  @ApiParam(TAG_PARAM)
  @ApiOkResponse({ type: MemberResponse })
  add(@Param('id', MemberId) id: string, @Param('tag') tag: string): Promise<MemberResponse> {
    return this.memberTags.add(id, tag);
  }

  @Delete(':id/tags/:tag')
  @HttpCode(204)
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Untag a member',
    description:
      'Raises `tag.removed` if the member had the tag; 204 either way. A member merged into another names the survivor.',
  })
  @ApiParam(TAG_PARAM)
  @ApiNoContentResponse()
  async remove(@Param('id', MemberId) id: string, @Param('tag') tag: string): Promise<void> {
    await this.memberTags.remove(id, tag);
  }
}
