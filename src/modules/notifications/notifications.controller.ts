import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { ApiList } from '../../common/lists/list-envelope';
import { Auth } from '../../platform/auth/auth.decorator';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { CreateNotificationDto } from './dto/create-notification.dto';
import { NotificationResponse } from './dto/notification.response';
import { NOTIFICATION_LIST } from './notifications.list';
import { NotificationsService } from './notifications.service';

const NotificationId = new ParseIdPipe('ntf', 'notification');
const ID_PARAM = {
  name: 'id',
  description: 'The notification (ntf_ id).',
  example: 'ntf_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
};

/** Notifications to members by e-mail and push (CONTRACT §13): `write:notifications` to send and to read. */
@ApiTags('Notifications')
@Controller('v1/notifications')
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Post()
  @HttpCode(202)
  @Idempotent()
  @Auth({ scopes: ['write:notifications'], quota: 'notifications' })
  @ApiOperation({
    summary: 'Send a notification to members (a background fan-out)',
    description:
      'Answers 202 with the notification (`Location: /v1/notifications/{id}`), `queued`; the worker sends it at `scheduled_at` (or at once), ' +
      'fixing its audience then (`recipients`: the members it names at that moment; deleted members never), and fans out in batches: an e-mail ' +
      '(subject: the title; the body between a greeting and the church’s name, in the language of this request: es, en or pt) to each ' +
      'recipient with an e-mail address, and a push (FCM) to each push token of each recipient (`POST /v1/members/{id}/push-tokens`). A ' +
      'recipient without an address for a channel is counted `skipped`, a refusal `failed`; `counts` shows the progress per channel. Each ' +
      'recipient’s send is recorded, so a worker that stops mid-way resumes without sending anything twice. Audiences: `member_ids`, `tag`, ' +
      '`group_id`, `campus` or `event_id` (its registrants who are members; guest registrations are not included). A reference the church ' +
      'does not have is 422 `not_found` naming it. 100 a minute per token.',
  })
  @ApiAcceptedResponse({
    description: 'The notification, queued for the worker.',
    type: NotificationResponse,
    headers: {
      Location: {
        description: 'URL of the notification',
        schema: { type: 'string', example: '/v1/notifications/ntf_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' },
      },
    },
  })
  async create(
    @Body() dto: CreateNotificationDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<NotificationResponse> {
    const notification = await this.notifications.create(dto);
    res.location(`/v1/notifications/${notification.id}`);
    return notification;
  }

  @Get()
  @Auth({ scopes: ['write:notifications'] })
  @ApiOperation({
    summary: 'List notifications',
    description: 'Keyset-paginated, oldest first by default (`sort=-created_at` for the newest).',
  })
  @ApiList(NotificationResponse, NOTIFICATION_LIST)
  list(@Query() query: Record<string, unknown>) {
    return this.notifications.list(query);
  }

  @Get(':id')
  @Auth({ scopes: ['write:notifications'] })
  @ApiOperation({
    summary: 'Get a notification',
    description: 'Poll it: `status` queued → sending → sent, `recipients` and `counts` per channel.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: NotificationResponse })
  get(@Param('id', NotificationId) id: string): Promise<NotificationResponse> {
    return this.notifications.get(id);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @Auth({ scopes: ['write:notifications'] })
  @ApiOperation({
    summary: 'Cancel a notification before it is sent',
    description:
      'Only while `queued` (scheduled, or not yet taken by the worker): nothing is sent. Once `sending`, `sent` or `canceled` it is 409 `conflict`.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: NotificationResponse, description: 'The notification, canceled.' })
  cancel(@Param('id', NotificationId) id: string): Promise<NotificationResponse> {
    return this.notifications.cancel(id);
  }
}
