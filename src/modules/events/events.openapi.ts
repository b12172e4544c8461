import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiList } from '../../common/lists/list-envelope';
import { CancelEventDto } from './dto/cancel-event.dto';
import { CalendarEventResponse } from './dto/event.response';
import { RegistrationResponse } from './dto/registration.response';
import { EVENT_LIST, REGISTRATION_LIST } from './events.list';

/* The OpenAPI decorators of EventsController's routes, one composite per route. */

/** `POST /v1/events`. */
export const CreateEventDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Create a calendar event',
      description:
        "Times are ISO 8601: with an offset they are that instant, without one the local time in `timezone` (an IANA name; default the campus's, else UTC). " +
        'Responses give `starts_at`/`ends_at` in UTC. Raises `event.created`.',
    }),
    ApiCreatedResponse({
      type: CalendarEventResponse,
      headers: { Location: { description: 'URL of the new event', schema: { type: 'string' } } },
    }),
  );

/** `GET /v1/events`. */
export const ListEventsDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'List calendar events',
      description: 'Keyset-paginated; `sort=starts_at` with `starts_at[gte]=<now>` lists the upcoming ones.',
    }),
    ApiList(CalendarEventResponse, EVENT_LIST),
  );

/** `GET /v1/events/{id}`. */
export const GetEventDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Get a calendar event',
      description: 'Carries an ETag; `If-None-Match` answers 304 while unchanged.',
    }),
    ApiOkResponse({ type: CalendarEventResponse }),
  );

/** `PATCH /v1/events/{id}`. */
export const UpdateEventDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Update a calendar event',
      description:
        'Any subset of the fields; null clears an optional field (a null `timezone` goes back to the default). A new `timezone` alone keeps the UTC instants. ' +
        'Lowering `capacity` below the registrations keeps them and only stops new ones. `status` changes only through cancel.',
    }),
    ApiOkResponse({ type: CalendarEventResponse }),
  );

/** `DELETE /v1/events/{id}`. */
export const DeleteEventDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Delete a calendar event',
      description:
        'Soft delete: the event and its registrations disappear from the API. No mail is sent (cancel the event to tell registrants).',
    }),
    ApiNoContentResponse(),
  );

/** `POST /v1/events/{id}/cancel`. */
export const CancelEventDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Cancel a calendar event',
      description:
        'Sets `status: canceled`, `canceled_at` and `cancel_reason`, raises `event.canceled`, and sends one e-mail to each registrant with an address ' +
        "(a member's e-mail or the guest's; one per address) through the mail outbox, in the request's language (Accept-Language), the start shown in the event's time zone. " +
        'Canceling a canceled event is 409 `event_canceled`.',
    }),
    ApiBody({ type: CancelEventDto, required: false }),
    ApiOkResponse({ type: CalendarEventResponse }),
  );

/** `POST /v1/events/{id}/registrations`. */
export const RegisterDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Register for a calendar event',
      description:
        'Body `{"member_id"}` or `{"guest": {first_name, last_name, email}}`. Raises `event.registration`. ' +
        'No seat left: 409 `event_full` (held under concurrent registrations: never more than `capacity`); a member registered twice: 409 `conflict`; ' +
        'a canceled event: 409 `event_canceled`; `registration_open: false`: 409 `conflict`.',
    }),
    ApiCreatedResponse({
      type: RegistrationResponse,
      headers: { Location: { description: 'URL of the event’s registrations', schema: { type: 'string' } } },
    }),
  );

/** `GET /v1/events/{id}/registrations`. */
export const ListRegistrationsDocs = () =>
  applyDecorators(
    ApiOperation({ summary: "List an event's registrations", description: 'Keyset-paginated, oldest first.' }),
    ApiList(RegistrationResponse, REGISTRATION_LIST),
  );

/** `DELETE /v1/events/{id}/registrations/{reg}`. */
export const UnregisterDocs = () =>
  applyDecorators(
    ApiOperation({ summary: 'Delete a registration', description: 'Frees the seat; the member may register again.' }),
    ApiNoContentResponse(),
  );
