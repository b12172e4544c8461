import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res, UseGuards } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { ApiList } from '../../common/lists/list-envelope';
import { AuditResource } from '../../platform/audit/audit-resource.decorator';
import { Auth } from '../../platform/auth/auth.decorator';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { OutsideTransaction } from '../../platform/tenancy/outside-transaction.decorator';
import { CreateEndpointDto } from './dto/create-endpoint.dto';
import {
  AttemptResponse,
  BackfillDto,
  EndpointResponse,
  EndpointWithSecretResponse,
  EnqueuedResponse,
  RolledSecretResponse,
  TestEventDto,
  TestEventResultResponse,
  ValidationResultResponse,
} from './dto/endpoint.response';
import type { EventType } from '../../platform/outbox/event-types';
import { UpdateEndpointDto } from './dto/update-endpoint.dto';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookUrlGuard } from './webhook-url.guard';
import { ATTEMPT_LIST, ENDPOINT_LIST } from './webhook-endpoints.list';

const EndpointId = new ParseIdPipe('whe', 'webhook endpoint');

@ApiTags('Webhook endpoints')
@AuditResource('endpoints')
@Controller('v1/webhook-endpoints')
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post()
  @Idempotent({ secret: 'secret' })
  @UseGuards(WebhookUrlGuard)
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'Subscribe an endpoint to events',
    description:
      'https only; private, loopback and link-local targets are refused (422 `invalid_webhook_url`), at save time and at each delivery. The `whsec_` signing secret is returned once.',
  })
  @ApiCreatedResponse({ type: EndpointWithSecretResponse })
  async create(
    @Body() dto: CreateEndpointDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<EndpointWithSecretResponse> {
    const endpoint = await this.endpoints.create(dto);
    res.location(`/v1/webhook-endpoints/${endpoint.id}`);
    res.setHeader('Cache-Control', 'no-store');
    return endpoint;
  }

  @Get()
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({ summary: 'List webhook endpoints' })
  @ApiList(EndpointResponse, ENDPOINT_LIST)
  list(@Query() query: Record<string, unknown>) {
    return this.endpoints.list(query);
  }

  @Get(':id')
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({ summary: 'Get a webhook endpoint' })
  @ApiOkResponse({ type: EndpointResponse })
  get(@Param('id', EndpointId) id: string): Promise<EndpointResponse> {
    return this.endpoints.get(id);
  }

  @Patch(':id')
  @UseGuards(WebhookUrlGuard)
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'Update a webhook endpoint',
    description: '`{"status": "enabled"}` re-enables an endpoint that was deactivated after failing deliveries.',
  })
  @ApiOkResponse({ type: EndpointResponse })
  update(@Param('id', EndpointId) id: string, @Body() dto: UpdateEndpointDto): Promise<EndpointResponse> {
    return this.endpoints.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({ summary: 'Delete a webhook endpoint' })
  @ApiNoContentResponse()
  async remove(@Param('id', EndpointId) id: string): Promise<void> {
    await this.endpoints.remove(id);
  }

  @Post(':id/roll-secret')
  @HttpCode(200)
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'Roll the signing secret',
    description: 'Returns the new secret once; for 24 hours deliveries carry one `v1=` per live secret.',
  })
  @ApiOkResponse({ type: RolledSecretResponse })
  rollSecret(
    @Param('id', EndpointId) id: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<RolledSecretResponse> {
    res.setHeader('Cache-Control', 'no-store');
    return this.endpoints.rollSecret(id);
  }

  @Post(':id/validate')
  @OutsideTransaction()
  @HttpCode(200)
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: "Check the receiver's GET /webhooks/ping",
    description: 'Same origin as the endpoint URL; ok when it answers 2xx within the time-out.',
  })
  @ApiOkResponse({ type: ValidationResultResponse })
  validate(@Param('id', EndpointId) id: string): Promise<ValidationResultResponse> {
    return this.endpoints.validate(id);
  }

  @Post(':id/test')
  @OutsideTransaction()
  @HttpCode(200)
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'Send a signed test event',
    description:
      'POSTs a sample event of `type` to the endpoint, signed with its live secrets exactly like a delivery, with `"test": true` at the top level and `data.object` the example of this document (a fresh `evt_` id, your church, now). Sent once, whatever the endpoint\'s subscriptions, filters and status; answers the attempt. Not stored in the event log, not retried, and not counted in the endpoint\'s health.',
  })
  @ApiOkResponse({ type: TestEventResultResponse })
  sendTest(@Param('id', EndpointId) id: string, @Body() dto: TestEventDto): Promise<TestEventResultResponse> {
    return this.endpoints.sendTest(id, dto.type as EventType);
  }

  @Post(':id/backfill')
  @HttpCode(202)
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'Deliver past events of one type again',
    description: 'Every event of `type` created in [from, to) is delivered to this endpoint (at most 10,000 per call).',
  })
  @ApiAcceptedResponse({ type: EnqueuedResponse })
  backfill(@Param('id', EndpointId) id: string, @Body() dto: BackfillDto): Promise<EnqueuedResponse> {
    return this.endpoints.backfill(id, dto);
  }

  @Get(':id/deliveries')
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'Delivery attempts to this endpoint',
    description: 'Every attempt, newest first: status code, duration and error.',
  })
  @ApiList(AttemptResponse, ATTEMPT_LIST)
  attempts(@Param('id', EndpointId) id: string, @Query() query: Record<string, unknown>) {
    return this.endpoints.attempts(id, query);
  }
}
