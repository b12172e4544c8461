import type { CallOptions, ListIterator, Transport } from './transport.js';
import type { HttpMethod, ListItem, PathsWith, QueryParams, RequestBody, ResponseBody, paths } from './types.js';

// Every method names its route by the OpenAPI document's path template and takes its body, query and
// answer types from the generated `paths`: a route that leaves the document, or a field that changes
// name or type, stops this file (or the caller's code) from compiling. test/system/sdk.int-spec.ts
// checks that every operation of the document is reached by one of these methods.

type Q<P extends PathsWith<'get'>> = QueryParams<P, 'get'>;
type B<P extends keyof paths, M extends HttpMethod> = RequestBody<P, M>;
type R<P extends keyof paths, M extends HttpMethod> = ResponseBody<P, M>;
type List<P extends PathsWith<'get'>> = ListIterator<ListItem<P>>;
type O = CallOptions;

abstract class Resource {
  constructor(protected readonly t: Transport) {}

  /** A list route as a ListIterator over all its pages. */
  protected paginate<P extends PathsWith<'get'>>(
    path: P,
    query: Q<P> | undefined,
    options: O | undefined,
    pathParams?: Record<string, string>,
  ): List<P> {
    return this.t.list<P, ListItem<P>>(path, { path: pathParams, query }, options);
  }
}

/** `/v1/members`: the church's people, their tags, giving, attendance and history. */
export class Members extends Resource {
  /** Every member matching the filters (`campus`, `status`, `age[gte]`, `q`, …), page after page. */
  list(query?: Q<'/v1/members'>, options?: O): List<'/v1/members'> {
    return this.paginate('/v1/members', query, options);
  }
  get(id: string, options?: O): Promise<R<'/v1/members/{id}', 'get'>> {
    return this.t.send('get', '/v1/members/{id}', { path: { id } }, options);
  }
  /** Raises `member.created`. */
  create(body: B<'/v1/members', 'post'>, options?: O): Promise<R<'/v1/members', 'post'>> {
    return this.t.send('post', '/v1/members', { body }, options);
  }
  /** Up to 500 members in one call; the valid rows are created even when others fail (see `results`). */
  bulk(body: B<'/v1/members/bulk', 'post'>, options?: O): Promise<R<'/v1/members/bulk', 'post'>> {
    return this.t.send('post', '/v1/members/bulk', { body }, options);
  }
  /** PATCH: the fields given change, the others stay. Raises `member.updated`. */
  update(id: string, body: B<'/v1/members/{id}', 'patch'>, options?: O): Promise<R<'/v1/members/{id}', 'patch'>> {
    return this.t.send('patch', '/v1/members/{id}', { path: { id }, body }, options);
  }
  /** PUT: the whole record. */
  replace(id: string, body: B<'/v1/members/{id}', 'put'>, options?: O): Promise<R<'/v1/members/{id}', 'put'>> {
    return this.t.send('put', '/v1/members/{id}', { path: { id }, body }, options);
  }
  /** A soft delete. Raises `member.deleted`. */
  async delete(id: string, options?: O): Promise<void> {
    await this.t.send('delete', '/v1/members/{id}', { path: { id } }, options);
  }
  /**
   * Merges a duplicate into this member: the duplicate's giving, attendance, registrations, groups,
   * tags and the rest move here, empty fields are filled from it (`prefer` per field), and it is deleted
   * (its id then answers for this member). Answers the survivor with `moved` counts. Raises
   * `member.merged` and `member.deleted`.
   */
  merge(
    id: string,
    body: B<'/v1/members/{id}/merge', 'post'>,
    options?: O,
  ): Promise<R<'/v1/members/{id}/merge', 'post'>> {
    return this.t.send('post', '/v1/members/{id}/merge', { path: { id }, body }, options);
  }
  /** Puts a tag (its name or `tag_` id) on the member. Raises `tag.added`. */
  addTag(id: string, tag: string, options?: O): Promise<R<'/v1/members/{id}/tags/{tag}', 'put'>> {
    return this.t.send('put', '/v1/members/{id}/tags/{tag}', { path: { id, tag } }, options);
  }
  /** Raises `tag.removed`. */
  async removeTag(id: string, tag: string, options?: O): Promise<void> {
    await this.t.send('delete', '/v1/members/{id}/tags/{tag}', { path: { id, tag } }, options);
  }
  /** The member's gifts (`read:donations`). */
  donations(id: string, query?: Q<'/v1/members/{id}/donations'>, options?: O): List<'/v1/members/{id}/donations'> {
    return this.paginate('/v1/members/{id}/donations', query, options, { id });
  }
  attendance(id: string, query?: Q<'/v1/members/{id}/attendance'>, options?: O): List<'/v1/members/{id}/attendance'> {
    return this.paginate('/v1/members/{id}/attendance', query, options, { id });
  }
  /** Who changed what, newest first. */
  history(id: string, query?: Q<'/v1/members/{id}/history'>, options?: O): List<'/v1/members/{id}/history'> {
    return this.paginate('/v1/members/{id}/history', query, options, { id });
  }
}

