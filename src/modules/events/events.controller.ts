import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { AuditResource } from '../../platform/audit/audit-resource.decorator';
import { Auth } from '../../platform/auth/auth.decorator';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { readCancelBody } from './dto/cancel-event.dto';
import { CreateEventDto } from './dto/create-event.dto';
import { CreateRegistrationDto } from './dto/create-registration.dto';
import { CalendarEventResponse } from './dto/event.response';
import { RegistrationResponse } from './dto/registration.response';
import { UpdateEventDto } from './dto/update-event.dto';
import {
  CancelEventDocs,
  CreateEventDocs,
  DeleteEventDocs,
  GetEventDocs,
  ListEventsDocs,
  ListRegistrationsDocs,
  RegisterDocs,
  UnregisterDocs,
  UpdateEventDocs,
} from './events.openapi';
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
  @CreateEventDocs()
  async create(@Body() dto: CreateEventDto, @Res({ passthrough: true }) res: Response): Promise<CalendarEventResponse> {
    const event = await this.events.create(dto);
    res.location(`/v1/events/${event.id}`);
    return event;
  }

  @Get()
  @Auth({ scopes: ['read:events'] })
  @ListEventsDocs()
  list(@Query() query: Record<string, unknown>) {
    return this.events.list(query);
  }

  @Get(':id')
  @Auth({ scopes: ['read:events'] })
  @GetEventDocs()
  get(@Param('id', EventId) id: string): Promise<CalendarEventResponse> {
    return this.events.get(id);
  }

  @Patch(':id')
  @Auth({ scopes: ['write:events'] })
  @UpdateEventDocs()
  update(@Param('id', EventId) id: string, @Body() dto: UpdateEventDto): Promise<CalendarEventResponse> {
    return this.events.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ scopes: ['write:events'] })
  @DeleteEventDocs()
  async remove(@Param('id', EventId) id: string): Promise<void> {
    await this.events.remove(id);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @Idempotent()
  @Auth({ scopes: ['write:events'] })
  @CancelEventDocs()
  async cancel(@Param('id', EventId) id: string, @Body() body: unknown): Promise<CalendarEventResponse> {
    return this.events.cancel(id, (await readCancelBody(body)).reason);
  }

  @Post(':id/registrations')
  @Idempotent()
  @Auth({ scopes: ['write:events'] })
  @RegisterDocs()
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
  @ListRegistrationsDocs()
  listRegistrations(@Param('id', EventId) id: string, @Query() query: Record<string, unknown>) {
    return this.events.listRegistrations(id, query);
  }

  @Delete(':id/registrations/:reg')
  @HttpCode(204)
  @Auth({ scopes: ['write:events'] })
  @UnregisterDocs()
  async unregister(
    @Param('id', EventId) id: string,
    @Param('reg', new ParseIdPipe('reg', 'registration')) reg: string,
  ): Promise<void> {
    await this.events.unregister(id, reg);
  }
}
