import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth } from '../../platform/auth/auth.decorator';
import { ApiHistory } from './changes.openapi';
import { ChangesService } from './changes.service';
import { HistoryPageResponse } from './dto/history-entry.response';

type Params = Record<string, unknown>;

/** `GET /v1/<collection>/{id}/history` (CONTRACT §16), under each record's read scope. */
@ApiTags('Changes')
@Controller('v1')
export class HistoryController {
  constructor(private readonly changes: ChangesService) {}

  @Get('members/:id/history')
  @Auth({ scopes: ['read:members'] })
  @ApiHistory('members', 'member')
  @ApiOkResponse({ type: HistoryPageResponse })
  member(@Param('id') id: string, @Query() query: Params): Promise<HistoryPageResponse> {
    return this.changes.history('member', id, query);
  }

  @Get('households/:id/history')
  @Auth({ scopes: ['read:members'] })
  @ApiHistory('households', 'household')
  @ApiOkResponse({ type: HistoryPageResponse })
  household(@Param('id') id: string, @Query() query: Params): Promise<HistoryPageResponse> {
    return this.changes.history('household', id, query);
  }

  @Get('prospects/:id/history')
  @Auth({ scopes: ['read:members'] })
  @ApiHistory('prospects', 'prospect')
  @ApiOkResponse({ type: HistoryPageResponse })
  prospect(@Param('id') id: string, @Query() query: Params): Promise<HistoryPageResponse> {
    return this.changes.history('prospect', id, query);
  }

  @Get('donations/:id/history')
  @Auth({ scopes: ['read:donations'] })
  @ApiHistory('donations', 'donation')
  @ApiOkResponse({ type: HistoryPageResponse })
  donation(@Param('id') id: string, @Query() query: Params): Promise<HistoryPageResponse> {
    return this.changes.history('donation', id, query);
  }

  @Get('groups/:id/history')
  @Auth({ scopes: ['read:groups'] })
  @ApiHistory('groups', 'group')
  @ApiOkResponse({ type: HistoryPageResponse })
  group(@Param('id') id: string, @Query() query: Params): Promise<HistoryPageResponse> {
    return this.changes.history('group', id, query);
  }

  @Get('events/:id/history')
  @Auth({ scopes: ['read:events'] })
  @ApiHistory('events', 'event')
  @ApiOkResponse({ type: HistoryPageResponse })
  event(@Param('id') id: string, @Query() query: Params): Promise<HistoryPageResponse> {
    return this.changes.history('event', id, query);
  }
}