/** `/v1/members/{id}/push-tokens`: a member's devices for push notifications. */
export class PushTokens extends Resource {
  list(memberId: string, options?: O): Promise<R<'/v1/members/{id}/push-tokens', 'get'>> {
    return this.t.send('get', '/v1/members/{id}/push-tokens', { path: { id: memberId } }, options);
  }
  register(
    memberId: string,
    body: B<'/v1/members/{id}/push-tokens', 'post'>,
    options?: O,
  ): Promise<R<'/v1/members/{id}/push-tokens', 'post'>> {
    return this.t.send('post', '/v1/members/{id}/push-tokens', { path: { id: memberId }, body }, options);
  }
  async delete(memberId: string, tokenId: string, options?: O): Promise<void> {
    await this.t.send(
      'delete',
      '/v1/members/{id}/push-tokens/{token_id}',
      { path: { id: memberId, token_id: tokenId } },
      options,
    );
  }
}

/** `/v1/households`: families, with their members and roles. */
export class Households extends Resource {
  list(query?: Q<'/v1/households'>, options?: O): List<'/v1/households'> {
    return this.paginate('/v1/households', query, options);
  }
  get(id: string, options?: O): Promise<R<'/v1/households/{id}', 'get'>> {
    return this.t.send('get', '/v1/households/{id}', { path: { id } }, options);
  }
  create(body: B<'/v1/households', 'post'>, options?: O): Promise<R<'/v1/households', 'post'>> {
    return this.t.send('post', '/v1/households', { body }, options);
  }
  update(id: string, body: B<'/v1/households/{id}', 'patch'>, options?: O): Promise<R<'/v1/households/{id}', 'patch'>> {
    return this.t.send('patch', '/v1/households/{id}', { path: { id }, body }, options);
  }
  async delete(id: string, options?: O): Promise<void> {
    await this.t.send('delete', '/v1/households/{id}', { path: { id } }, options);
  }
  /** Puts a member in the household with a `household_role`; answers the household. */
  addMember(
    id: string,
    body: B<'/v1/households/{id}/members', 'post'>,
    options?: O,
  ): Promise<R<'/v1/households/{id}/members', 'post'>> {
    return this.t.send('post', '/v1/households/{id}/members', { path: { id }, body }, options);
  }
  async removeMember(id: string, memberId: string, options?: O): Promise<void> {
    await this.t.send(
      'delete',
      '/v1/households/{id}/members/{member_id}',
      { path: { id, member_id: memberId } },
      options,
    );
  }
  history(id: string, query?: Q<'/v1/households/{id}/history'>, options?: O): List<'/v1/households/{id}/history'> {
    return this.paginate('/v1/households/{id}/history', query, options, { id });
  }
}

/** `/v1/prospects`: visitors to follow up, until they are converted into members. */
export class Prospects extends Resource {
  list(query?: Q<'/v1/prospects'>, options?: O): List<'/v1/prospects'> {
    return this.paginate('/v1/prospects', query, options);
  }
  get(id: string, options?: O): Promise<R<'/v1/prospects/{id}', 'get'>> {
    return this.t.send('get', '/v1/prospects/{id}', { path: { id } }, options);
  }
  create(body: B<'/v1/prospects', 'post'>, options?: O): Promise<R<'/v1/prospects', 'post'>> {
    return this.t.send('post', '/v1/prospects', { body }, options);
  }
  update(id: string, body: B<'/v1/prospects/{id}', 'patch'>, options?: O): Promise<R<'/v1/prospects/{id}', 'patch'>> {
    return this.t.send('patch', '/v1/prospects/{id}', { path: { id }, body }, options);
  }
  async delete(id: string, options?: O): Promise<void> {
    await this.t.send('delete', '/v1/prospects/{id}', { path: { id } }, options);
  }
  /** Makes the prospect a member (`member_id` in the answer). Raises `prospect.converted` and `member.created`. */
  convert(
    id: string,
    body?: B<'/v1/prospects/{id}/convert', 'post'>,
    options?: O,
  ): Promise<R<'/v1/prospects/{id}/convert', 'post'>> {
    return this.t.send('post', '/v1/prospects/{id}/convert', { path: { id }, body }, options);
  }
  history(id: string, query?: Q<'/v1/prospects/{id}/history'>, options?: O): List<'/v1/prospects/{id}/history'> {
    return this.paginate('/v1/prospects/{id}/history', query, options, { id });
  }
}

/** `/v1/tags`: labels put on members (`client.members.addTag`). */
export class Tags extends Resource {
  list(query?: Q<'/v1/tags'>, options?: O): List<'/v1/tags'> {
    return this.paginate('/v1/tags', query, options);
  }
  get(id: string, options?: O): Promise<R<'/v1/tags/{id}', 'get'>> {
    return this.t.send('get', '/v1/tags/{id}', { path: { id } }, options);
  }
  create(body: B<'/v1/tags', 'post'>, options?: O): Promise<R<'/v1/tags', 'post'>> {
    return this.t.send('post', '/v1/tags', { body }, options);
  }
  update(id: string, body: B<'/v1/tags/{id}', 'patch'>, options?: O): Promise<R<'/v1/tags/{id}', 'patch'>> {
    return this.t.send('patch', '/v1/tags/{id}', { path: { id }, body }, options);
  }
  async delete(id: string, options?: O): Promise<void> {
    await this.t.send('delete', '/v1/tags/{id}', { path: { id } }, options);
  }
}

