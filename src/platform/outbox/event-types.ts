/** Every event type (specification, Events; plus the giving events to come). */
export const EVENT_TYPES = [
  'member.created',
  'member.updated',
  'member.deleted',
  'member.merged',
  'prospect.created',
  'prospect.converted',
  'attendance.recorded',
  'donation.created',
  'donation.disputed',
  'donation.refunded',
  'event.created',
  'event.registration',
  'event.canceled',
  'group.created',
  'group.multiplied',
  'group.closed',
  'prayer_request.created',
  'prayer_request.answered',
  'campus.created',
  'tag.added',
  'tag.removed',
  'device.registered',
  'recurring.created',
  'recurring.updated',
  'recurring.canceled',
  'recurring.charge_failed',
  'webhook_endpoint.failing',
  'webhook_endpoint.disabled',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The `data.object` of each type, as the resource's GET returns it: an OpenAPI schema name for
 * the resources that exist, a description for those whose modules are still to come.
 */
export const EVENT_OBJECTS: Record<
  EventType,
  { schema?: string; description: string; /** Fields of `data` beside `object`. */ data?: Record<string, object> }
> = {
  'member.created': { schema: 'MemberResponse', description: 'The member, as GET /v1/members/{id} returns it.' },
  'member.updated': { schema: 'MemberResponse', description: 'The member after the change.' },
  'member.deleted': { schema: 'MemberResponse', description: 'The member as it was when deleted.' },
  'member.merged': {
    schema: 'MemberResponse',
    description:
      'The survivor of a merge (POST /v1/members/{id}/merge) after it, as GET /v1/members/{id} returns it; `data.duplicate_id` names the member merged into it, deleted in the same transaction (its `member.deleted` is raised too).',
    data: {
      duplicate_id: {
        type: 'string',
        example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e60',
        description: 'The member merged into the survivor (now deleted; its id answers 301 to the survivor).',
      },
    },
  },
  'prospect.created': {
    schema: 'ProspectResponse',
    description: 'The prospect, as GET /v1/prospects/{id} returns it.',
  },
  'prospect.converted': {
    schema: 'ProspectResponse',
    description: 'The converted prospect, with member_id (the member it became, raised with its member.created).',
  },
  'attendance.recorded': {
    schema: 'AttendanceResponse',
    description:
      'The attendance record, as GET /v1/attendance/{id} returns it (one event per record, bulk and kiosk check-ins included).',
  },
  'donation.created': {
    schema: 'DonationResponse',
    description:
      'The donation, as GET /v1/donations/{id} returns it: id (don_), amount (integer, minor units), currency, fund {id, name}, donor {id, first_name} or null, campus or null, method, status, received_at, created_at, …',
  },
  'donation.disputed': {
    schema: 'DonationResponse',
    description: 'The donation with status `disputed` and `dispute: {reason, status, amount}` from the processor.',
  },
  'donation.refunded': {
    schema: 'DonationRefundedEvent',
    description:
      'The donation after the refund (status, refunded_amount) and `refund: {amount, processor_refund_id, created_at}`.',
  },
  'event.created': {
    schema: 'CalendarEventResponse',
    description: 'The calendar event, as GET /v1/events/{id} returns it (starts_at/ends_at in UTC).',
  },
  'event.registration': {
    schema: 'RegistrationResponse',
    description:
      'The registration: id (reg_), event_id, member {id, first_name, last_name} or guest {first_name, last_name, email}.',
  },
  'event.canceled': {
    schema: 'CalendarEventResponse',
    description: 'The canceled event (status `canceled`, canceled_at, cancel_reason).',
  },
  'group.created': {
    schema: 'GroupResponse',
    description: 'The cell group, as GET /v1/groups/{id} returns it (on create and for the new group of a multiply).',
  },
  'group.multiplied': {
    schema: 'GroupMultipliedEvent',
    description:
      'The group that multiplied, after its members left, and the new group: {group, new_group}, each as GET /v1/groups/{id} returns it.',
  },
  'group.closed': { schema: 'GroupResponse', description: 'The closed cell group (status `closed`, closed_at).' },
  'prayer_request.created': {
    schema: 'PrayerRequestResponse',
    description: 'The prayer request, as GET /v1/prayer-requests/{id} returns it.',
  },
  'prayer_request.answered': {
    schema: 'PrayerRequestResponse',
    description: 'The prayer request, as GET /v1/prayer-requests/{id} returns it, with its answer.',
  },
  'campus.created': { schema: 'CampusResponse', description: 'The campus, as GET /v1/campuses/{id} returns it.' },
  'tag.added': {
    schema: 'MemberTagEvent',
    description: 'The tag and the member it was added to: {tag: {id, name}, member: {id, first_name, last_name}}.',
  },
  'tag.removed': {
    schema: 'MemberTagEvent',
    description: 'The tag and the member it was removed from: {tag: {id, name}, member: {id, first_name, last_name}}.',
  },
  'device.registered': { schema: 'DeviceResponse', description: 'The kiosk device (never its key).' },
  'recurring.created': {
    schema: 'RecurringGiftResponse',
    description: 'The recurring gift, as GET /v1/recurring-gifts/{id} returns it.',
  },
  'recurring.updated': {
    schema: 'RecurringGiftResponse',
    description: 'The recurring gift after the change (a pause or a resume included).',
  },
  'recurring.canceled': {
    schema: 'RecurringGiftResponse',
    description: 'The canceled recurring gift (status `canceled`, canceled_at).',
  },
  'recurring.charge_failed': {
    schema: 'RecurringChargeFailedEvent',
    description:
      "The recurring gift, as GET /v1/recurring-gifts/{id} returns it, and `failure: {reason, invoice_id, at}` from the processor's failed invoice.",
  },
  'webhook_endpoint.failing': {
    schema: 'EndpointResponse',
    description:
      'Another endpoint of the church entered `failing` (its third consecutive failed attempt): the endpoint as GET /v1/webhook-endpoints/{id} returns it, with `health.disable_at`, when it will be disabled unless an attempt succeeds. Never sent to the failing endpoint itself.',
    data: {
      last_error: {
        type: 'string',
        example: 'HTTP 500',
        description: 'The last failed attempt: `HTTP <status>`, or the network error (e.g. `timeout after 10000 ms`).',
      },
    },
  },
  'webhook_endpoint.disabled': {
    schema: 'EndpointResponse',
    description:
      'Another endpoint of the church was disabled, by the engine (retries exhausted, HTTP 410) or by a PATCH: the endpoint with `status: disabled` and `disabled_reason`. Never sent to the disabled endpoint itself.',
  },
};

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
