import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { Auth } from '../../platform/auth/auth.decorator';
import { ApiMemberMerged } from '../members/member-merged.openapi';
import { PushTokenList, PushTokenResponse } from './dto/push-token.response';
import { RegisterPushTokenDto } from './dto/register-push-token.dto';
import { PushTokensService } from './push-tokens.service';

const MemberId = new ParseIdPipe('mem', 'member');
const MEMBER_PARAM = {
  name: 'id',
  description: 'The member (mem_ id).',
  example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
};

/** The push tokens of a member's devices (CONTRACT §13); they ride on the members scopes. */
@ApiTags('Push tokens')
@Controller('v1/members/:id/push-tokens')
export class PushTokensController {
  constructor(private readonly tokens: PushTokensService) {}

  @Post()
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Register a push token for a member',
    description:
      'The app calls this with its FCM registration token; notifications with the `push` channel go to every token of their recipients. A new token is ' +
      '201; a token the church knows already (the app registers it at each start) is updated in place and answered 200, and moves to this member ' +
      'if another one had it (one device, one owner; two registrations of the same token at once make one row). A member keeps the 20 most recently ' +
      'registered tokens. The token is stored as sent (it is the device’s address, not a credential of ours) and only its last 8 characters are shown back.' +
      ' A member merged into another (POST /v1/members/{id}/merge) names the survivor: the token is its (`member_id` shows it).',
  })
  @ApiParam(MEMBER_PARAM)
  @ApiCreatedResponse({ type: PushTokenResponse, description: 'A new token.' })
  @ApiOkResponse({ type: PushTokenResponse, description: 'A token registered before, updated.' })
  async register(
    @Param('id', MemberId) memberId: string,
    @Body() dto: RegisterPushTokenDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PushTokenResponse> {
    const { token, created } = await this.tokens.register(memberId, dto);
    res.status(created ? 201 : 200);
    return token;
  }

  @Get()
  @Auth({ scopes: ['read:members'] })
  @ApiOperation({
    summary: 'List a member’s push tokens',
    description:
      'Oldest first, all in one page (at most 20); each shows the last 8 characters of its token. A member merged into another (POST /v1/members/{id}/merge) is a 301 `member_merged` to the survivor’s tokens (`Location`).',
  })
  @ApiParam(MEMBER_PARAM)
  @ApiOkResponse({ type: PushTokenList })
  @ApiMemberMerged('push-tokens')
  list(@Param('id', MemberId) memberId: string): Promise<PushTokenList> {
    return this.tokens.list(memberId);
  }

  @Delete(':token_id')
  @HttpCode(204)
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Remove a push token',
    description:
      'The device gets no more pushes (the app calls this at sign-out). An unknown token, or one of another member, is 404.' +
      ' A member merged into another (POST /v1/members/{id}/merge) names the survivor (its tokens moved there).',
  })
  @ApiParam(MEMBER_PARAM)
  @ApiParam({ name: 'token_id', description: 'The token (ptk_ id).', example: 'ptk_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' })
  @ApiNoContentResponse({ description: 'Removed.' })
  async remove(
    @Param('id', MemberId) memberId: string,
    @Param('token_id', new ParseIdPipe('ptk', 'push token')) id: string,
  ): Promise<void> {
    await this.tokens.remove(memberId, id);
  }
}