/** `/v1/custom-fields`: the church's own member fields (`custom_fields` on a member). */
export class CustomFields extends Resource {
  list(query?: Q<'/v1/custom-fields'>, options?: O): List<'/v1/custom-fields'> {
    return this.paginate('/v1/custom-fields', query, options);
  }
  get(id: string, options?: O): Promise<R<'/v1/custom-fields/{id}', 'get'>> {
    return this.t.send('get', '/v1/custom-fields/{id}', { path: { id } }, options);
  }
  create(body: B<'/v1/custom-fields', 'post'>, options?: O): Promise<R<'/v1/custom-fields', 'post'>> {
    return this.t.send('post', '/v1/custom-fields', { body }, options);
  }
  update(
    id: string,
    body: B<'/v1/custom-fields/{id}', 'patch'>,
    options?: O,
  ): Promise<R<'/v1/custom-fields/{id}', 'patch'>> {
    return this.t.send('patch', '/v1/custom-fields/{id}', { path: { id }, body }, options);
  }
  async delete(id: string, options?: O): Promise<void> {
    await this.t.send('delete', '/v1/custom-fields/{id}', { path: { id } }, options);
  }
}

/** `/v1/campuses`: the church's sites; a member's `campus` is a campus key or `cmp_` id. */
export class Campuses extends Resource {
  list(query?: Q<'/v1/campuses'>, options?: O): List<'/v1/campuses'> {
    return this.paginate('/v1/campuses', query, options);
  }
  get(id: string, options?: O): Promise<R<'/v1/campuses/{id}', 'get'>> {
    return this.t.send('get', '/v1/campuses/{id}', { path: { id } }, options);
  }
  create(body: B<'/v1/campuses', 'post'>, options?: O): Promise<R<'/v1/campuses', 'post'>> {
    return this.t.send('post', '/v1/campuses', { body }, options);
  }
  update(id: string, body: B<'/v1/campuses/{id}', 'patch'>, options?: O): Promise<R<'/v1/campuses/{id}', 'patch'>> {
    return this.t.send('patch', '/v1/campuses/{id}', { path: { id }, body }, options);
  }
}

/** `/v1/funds`: what gifts are given to. */
export class Funds extends Resource {
  list(query?: Q<'/v1/funds'>, options?: O): List<'/v1/funds'> {
    return this.paginate('/v1/funds', query, options);
  }
  get(id: string, options?: O): Promise<R<'/v1/funds/{id}', 'get'>> {
    return this.t.send('get', '/v1/funds/{id}', { path: { id } }, options);
  }
  create(body: B<'/v1/funds', 'post'>, options?: O): Promise<R<'/v1/funds', 'post'>> {
    return this.t.send('post', '/v1/funds', { body }, options);
  }
  update(id: string, body: B<'/v1/funds/{id}', 'patch'>, options?: O): Promise<R<'/v1/funds/{id}', 'patch'>> {
    return this.t.send('patch', '/v1/funds/{id}', { path: { id }, body }, options);
  }
  async delete(id: string, options?: O): Promise<void> {
    await this.t.send('delete', '/v1/funds/{id}', { path: { id } }, options);
  }
}

/** `/v1/donations`: gifts, in the currency's minor unit. Never deleted: refund and enter again. */
export class Donations extends Resource {
  list(query?: Q<'/v1/donations'>, options?: O): List<'/v1/donations'> {
    return this.paginate('/v1/donations', query, options);
  }
  get(id: string, options?: O): Promise<R<'/v1/donations/{id}', 'get'>> {
    return this.t.send('get', '/v1/donations/{id}', { path: { id } }, options);
  }
  /** Raises `donation.created` (with `batch_id`: when the batch is committed). */
  create(body: B<'/v1/donations', 'post'>, options?: O): Promise<R<'/v1/donations', 'post'>> {
    return this.t.send('post', '/v1/donations', { body }, options);
  }
  /** The fields that are not money (note, check number, …). */
  update(id: string, body: B<'/v1/donations/{id}', 'patch'>, options?: O): Promise<R<'/v1/donations/{id}', 'patch'>> {
    return this.t.send('patch', '/v1/donations/{id}', { path: { id }, body }, options);
  }
  /** A refund of `amount` (all that is left when omitted; never more: 422 `refund_exceeds_remaining`). */
  refund(
    id: string,
    body: B<'/v1/donations/{id}/refund', 'post'> = {},
    options?: O,
  ): Promise<R<'/v1/donations/{id}/refund', 'post'>> {
    return this.t.send('post', '/v1/donations/{id}/refund', { path: { id }, body }, options);
  }
  history(id: string, query?: Q<'/v1/donations/{id}/history'>, options?: O): List<'/v1/donations/{id}/history'> {
    return this.paginate('/v1/donations/{id}/history', query, options, { id });
  }
}

