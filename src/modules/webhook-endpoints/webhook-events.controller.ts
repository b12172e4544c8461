import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { ApiList } from '../../common/lists/list-envelope';
import { Auth } from '../../platform/auth/auth.decorator';
import { ResendDto, ResentResponse, WebhookEventResponse } from './dto/webhook-event.response';
import { EVENT_LIST } from './webhook-endpoints.list';
import { WebhookEventsService } from './webhook-events.service';

const EventId = new ParseIdPipe('evt', 'event');

@ApiTags('Webhook events')
@Controller('v1/webhook-events')
export class WebhookEventsController {
  constructor(private readonly events: WebhookEventsService) {}

  @Get()
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'The event log',
    description: 'Every event raised for the church, newest first, as delivered (the webhook payload).',
  })
  @ApiList(WebhookEventResponse, EVENT_LIST)
  list(@Query() query: Record<string, unknown>) {
    return this.events.list(query);
  }

  @Get(':id')
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({ summary: 'Get an event' })
  @ApiOkResponse({ type: WebhookEventResponse })
  get(@Param('id', EventId) id: string): Promise<WebhookEventResponse> {
    return this.events.get(id);
  }

  @Post(':id/resend')
  @HttpCode(202)
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({ summary: 'Deliver an event again to one endpoint' })
  @ApiAcceptedResponse({ type: ResentResponse })
  resend(@Param('id', EventId) id: string, @Body() dto: ResendDto): Promise<ResentResponse> {
    return this.events.resend(id, dto.endpoint_id);
  }
}
