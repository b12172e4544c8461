import { Injectable, OnModuleInit } from '@nestjs/common';
import { ID_PREFIX } from '../../common/ids/id';
import { ChangeSources } from '../../platform/changes/change-sources';
import { CalendarEventResponse } from './dto/event.response';
import { RegistrationResponse } from './dto/registration.response';
import { EventsService } from './events.service';

/**
 * Events and their registrations (as GET /v1/events/{id}/registrations lists them) in the changes
 * feed (CONTRACT §15–§16).
 */
@Injectable()
export class EventsChangeSource implements OnModuleInit {
  constructor(
    private readonly sources: ChangeSources,
    private readonly events: EventsService,
  ) {}

  onModuleInit(): void {
    this.sources.register({
      type: 'event',
      prefix: ID_PREFIX.event,
      scope: 'read:events',
      response: CalendarEventResponse,
      load: (ids) => this.events.getMany(ids),
    });
    this.sources.register({
      type: 'registration',
      prefix: ID_PREFIX.registration,
      scope: 'read:events',
      response: RegistrationResponse,
      load: (ids) => this.events.getRegistrations(ids),
    });
  }
}