/** `/v1/batches`: an offering entered as one batch; its gifts count once it is committed. */
export class Batches extends Resource {
  list(query?: Q<'/v1/batches'>, options?: O): List<'/v1/batches'> {
    return this.paginate('/v1/batches', query, options);
  }
  get(id: string, options?: O): Promise<R<'/v1/batches/{id}', 'get'>> {
    return this.t.send('get', '/v1/batches/{id}', { path: { id } }, options);
  }
  create(body: B<'/v1/batches', 'post'>, options?: O): Promise<R<'/v1/batches', 'post'>> {
    return this.t.send('post', '/v1/batches', { body }, options);
  }
  update(id: string, body: B<'/v1/batches/{id}', 'patch'>, options?: O): Promise<R<'/v1/batches/{id}', 'patch'>> {
    return this.t.send('patch', '/v1/batches/{id}', { path: { id }, body }, options);
  }
  /** Commits the batch if its gifts add up to `expected_total` (else 422 `batch_total_mismatch`). */
  commit(id: string, options?: O): Promise<R<'/v1/batches/{id}/commit', 'post'>> {
    return this.t.send('post', '/v1/batches/{id}/commit', { path: { id } }, options);
  }
}

/** `/v1/recurring-gifts`: pause, resume and cancel with `update(id, {status})`. */
export class RecurringGifts extends Resource {
  list(query?: Q<'/v1/recurring-gifts'>, options?: O): List<'/v1/recurring-gifts'> {
    return this.paginate('/v1/recurring-gifts', query, options);
  }
  get(id: string, options?: O): Promise<R<'/v1/recurring-gifts/{id}', 'get'>> {
    return this.t.send('get', '/v1/recurring-gifts/{id}', { path: { id } }, options);
  }
  create(body: B<'/v1/recurring-gifts', 'post'>, options?: O): Promise<R<'/v1/recurring-gifts', 'post'>> {
    return this.t.send('post', '/v1/recurring-gifts', { body }, options);
  }
  update(
    id: string,
    body: B<'/v1/recurring-gifts/{id}', 'patch'>,
    options?: O,
  ): Promise<R<'/v1/recurring-gifts/{id}', 'patch'>> {
    return this.t.send('patch', '/v1/recurring-gifts/{id}', { path: { id }, body }, options);
  }
}

/** `/v1/pledges`: promised giving, with `given` and `remaining`. */
export class Pledges extends Resource {
  list(query?: Q<'/v1/pledges'>, options?: O): List<'/v1/pledges'> {
    return this.paginate('/v1/pledges', query, options);
  }
  get(id: string, options?: O): Promise<R<'/v1/pledges/{id}', 'get'>> {
    return this.t.send('get', '/v1/pledges/{id}', { path: { id } }, options);
  }
  create(body: B<'/v1/pledges', 'post'>, options?: O): Promise<R<'/v1/pledges', 'post'>> {
    return this.t.send('post', '/v1/pledges', { body }, options);
  }
  update(id: string, body: B<'/v1/pledges/{id}', 'patch'>, options?: O): Promise<R<'/v1/pledges/{id}', 'patch'>> {
    return this.t.send('patch', '/v1/pledges/{id}', { path: { id }, body }, options);
  }
  async delete(id: string, options?: O): Promise<void> {
    await this.t.send('delete', '/v1/pledges/{id}', { path: { id } }, options);
  }
}

/** `/v1/statements`: year-end giving statements, made by a background run. */
export class Statements extends Resource {
  /** Starts a run for a year (202): poll `getRun(id)` until its `status` is done. */
  start(body: B<'/v1/statements', 'post'>, options?: O): Promise<R<'/v1/statements', 'post'>> {
    return this.t.send('post', '/v1/statements', { body }, options);
  }
  getRun(id: string, options?: O): Promise<R<'/v1/statement-runs/{id}', 'get'>> {
    return this.t.send('get', '/v1/statement-runs/{id}', { path: { id } }, options);
  }
  list(query?: Q<'/v1/statements'>, options?: O): List<'/v1/statements'> {
    return this.paginate('/v1/statements', query, options);
  }
  /** The statement's PDF. */
  async pdf(id: string, options?: O): Promise<ArrayBuffer> {
    const body: unknown = await this.t.send(
      'get',
      '/v1/statements/{id}.pdf',
      { path: { id }, parseAs: 'arrayBuffer' },
      { ...options, headers: { Accept: 'application/pdf', ...options?.headers } },
    );
    return body as ArrayBuffer;
  }
}

/** `/v1/events/{id}/registrations`: who registered for an event (a member or a guest). */
export class Registrations extends Resource {
  list(
    eventId: string,
    query?: Q<'/v1/events/{id}/registrations'>,
    options?: O,
  ): List<'/v1/events/{id}/registrations'> {
    return this.paginate('/v1/events/{id}/registrations', query, options, { id: eventId });
  }
  /** `{member_id}` or `{guest: {…}}`; 409 `event_full`, `conflict` or `event_canceled`. Raises `event.registration`. */
  create(
    eventId: string,
    body: B<'/v1/events/{id}/registrations', 'post'>,
    options?: O,
  ): Promise<R<'/v1/events/{id}/registrations', 'post'>> {
    return this.t.send('post', '/v1/events/{id}/registrations', { path: { id: eventId }, body }, options);
  }
  async delete(eventId: string, registrationId: string, options?: O): Promise<void> {
    await this.t.send(
      'delete',
      '/v1/events/{id}/registrations/{reg}',
      { path: { id: eventId, reg: registrationId } },
      options,
    );
  }
}

