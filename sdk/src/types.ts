import type { components, paths, webhooks } from './generated/openapi.js';

export type { components, operations, paths, webhooks } from './generated/openapi.js';

/** Every schema of the OpenAPI document by name: `Schemas['MemberResponse']`, `Schemas['CreateMemberDto']`. */
export type Schemas = components['schemas'];

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The path templates that have an operation for `M` (`'/v1/members' | '/v1/members/{id}' | …`). */
export type PathsWith<M extends HttpMethod> = {
  [P in keyof paths]: paths[P] extends Record<M, unknown> ? P : never;
}[keyof paths];

type Operation<P extends keyof paths, M extends HttpMethod> = NonNullable<paths[P][M]>;
type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type SuccessStatus = 200 | 201 | 202;

/** The JSON request body of an operation (`never` when it takes none). */
export type RequestBody<P extends keyof paths, M extends HttpMethod> =
  Operation<P, M> extends { requestBody?: infer R } ? Json<NonNullable<R>> : never;

/** The query parameters of an operation, filters and list parameters included (`age[gte]`, `cursor`, `sort`). */
export type QueryParams<P extends keyof paths, M extends HttpMethod = 'get'> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The JSON body of an operation's success answer (200, 201 or 202); `never` for a 204. */
export type ResponseBody<P extends keyof paths, M extends HttpMethod> =
  Operation<P, M> extends { responses: infer R }
    ? { [S in keyof R & SuccessStatus]: Json<R[S]> }[keyof R & SuccessStatus]
    : never;

/** A page of a list: `{data, next_cursor, total}`. */
export interface ListPage<T> {
  data: T[];
  next_cursor: string | null;
  total?: number | null;
}

/** The record type of a list route's `data`. */
export type ListItem<P extends PathsWith<'get'>> = ResponseBody<P, 'get'> extends { data: (infer T)[] } ? T : never;

// The records, as their GET answers them.
export type Member = Schemas['MemberResponse'];
export type Household = Schemas['HouseholdResponse'];
export type Prospect = Schemas['ProspectResponse'];
export type Tag = Schemas['TagResponse'];
export type CustomField = Schemas['CustomFieldResponse'];
export type Campus = Schemas['CampusResponse'];
export type Fund = Schemas['FundResponse'];
export type Donation = Schemas['DonationResponse'];
export type Batch = Schemas['BatchResponse'];
export type RecurringGift = Schemas['RecurringGiftResponse'];
export type Pledge = Schemas['PledgeResponse'];
/** A calendar event (`/v1/events`); not a webhook event. */
export type CalendarEvent = Schemas['CalendarEventResponse'];
export type Registration = Schemas['RegistrationResponse'];
export type Attendance = Schemas['AttendanceResponse'];
export type Group = Schemas['GroupResponse'];
export type GroupMember = Schemas['GroupMemberResponse'];
export type PrayerRequest = Schemas['PrayerRequestResponse'];
export type Notification = Schemas['NotificationResponse'];
export type Device = Schemas['DeviceResponse'];
export type WebhookEndpoint = Schemas['EndpointResponse'];
export type ApiToken = Schemas['TokenResponse'];
export type HistoryEntry = Schemas['HistoryEntryResponse'];

/** An RFC 9457 problem body as the API sends it. */
export type Problem = Schemas['Problem'];
/** The stable error codes the document lists (a newer server may send others). */
export type ErrorCode = Problem['code'];
/** One entry of a problem's `errors[]`: the field, the issue and a message in the request's language. */
export type FieldError = NonNullable<Problem['errors']>[number];

/** One change of the changes feed (`GET /v1/changes`). */
export type Change = Schemas['ChangeResponse'];
export type ChangesPage = Schemas['ChangesPageResponse'];

/** Every webhook event type the document describes (`'member.created' | 'donation.created' | …`). */
export type WebhookEventType = keyof webhooks;

/**
 * A webhook event's body, as the document's `webhooks` section describes it: a union discriminated by
 * `type`, so `if (event.type === 'donation.created') event.data.object.amount` type-checks.
 */
export type WebhookEvent<T extends WebhookEventType = WebhookEventType> = {
  [K in T]: Json<NonNullable<webhooks[K]['post']['requestBody']>>;
}[T];
