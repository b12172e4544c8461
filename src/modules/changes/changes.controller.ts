import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '../../platform/auth/auth.decorator';
import type { AuthRequest } from '../../platform/auth/principal';
import { ApiChangesFeed, ApiChangesHead } from './changes.openapi';
import { ChangesService } from './changes.service';
import type { ChangesHeadResponse, ChangesPageResponse } from './dto/change.response';

@ApiTags('Changes')
@Controller('v1/changes')
export class ChangesController {
  constructor(private readonly changes: ChangesService) {}

  @Get()
  @Auth({ scopes: [] })
  @ApiChangesFeed()
  feed(@Query() query: Record<string, unknown>, @Req() req: AuthRequest): Promise<ChangesPageResponse> {
    return this.changes.feed(query, req.principal!);
  }

  @Get('head')
  @Auth({ scopes: [] })
  @ApiChangesHead()
  head(): Promise<ChangesHeadResponse> {
    return this.changes.head();
  }
}