/** `/v1/events`: the calendar (answers in UTC), with registrations and attendance. */
export class Events extends Resource {
  readonly registrations: Registrations;
  constructor(t: Transport) {
    super(t);
    this.registrations = new Registrations(t);
  }
  list(query?: Q<'/v1/events'>, options?: O): List<'/v1/events'> {
    return this.paginate('/v1/events', query, options);
  }
  get(id: string, options?: O): Promise<R<'/v1/events/{id}', 'get'>> {
    return this.t.send('get', '/v1/events/{id}', { path: { id } }, options);
  }
  create(body: B<'/v1/events', 'post'>, options?: O): Promise<R<'/v1/events', 'post'>> {
    return this.t.send('post', '/v1/events', { body }, options);
  }
  update(id: string, body: B<'/v1/events/{id}', 'patch'>, options?: O): Promise<R<'/v1/events/{id}', 'patch'>> {
    return this.t.send('patch', '/v1/events/{id}', { path: { id }, body }, options);
  }
  async delete(id: string, options?: O): Promise<void> {
    await this.t.send('delete', '/v1/events/{id}', { path: { id } }, options);
  }
  /** Cancels the event and mails its registrants. Raises `event.canceled`. */
  cancel(
    id: string,
    body?: B<'/v1/events/{id}/cancel', 'post'>,
    options?: O,
  ): Promise<R<'/v1/events/{id}/cancel', 'post'>> {
    return this.t.send('post', '/v1/events/{id}/cancel', { path: { id }, body }, options);
  }
  attendance(id: string, query?: Q<'/v1/events/{id}/attendance'>, options?: O): List<'/v1/events/{id}/attendance'> {
    return this.paginate('/v1/events/{id}/attendance', query, options, { id });
  }
  history(id: string, query?: Q<'/v1/events/{id}/history'>, options?: O): List<'/v1/events/{id}/history'> {
    return this.paginate('/v1/events/{id}/history', query, options, { id });
  }
}

/** `/v1/attendance`: one record per member and event. */
export class AttendanceRecords extends Resource {
  list(query?: Q<'/v1/attendance'>, options?: O): List<'/v1/attendance'> {
    return this.paginate('/v1/attendance', query, options);
  }
  get(id: string, options?: O): Promise<R<'/v1/attendance/{id}', 'get'>> {
    return this.t.send('get', '/v1/attendance/{id}', { path: { id } }, options);
  }
  /** Raises `attendance.recorded`; the same member at the same event again is 409 `conflict`. */
  create(body: B<'/v1/attendance', 'post'>, options?: O): Promise<R<'/v1/attendance', 'post'>> {
    return this.t.send('post', '/v1/attendance', { body }, options);
  }
  /** Up to 500 records, answered like the members' bulk. */
  bulk(body: B<'/v1/attendance/bulk', 'post'>, options?: O): Promise<R<'/v1/attendance/bulk', 'post'>> {
    return this.t.send('post', '/v1/attendance/bulk', { body }, options);
  }
}

/** `/v1/groups/{id}/members`: a group's roster with each member's `group_role`. */
export class GroupMembers extends Resource {
  list(groupId: string, query?: Q<'/v1/groups/{id}/members'>, options?: O): List<'/v1/groups/{id}/members'> {
    return this.paginate('/v1/groups/{id}/members', query, options, { id: groupId });
  }
  /** Adds the member, or changes their `group_role` (PUT). A full or closed group is 409. */
  add(
    groupId: string,
    memberId: string,
    body?: B<'/v1/groups/{id}/members/{member_id}', 'put'>,
    options?: O,
  ): Promise<R<'/v1/groups/{id}/members/{member_id}', 'put'>> {
    return this.t.send(
      'put',
      '/v1/groups/{id}/members/{member_id}',
      { path: { id: groupId, member_id: memberId }, body },
      options,
    );
  }
  async remove(groupId: string, memberId: string, options?: O): Promise<void> {
    await this.t.send(
      'delete',
      '/v1/groups/{id}/members/{member_id}',
      { path: { id: groupId, member_id: memberId } },
      options,
    );
  }
}

/** `/v1/groups`: cell groups, their rosters, multiplication and closing. */
export class Groups extends Resource {
  readonly members: GroupMembers;
  constructor(t: Transport) {
    super(t);
    this.members = new GroupMembers(t);
  }
  list(query?: Q<'/v1/groups'>, options?: O): List<'/v1/groups'> {
    return this.paginate('/v1/groups', query, options);
  }
  get(id: string, options?: O): Promise<R<'/v1/groups/{id}', 'get'>> {
    return this.t.send('get', '/v1/groups/{id}', { path: { id } }, options);
  }
  create(body: B<'/v1/groups', 'post'>, options?: O): Promise<R<'/v1/groups', 'post'>> {
    return this.t.send('post', '/v1/groups', { body }, options);
  }
  update(id: string, body: B<'/v1/groups/{id}', 'patch'>, options?: O): Promise<R<'/v1/groups/{id}', 'patch'>> {
    return this.t.send('patch', '/v1/groups/{id}', { path: { id }, body }, options);
  }
  async delete(id: string, options?: O): Promise<void> {
    await this.t.send('delete', '/v1/groups/{id}', { path: { id } }, options);
  }
  /** Raises `group.closed`; closing a closed group is 409 `conflict`. */
  close(id: string, options?: O): Promise<R<'/v1/groups/{id}/close', 'post'>> {
    return this.t.send('post', '/v1/groups/{id}/close', { path: { id } }, options);
  }
  /** Moves `member_ids` into a new group led by `leader_id`. Raises `group.created` and `group.multiplied`. */
  multiply(
    id: string,
    body: B<'/v1/groups/{id}/multiply', 'post'>,
    options?: O,
  ): Promise<R<'/v1/groups/{id}/multiply', 'post'>> {
    return this.t.send('post', '/v1/groups/{id}/multiply', { path: { id }, body }, options);
  }
  history(id: string, query?: Q<'/v1/groups/{id}/history'>, options?: O): List<'/v1/groups/{id}/history'> {
    return this.paginate('/v1/groups/{id}/history', query, options, { id });
  }
}

