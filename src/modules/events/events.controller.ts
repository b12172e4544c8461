import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
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
import { AuditResource } from '../../platform/audit/audit-resource.decorator';
import { Auth } from '../../platform/auth/auth.decorator';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { CancelEventDto, readCancelBody } from './dto/cancel-event.dto';
import { CreateEventDto } from './dto/create-event.dto';
import { CreateRegistrationDto } from './dto/create-registration.dto';
import { CalendarEventResponse } from './dto/event.response';
import { RegistrationResponse } from './dto/registration.response';
import { UpdateEventDto } from './dto/update-event.dto';
import { EVENT_LIST, REGISTRATION_LIST } from './events.list';
import { EventsService } from './events.service';

const EventId = new ParseIdPipe('evt', 'event');

@ApiTags('Events')
@AuditResource('calendar_events')
@Controller('v1/events')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Post()
  @Idempotent()
  @Auth({ scopes: ['write:events'] })
  @ApiOperation({
    summary: 'Create a calendar event',
    description:
      "Times are ISO 8601: with an offset they are that instant, without one the local time in `timezone` (an IANA name; default the campus's, else UTC). " +
      'Responses give `starts_at`/`ends_at` in UTC. Raises `event.created`.',
  })
  @ApiCreatedResponse({
    type: CalendarEventResponse,
    headers: { Location: { description: 'URL of the new event', schema: { type: 'string' } } },
  })
  async create(@Body() dto: CreateEventDto, @Res({ passthrough: true }) res: Response): Promise<CalendarEventResponse> {
    const event = await this.events.create(dto);
    res.location(`/v1/events/${event.id}`);
    return event;
  }

  @Get()
  @Auth({ scopes: ['read:events'] })
  @ApiOperation({
    summary: 'List calendar events',
    description: 'Keyset-paginated; `sort=starts_at` with `starts_at[gte]=<now>` lists the upcoming ones.',
  })
  @ApiList(CalendarEventResponse, EVENT_LIST)
  list(@Query() query: Record<string, unknown>) {
    return this.events.list(query);
  }

  @Get(':id')
  @Auth({ scopes: ['read:events'] })
  @ApiOperation({
    summary: 'Get a calendar event',
    description: 'Carries an ETag; `If-None-Match` answers 304 while unchanged.',
  })
  @ApiOkResponse({ type: CalendarEventResponse })
  get(@Param('id', EventId) id: string): Promise<CalendarEventResponse> {
    return this.events.get(id);
  }

  @Patch(':id')
  @Auth({ scopes: ['write:events'] })
  @ApiOperation({
    summary: 'Update a calendar event',
    description:
      'Any subset of the fields; null clears an optional field (a null `timezone` goes back to the default). A new `timezone` alone keeps the UTC instants. ' +
      'Lowering `capacity` below the registrations keeps them and only stops new ones. `status` changes only through cancel.',
  })
  @ApiOkResponse({ type: CalendarEventResponse })
  update(@Param('id', EventId) id: string, @Body() dto: UpdateEventDto): Promise<CalendarEventResponse> {
    return this.events.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ scopes: ['write:events'] })
  @ApiOperation({
    summary: 'Delete a calendar event',
    description:
      'Soft delete: the event and its registrations disappear from the API. No mail is sent (cancel the event to tell registrants).',
  })
  @ApiNoContentResponse()
  async remove(@Param('id', EventId) id: string): Promise<void> {
    await this.events.remove(id);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @Idempotent()
  @Auth({ scopes: ['write:events'] })
  @ApiOperation({
    summary: 'Cancel a calendar event',
    description:
      'Sets `status: canceled`, `canceled_at` and `cancel_reason`, raises `event.canceled`, and sends one e-mail to each registrant with an address ' +
      "(a member's e-mail or the guest's; one per address) through the mail outbox, in the request's language (Accept-Language), the start shown in the event's time zone. " +
      'Canceling a canceled event is 409 `event_canceled`.',
  })
  @ApiBody({ type: CancelEventDto, required: false })
  @ApiOkResponse({ type: CalendarEventResponse })
  async cancel(@Param('id', EventId) id: string, @Body() body: unknown): Promise<CalendarEventResponse> {
    return this.events.cancel(id, (await readCancelBody(body)).reason);
  }

  @Post(':id/registrations')
  @Idempotent()
  @Auth({ scopes: ['write:events'] })
  @ApiOperation({
    summary: 'Register for a calendar event',
    description:
      'Body `{"member_id"}` or `{"guest": {first_name, last_name, email}}`. Raises `event.registration`. ' +
      'No seat left: 409 `event_full` (held under concurrent registrations: never more than `capacity`); a member registered twice: 409 `conflict`; ' +
      'a canceled event: 409 `event_canceled`; `registration_open: false`: 409 `conflict`.',
  })
  @ApiCreatedResponse({
    type: RegistrationResponse,
    headers: { Location: { description: 'URL of the event’s registrations', schema: { type: 'string' } } },
  })
  async register(
    @Param('id', EventId) id: string,
    @Body() dto: CreateRegistrationDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<RegistrationResponse> {
    const registration = await this.events.register(id, dto);
    res.location(`/v1/events/${registration.event_id}/registrations`);
    return registration;
  }

  @Get(':id/registrations')
  @Auth({ scopes: ['read:events'] })
  @ApiOperation({ summary: "List an event's registrations", description: 'Keyset-paginated, oldest first.' })
  @ApiList(RegistrationResponse, REGISTRATION_LIST)
  listRegistrations(@Param('id', EventId) id: string, @Query() query: Record<string, unknown>) {
    return this.events.listRegistrations(id, query);
  }

  @Delete(':id/registrations/:reg')
  @HttpCode(204)
  @Auth({ scopes: ['write:events'] })
  @ApiOperation({ summary: 'Delete a registration', description: 'Frees the seat; the member may register again.' })
  @ApiNoContentResponse()
  async unregister(
    @Param('id', EventId) id: string,
    @Param('reg', new ParseIdPipe('reg', 'registration')) reg: string,
  ): Promise<void> {
    await this.events.unregister(id, reg);
  }
}
