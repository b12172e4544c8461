import type { CalendarEventResponse } from '../../../src/modules/events/dto/event.response';
import type { RegistrationResponse } from '../../../src/modules/events/dto/registration.response';
import type { Call, JsonObject, TestApi } from '../api';
import type { Caller } from '../http';
import { created } from './create';

/** POST /v1/events; "Sunday service" on 2026-12-06, 10:00 to 11:30 UTC, unless `body` says otherwise. */
export function newEvent(
  api: TestApi,
  church: Caller,
  body: JsonObject = {},
  call?: Call,
): Promise<CalendarEventResponse> {
  return created(
    api,
    church,
    '/v1/events',
    { name: 'Sunday service', starts_at: '2026-12-06T10:00:00Z', ends_at: '2026-12-06T11:30:00Z', ...body },
    call,
  );
}

/** An ISO 8601 instant `hours` from now (negative: in the past). */
export const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3600_000).toISOString();

/** POST /v1/events for an event in an hour, for two hours, in Mexico City (check-in is open for it). */
export function newUpcomingEvent(
  api: TestApi,
  church: Caller,
  body: JsonObject = {},
  call?: Call,
): Promise<CalendarEventResponse> {
  const starts = new Date(Date.now() + 3600_000);
  return newEvent(
    api,
    church,
    {
      starts_at: starts.toISOString(),
      ends_at: new Date(starts.getTime() + 7200_000).toISOString(),
      timezone: 'America/Mexico_City',
      ...body,
    },
    call,
  );
}

/** POST /v1/events/{id}/registrations (`member_id`, or a guest's `first_name`, `last_name`, `email`). */
export function newRegistration(
  api: TestApi,
  church: Caller,
  eventId: string,
  body: JsonObject,
  call?: Call,
): Promise<RegistrationResponse> {
  return created(api, church, `/v1/events/${eventId}/registrations`, body, call);
}