/** Kiosk check-in (a `chk_` kiosk key reaches these): search, check in, check out with the security code. */
export class CheckIns extends Resource {
  search(query: Q<'/v1/check-in/search'>, options?: O): Promise<R<'/v1/check-in/search', 'get'>> {
    return this.t.send('get', '/v1/check-in/search', { query }, options);
  }
  /** One security code for the visit, a label per person and a parent label. */
  create(body: B<'/v1/check-ins', 'post'>, options?: O): Promise<R<'/v1/check-ins', 'post'>> {
    return this.t.send('post', '/v1/check-ins', { body }, options);
  }
  checkout(
    id: string,
    body: B<'/v1/check-ins/{id}/checkout', 'post'>,
    options?: O,
  ): Promise<R<'/v1/check-ins/{id}/checkout', 'post'>> {
    return this.t.send('post', '/v1/check-ins/{id}/checkout', { path: { id }, body }, options);
  }
}

/** `/v1/prayer-requests`. */
export class PrayerRequests extends Resource {
  list(query?: Q<'/v1/prayer-requests'>, options?: O): List<'/v1/prayer-requests'> {
    return this.paginate('/v1/prayer-requests', query, options);
  }
  get(id: string, options?: O): Promise<R<'/v1/prayer-requests/{id}', 'get'>> {
    return this.t.send('get', '/v1/prayer-requests/{id}', { path: { id } }, options);
  }
  create(body: B<'/v1/prayer-requests', 'post'>, options?: O): Promise<R<'/v1/prayer-requests', 'post'>> {
    return this.t.send('post', '/v1/prayer-requests', { body }, options);
  }
  update(
    id: string,
    body: B<'/v1/prayer-requests/{id}', 'patch'>,
    options?: O,
  ): Promise<R<'/v1/prayer-requests/{id}', 'patch'>> {
    return this.t.send('patch', '/v1/prayer-requests/{id}', { path: { id }, body }, options);
  }
  async delete(id: string, options?: O): Promise<void> {
    await this.t.send('delete', '/v1/prayer-requests/{id}', { path: { id } }, options);
  }
  /** Raises `prayer_request.answered`. */
  answer(
    id: string,
    body: B<'/v1/prayer-requests/{id}/answer', 'post'>,
    options?: O,
  ): Promise<R<'/v1/prayer-requests/{id}/answer', 'post'>> {
    return this.t.send('post', '/v1/prayer-requests/{id}/answer', { path: { id }, body }, options);
  }
}

/** `/v1/notifications`: e-mail and push to an audience, sent by a background job. */
export class Notifications extends Resource {
  list(query?: Q<'/v1/notifications'>, options?: O): List<'/v1/notifications'> {
    return this.paginate('/v1/notifications', query, options);
  }
  get(id: string, options?: O): Promise<R<'/v1/notifications/{id}', 'get'>> {
    return this.t.send('get', '/v1/notifications/{id}', { path: { id } }, options);
  }
  /** 202: queued; `get(id)` shows its `counts` as it goes. */
  create(body: B<'/v1/notifications', 'post'>, options?: O): Promise<R<'/v1/notifications', 'post'>> {
    return this.t.send('post', '/v1/notifications', { body }, options);
  }
  /** While it is still queued. */
  cancel(id: string, options?: O): Promise<R<'/v1/notifications/{id}/cancel', 'post'>> {
    return this.t.send('post', '/v1/notifications/{id}/cancel', { path: { id } }, options);
  }
}

/** `/v1/reports/*` (`read:reports`, 30 a minute): `{report, params, generated_at, rows, totals}`. */
export class Reports extends Resource {
  giving(query?: Q<'/v1/reports/giving'>, options?: O): Promise<R<'/v1/reports/giving', 'get'>> {
    return this.t.send('get', '/v1/reports/giving', { query }, options);
  }
  donors(query?: Q<'/v1/reports/giving/donors'>, options?: O): Promise<R<'/v1/reports/giving/donors', 'get'>> {
    return this.t.send('get', '/v1/reports/giving/donors', { query }, options);
  }
  attendance(query?: Q<'/v1/reports/attendance'>, options?: O): Promise<R<'/v1/reports/attendance', 'get'>> {
    return this.t.send('get', '/v1/reports/attendance', { query }, options);
  }
  growth(query?: Q<'/v1/reports/growth'>, options?: O): Promise<R<'/v1/reports/growth', 'get'>> {
    return this.t.send('get', '/v1/reports/growth', { query }, options);
  }
  groups(options?: O): Promise<R<'/v1/reports/groups', 'get'>> {
    return this.t.send('get', '/v1/reports/groups', {}, options);
  }
}

/** `/v1/devices`: check-in kiosks; registering one answers its `chk_` key once. */
export class Devices extends Resource {
  list(query?: Q<'/v1/devices'>, options?: O): List<'/v1/devices'> {
    return this.paginate('/v1/devices', query, options);
  }
  get(id: string, options?: O): Promise<R<'/v1/devices/{id}', 'get'>> {
    return this.t.send('get', '/v1/devices/{id}', { path: { id } }, options);
  }
  /** Raises `device.registered`; the answer's `key` is shown once. */
  register(body: B<'/v1/devices', 'post'>, options?: O): Promise<R<'/v1/devices', 'post'>> {
    return this.t.send('post', '/v1/devices', { body }, options);
  }
  async delete(id: string, options?: O): Promise<void> {
    await this.t.send('delete', '/v1/devices/{id}', { path: { id } }, options);
  }
  /** A new key (shown once); the old one stops working. */
  rotateKey(id: string, options?: O): Promise<R<'/v1/devices/{id}/rotate-key', 'post'>> {
    return this.t.send('post', '/v1/devices/{id}/rotate-key', { path: { id } }, options);
  }
}

/** `/v1/webhook-endpoints` (`admin:*`): subscriptions, secrets, deliveries. */
export class WebhookEndpoints extends Resource {
  list(query?: Q<'/v1/webhook-endpoints'>, options?: O): List<'/v1/webhook-endpoints'> {
    return this.paginate('/v1/webhook-endpoints', query, options);
  }
  get(id: string, options?: O): Promise<R<'/v1/webhook-endpoints/{id}', 'get'>> {
    return this.t.send('get', '/v1/webhook-endpoints/{id}', { path: { id } }, options);
  }
  /** The answer's `secret` (`whsec_…`) is shown once: keep it for `verifyWebhook`. */
  create(body: B<'/v1/webhook-endpoints', 'post'>, options?: O): Promise<R<'/v1/webhook-endpoints', 'post'>> {
    return this.t.send('post', '/v1/webhook-endpoints', { body }, options);
  }
  /** `{status: 'enabled'}` re-enables a disabled endpoint. */
  update(
    id: string,
    body: B<'/v1/webhook-endpoints/{id}', 'patch'>,
    options?: O,
  ): Promise<R<'/v1/webhook-endpoints/{id}', 'patch'>> {
    return this.t.send('patch', '/v1/webhook-endpoints/{id}', { path: { id }, body }, options);
  }
  async delete(id: string, options?: O): Promise<void> {
    await this.t.send('delete', '/v1/webhook-endpoints/{id}', { path: { id } }, options);
  }
  /** A new secret; the old one keeps signing (a second `v1=`) for 24 hours. */
  rollSecret(id: string, options?: O): Promise<R<'/v1/webhook-endpoints/{id}/roll-secret', 'post'>> {
    return this.t.send('post', '/v1/webhook-endpoints/{id}/roll-secret', { path: { id } }, options);
  }
  /** Calls the receiver's `GET /webhooks/ping`. */
  validate(id: string, options?: O): Promise<R<'/v1/webhook-endpoints/{id}/validate', 'post'>> {
    return this.t.send('post', '/v1/webhook-endpoints/{id}/validate', { path: { id } }, options);
  }
  /**
   * Sends a signed sample event of `body.type` (`"test": true`, never stored nor retried) and
   * answers the attempt: `{status_code, duration_ms, error}`.
   */
  test(
    id: string,
    body: B<'/v1/webhook-endpoints/{id}/test', 'post'>,
    options?: O,
  ): Promise<R<'/v1/webhook-endpoints/{id}/test', 'post'>> {
    return this.t.send('post', '/v1/webhook-endpoints/{id}/test', { path: { id }, body }, options);
  }
  /** Delivers the past events of one type over a date range again. */
  backfill(
    id: string,
    body: B<'/v1/webhook-endpoints/{id}/backfill', 'post'>,
    options?: O,
  ): Promise<R<'/v1/webhook-endpoints/{id}/backfill', 'post'>> {
    return this.t.send('post', '/v1/webhook-endpoints/{id}/backfill', { path: { id }, body }, options);
  }
  /** Every delivery attempt (status code, duration, error). */
  deliveries(
    id: string,
    query?: Q<'/v1/webhook-endpoints/{id}/deliveries'>,
    options?: O,
  ): List<'/v1/webhook-endpoints/{id}/deliveries'> {
    return this.paginate('/v1/webhook-endpoints/{id}/deliveries', query, options, { id });
  }
}

/** `/v1/webhook-events`: the event log. */
export class WebhookEvents extends Resource {
  list(query?: Q<'/v1/webhook-events'>, options?: O): List<'/v1/webhook-events'> {
    return this.paginate('/v1/webhook-events', query, options);
  }
  get(id: string, options?: O): Promise<R<'/v1/webhook-events/{id}', 'get'>> {
    return this.t.send('get', '/v1/webhook-events/{id}', { path: { id } }, options);
  }
  /** Delivers the event again to one endpoint (`{endpoint_id}`). */
  resend(
    id: string,
    body: B<'/v1/webhook-events/{id}/resend', 'post'>,
    options?: O,
  ): Promise<R<'/v1/webhook-events/{id}/resend', 'post'>> {
    return this.t.send('post', '/v1/webhook-events/{id}/resend', { path: { id }, body }, options);
  }
}

/** `/v1/auth/tokens`: API tokens (the value is shown once, on create). */
export class Tokens extends Resource {
  list(query?: Q<'/v1/auth/tokens'>, options?: O): List<'/v1/auth/tokens'> {
    return this.paginate('/v1/auth/tokens', query, options);
  }
  get(id: string, options?: O): Promise<R<'/v1/auth/tokens/{id}', 'get'>> {
    return this.t.send('get', '/v1/auth/tokens/{id}', { path: { id } }, options);
  }
  /** A narrower token; its `token` value is in this answer only. */
  create(body: B<'/v1/auth/tokens', 'post'>, options?: O): Promise<R<'/v1/auth/tokens', 'post'>> {
    return this.t.send('post', '/v1/auth/tokens', { body }, options);
  }
  /** Revokes at once, with every token it created. */
  async revoke(id: string, options?: O): Promise<void> {
    await this.t.send('delete', '/v1/auth/tokens/{id}', { path: { id } }, options);
  }
}

/** `/v1/oauth/clients` and `/v1/oauth/authorizations`: third-party apps of the church. */
export class OAuth extends Resource {
  listClients(query?: Q<'/v1/oauth/clients'>, options?: O): List<'/v1/oauth/clients'> {
    return this.paginate('/v1/oauth/clients', query, options);
  }
  getClient(id: string, options?: O): Promise<R<'/v1/oauth/clients/{id}', 'get'>> {
    return this.t.send('get', '/v1/oauth/clients/{id}', { path: { id } }, options);
  }
  /** A confidential client's `client_secret` is in this answer only. */
  createClient(body: B<'/v1/oauth/clients', 'post'>, options?: O): Promise<R<'/v1/oauth/clients', 'post'>> {
    return this.t.send('post', '/v1/oauth/clients', { body }, options);
  }
  updateClient(
    id: string,
    body: B<'/v1/oauth/clients/{id}', 'patch'>,
    options?: O,
  ): Promise<R<'/v1/oauth/clients/{id}', 'patch'>> {
    return this.t.send('patch', '/v1/oauth/clients/{id}', { path: { id }, body }, options);
  }
  async deleteClient(id: string, options?: O): Promise<void> {
    await this.t.send('delete', '/v1/oauth/clients/{id}', { path: { id } }, options);
  }
  /** The apps the token's user authorized (a personal access token of theirs). */
  listAuthorizations(options?: O): Promise<R<'/v1/oauth/authorizations', 'get'>> {
    return this.t.send('get', '/v1/oauth/authorizations', {}, options);
  }
  async revokeAuthorization(clientId: string, options?: O): Promise<void> {
    await this.t.send('delete', '/v1/oauth/authorizations/{client_id}', { path: { client_id: clientId } }, options);
  }
}

/** The church's settings (`admin:*`): CORS, statements, check-in, the payment processor. */
export class Settings extends Resource {
  getCors(options?: O): Promise<R<'/v1/settings/cors', 'get'>> {
    return this.t.send('get', '/v1/settings/cors', {}, options);
  }
  putCors(body: B<'/v1/settings/cors', 'put'>, options?: O): Promise<R<'/v1/settings/cors', 'put'>> {
    return this.t.send('put', '/v1/settings/cors', { body }, options);
  }
  getStatements(options?: O): Promise<R<'/v1/settings/statements', 'get'>> {
    return this.t.send('get', '/v1/settings/statements', {}, options);
  }
  putStatements(body: B<'/v1/settings/statements', 'put'>, options?: O): Promise<R<'/v1/settings/statements', 'put'>> {
    return this.t.send('put', '/v1/settings/statements', { body }, options);
  }
  getCheckIn(options?: O): Promise<R<'/v1/settings/check-in', 'get'>> {
    return this.t.send('get', '/v1/settings/check-in', {}, options);
  }
  putCheckIn(body: B<'/v1/settings/check-in', 'put'>, options?: O): Promise<R<'/v1/settings/check-in', 'put'>> {
    return this.t.send('put', '/v1/settings/check-in', { body }, options);
  }
  getPaymentProcessor(options?: O): Promise<R<'/v1/settings/payment-processor', 'get'>> {
    return this.t.send('get', '/v1/settings/payment-processor', {}, options);
  }
  /** Registers the API's inbound endpoint with the processor and keeps the key sealed. */
  connectPaymentProcessor(
    body: B<'/v1/settings/payment-processor', 'put'>,
    options?: O,
  ): Promise<R<'/v1/settings/payment-processor', 'put'>> {
    return this.t.send('put', '/v1/settings/payment-processor', { body }, options);
  }
  async disconnectPaymentProcessor(options?: O): Promise<void> {
    await this.t.send('delete', '/v1/settings/payment-processor', {}, options);
  }
}

/** `/v1/audit-log` (`admin:*`): every change made with a token, under the token's name. */
export class AuditLog extends Resource {
  list(query?: Q<'/v1/audit-log'>, options?: O): List<'/v1/audit-log'> {
    return this.paginate('/v1/audit-log', query, options);
  }
}

/** `/v1/usage`: today's and this minute's requests and bytes against the plan. */
export class Usage extends Resource {
  get(options?: O): Promise<R<'/v1/usage', 'get'>> {
    return this.t.send('get', '/v1/usage', {}, options);
  }
}
