import { AppError } from '../../src/common/errors/app-error';
import { ID_PREFIX, newUuid, parsePublicId } from '../../src/common/ids/id';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import { AttendanceService } from '../../src/modules/attendance/attendance.service';
import { JsonObject, TestApi } from '../support/api';
import {
  hoursFromNow,
  inTenant,
  newCampus,
  newEvent,
  newMembers,
  newTenant,
  newToken,
  TestTenant,
} from '../support/factories';
import { TEST_REDIS_URL } from '../support/test-env';
import { as, qs, sortedIssuesOf } from '../support/http';
import type {
  AttendanceResponse as Attendance,
  BulkAttendanceResponse as BulkResult,
} from '../../src/modules/attendance/dto/attendance.response';
import { outboxObjects } from '../support/outbox';

const ATT_ID = /^att_[0-9a-f]{32}$/;
const ids = (list: List<Attendance>) => list.data.map((a) => a.id);

/** A calendar event of the church happening now (from an hour ago to an hour from now); its id. */
const eventNow = async (api: TestApi, church: TestTenant, body: JsonObject = {}) =>
  (await newEvent(api, church, { starts_at: hoursFromNow(-1), ends_at: hoursFromNow(1), ...body })).id;

const people = (n: number, last = 'Ortiz'): JsonObject[] =>
  Array.from({ length: n }, (_, i) => ({ first_name: `P${i}`, last_name: last }));

async function record(api: TestApi, church: TestTenant, body: JsonObject) {
  return api.post<Attendance & Problem>('/v1/attendance', as(church, { body }));
}

async function list(
  api: TestApi,
  church: TestTenant,
  path: string,
  params: Record<string, string> = {},
): Promise<List<Attendance>> {
  const res = await api.get<List<Attendance>>(`${path}${qs(params)}`, as(church));
  if (res.status !== 200) throw new Error(`list ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** `attendance.recorded` objects in the church's outbox, oldest first. */
async function recorded(api: TestApi, church: TestTenant): Promise<Attendance[]> {
  return outboxObjects<Attendance>(api, church, 'attendance.recorded');
}

async function rowsIn(api: TestApi, church: TestTenant): Promise<number> {
  const rows: { n: number }[] = await api.db.platform.query(
    'SELECT count(*)::int AS n FROM attendance WHERE tenant_id = $1',
    [church.id],
  );
  return rows[0].n;
}

describe('attendance', () => {
  let api: TestApi;

  // With Redis, as production runs: list totals are cached there (and must follow every record).
  beforeAll(async () => {
    api = await TestApi.start({ REDIS_URL: TEST_REDIS_URL });
  });
  afterAll(async () => {
    await api.close();
    delete process.env.REDIS_URL;
  });

  describe('POST /v1/attendance', () => {
    it('records a member at an event: 201, Location, att_ id, defaults (regular, now), attendance.recorded with the record as GET returns it', async () => {
      const church = await newTenant(api);
      const [member] = await newMembers(api, church, people(1));
      const event = await eventNow(api, church);
      const before = Date.now();
      const res = await record(api, church, { member_id: member, event_id: event });

      expect(res.status).toBe(201);
      expect(res.body.id).toMatch(ATT_ID);
      expect(res.headers.location).toBe(`/v1/attendance/${res.body.id}`);
      expect(res.body).toMatchObject({ member_id: member, event_id: event, kind: 'regular', check_in_id: null });
      expect(new Date(res.body.checked_in_at).getTime()).toBeGreaterThanOrEqual(before - 1000);
      const got = await api.get<Attendance>(`/v1/attendance/${res.body.id}`, as(church));
      expect(got.status).toBe(200);
      expect(got.body).toEqual(res.body);
      const cached = await api.get(
        `/v1/attendance/${res.body.id}`,
        as(church, { headers: { 'If-None-Match': got.headers.etag } }),
      );
      expect(cached.status).toBe(304);
      expect(await recorded(api, church)).toEqual([res.body]);
    });

    it('takes kind and checked_in_at (an offset is honoured; answered in UTC)', async () => {
      const church = await newTenant(api);
      const [member] = await newMembers(api, church, people(1));
      const event = await eventNow(api, church);
      const res = await record(api, church, {
        member_id: member,
        event_id: event,
        kind: 'volunteer',
        checked_in_at: '2026-03-01T10:05:00-06:00',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ kind: 'volunteer', checked_in_at: '2026-03-01T16:05:00.000Z' });
    });

    it('the same member at the same event twice is 409 conflict naming the record; nothing more is recorded', async () => {
      const church = await newTenant(api);
      const [member] = await newMembers(api, church, people(1));
      const event = await eventNow(api, church);
      const first = await record(api, church, { member_id: member, event_id: event });
      const again = await record(api, church, { member_id: member, event_id: event, kind: 'guest' });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('conflict');
      expect(again.body.detail).toContain(first.body.id);
      expect(await rowsIn(api, church)).toBe(1);
      expect(await recorded(api, church)).toHaveLength(1);
      // Another event is fine.
      expect((await record(api, church, { member_id: member, event_id: await eventNow(api, church) })).status).toBe(
        201,
      );
    });

    it('10 concurrent records of one member at one event: exactly one 201, nine 409, one row, one event', async () => {
      const church = await newTenant(api);
      const [member] = await newMembers(api, church, people(1));
      const event = await eventNow(api, church);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => record(api, church, { member_id: member, event_id: event })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
      expect(await rowsIn(api, church)).toBe(1);
      expect(await recorded(api, church)).toHaveLength(1);
    });

    it('422 for missing, malformed, unknown, deleted or another church’s references and for bad kind or time, naming each field', async () => {
      const church = await newTenant(api);
      const other = await newTenant(api);
      const [member, gone] = await newMembers(api, church, people(2));
      expect((await api.delete(`/v1/members/${gone}`, as(church))).status).toBe(204);
      const event = await eventNow(api, church);
      const deletedEvent = await eventNow(api, church);
      expect((await api.delete(`/v1/events/${deletedEvent}`, as(church))).status).toBe(204);
      const [stranger] = await newMembers(api, other, people(1));
      const strangeEvent = await eventNow(api, other);

      const cases: [JsonObject, { field: string; issue: string }[]][] = [
        [
          {},
          [
            { field: 'event_id', issue: 'required' },
            { field: 'member_id', issue: 'required' },
          ],
        ],
        [
          { member_id: 'mem_nope', event_id: 'evt_123' },
          [
            { field: 'event_id', issue: 'not_found' },
            { field: 'member_id', issue: 'not_found' },
          ],
        ],
        [
          { member_id: stranger, event_id: strangeEvent },
          [
            { field: 'event_id', issue: 'not_found' },
            { field: 'member_id', issue: 'not_found' },
          ],
        ],
        [
          { member_id: gone, event_id: deletedEvent },
          [
            { field: 'event_id', issue: 'not_found' },
            { field: 'member_id', issue: 'not_found' },
          ],
        ],
        [{ member_id: member, event_id: event, kind: 'speaker' }, [{ field: 'kind', issue: 'one_of' }]],
        [
          { member_id: member, event_id: event, checked_in_at: '2026-03-01 10:00' },
          [{ field: 'checked_in_at', issue: 'invalid_format' }],
        ],
        [
          { member_id: member, event_id: event, checked_in_at: '2099-01-01T00:00:00Z' },
          [{ field: 'checked_in_at', issue: 'in_future' }],
        ],
        [
          { member_id: member, event_id: event, checked_in_at: '2026-02-30T10:00:00Z' },
          [{ field: 'checked_in_at', issue: 'invalid_format' }],
        ],
        [{ member_id: member, event_id: event, seat: 'A1' }, [{ field: 'seat', issue: 'unknown_field' }]],
      ];
      for (const [body, issues] of cases) {
        const res = await record(api, church, body);
        expect({ body, status: res.status, code: res.body.code, issues: sortedIssuesOf(res.body) }).toEqual({
          body,
          status: 422,
          code: 'validation_failed',
          issues,
        });
      }
      expect(await rowsIn(api, church)).toBe(0);
    });
  });

  describe('POST /v1/attendance/bulk', () => {
    it('records the valid rows in one call and answers each row (the bulk result shape): validation_failed and conflict rows, one attendance.recorded per record', async () => {
      const church = await newTenant(api);
      const members = await newMembers(api, church, people(5));
      const event = await eventNow(api, church);
      const already = await record(api, church, { member_id: members[4], event_id: event });
      const res = await api.post<BulkResult>(
        '/v1/attendance/bulk',
        as(church, {
          body: {
            attendance: [
              { member_id: members[0], event_id: event },
              { member_id: members[1], event_id: event, kind: 'volunteer', checked_in_at: '2026-03-01T16:00:00Z' },
              { member_id: members[2], event_id: 'evt_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' },
              'not a row',
              { member_id: members[4], event_id: event },
              { member_id: members[0], event_id: event },
              { member_id: members[3], event_id: event, kind: 'choir' },
            ],
          },
        }),
      );
      expect(res.status).toBe(200);
      expect({ created: res.body.created, failed: res.body.failed }).toEqual({ created: 2, failed: 5 });
      expect(res.body.results.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      const [r0, r1, r2, r3, r4, r5, r6] = res.body.results;
      expect(r0.id).toMatch(ATT_ID);
      expect(r1.id).toMatch(ATT_ID);
      expect(r2.error).toMatchObject({
        code: 'validation_failed',
        errors: [{ field: 'event_id', issue: 'not_found' }],
      });
      expect(r3.error).toMatchObject({
        code: 'validation_failed',
        errors: [{ field: '(row)', issue: 'invalid_type' }],
      });
      expect(r4.error).toMatchObject({ code: 'conflict', errors: [{ field: 'member_id', issue: 'duplicate' }] });
      expect(r5.error).toMatchObject({ code: 'conflict', errors: [{ field: 'member_id', issue: 'duplicate' }] });
      expect(r6.error).toMatchObject({ code: 'validation_failed', errors: [{ field: 'kind', issue: 'one_of' }] });
      expect(r4.error!.errors[0].message).toBeTruthy();

      const events = await recorded(api, church);
      expect(events[0].id).toBe(already.body.id);
      expect(
        events
          .slice(1)
          .map((e) => e.id)
          .sort(),
      ).toEqual([r0.id, r1.id].sort());
      expect(events.find((e) => e.id === r1.id)).toMatchObject({
        member_id: members[1],
        event_id: event,
        kind: 'volunteer',
        checked_in_at: '2026-03-01T16:00:00.000Z',
      });
      expect(await rowsIn(api, church)).toBe(3);
    });

    it('500 rows are recorded at once; 501 rows are 413; an empty, missing or non-array attendance is 422', async () => {
      const church = await newTenant(api);
      const members = await newMembers(api, church, people(500));
      const event = await eventNow(api, church);
      const rows = members.map((member_id) => ({ member_id, event_id: event }));
      const big = await api.post<BulkResult & Problem>(
        '/v1/attendance/bulk',
        as(church, { body: { attendance: [...rows, rows[0]] } }),
      );
      expect([big.status, big.body.code]).toEqual([413, 'payload_too_large']);
      const ok = await api.post<BulkResult>('/v1/attendance/bulk', as(church, { body: { attendance: rows } }));
      expect([ok.status, ok.body.created, ok.body.failed]).toEqual([200, 500, 0]);
      expect(await rowsIn(api, church)).toBe(500);
      expect(await recorded(api, church)).toHaveLength(500);
      for (const body of [{ attendance: [] }, {}, { attendance: 'x' }, { attendance: rows.slice(0, 1), extra: true }]) {
        const res = await api.post<Problem>('/v1/attendance/bulk', as(church, { body }));
        expect({ body: Object.keys(body), status: res.status, code: res.body.code }).toEqual({
          body: Object.keys(body),
          status: 422,
          code: 'validation_failed',
        });
      }
    });

    it('two bulk calls of the same rows at once: every pair is recorded once (the other call answers conflict rows)', async () => {
      const church = await newTenant(api);
      const members = await newMembers(api, church, people(40));
      const event = await eventNow(api, church);
      const body = { attendance: members.map((member_id) => ({ member_id, event_id: event })) };
      const [a, b] = await Promise.all([
        api.post<BulkResult>('/v1/attendance/bulk', as(church, { body })),
        api.post<BulkResult>('/v1/attendance/bulk', as(church, { body })),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(a.body.created + b.body.created).toBe(40);
      expect(a.body.failed + b.body.failed).toBe(40);
      expect(await rowsIn(api, church)).toBe(40);
      expect(await recorded(api, church)).toHaveLength(40);
    });
  });

  describe('lists', () => {
    let church: TestTenant;
    let members: string[];
    let sunday: string;
    let wednesday: string;
    let north: string;
    const made: Attendance[] = [];

    beforeAll(async () => {
      church = await newTenant(api);
      north = (await newCampus(api, church, { key: 'north' })).id;
      members = await newMembers(api, church, people(3));
      sunday = await eventNow(api, church, { campus: north });
      wednesday = await eventNow(api, church);
      const bodies: JsonObject[] = [
        { member_id: members[0], event_id: sunday, kind: 'regular', checked_in_at: '2026-03-01T16:00:00Z' },
        { member_id: members[1], event_id: sunday, kind: 'volunteer', checked_in_at: '2026-03-01T15:00:00Z' },
        { member_id: members[2], event_id: sunday, kind: 'guest', checked_in_at: '2026-03-01T16:10:00Z' },
        { member_id: members[0], event_id: wednesday, kind: 'regular', checked_in_at: '2026-03-04T01:00:00Z' },
      ];
      for (const body of bodies) made.push((await record(api, church, body)).body);
    });

    it('lists every record in created_at order, and pages with the cursor', async () => {
      const all = await list(api, church, '/v1/attendance');
      expect(ids(all)).toEqual(made.map((a) => a.id));
      expect(all.total).toBe(4);
      const first = await list(api, church, '/v1/attendance', { limit: '3' });
      const second = await list(api, church, '/v1/attendance', { limit: '3', cursor: first.next_cursor! });
      expect([...ids(first), ...ids(second)]).toEqual(made.map((a) => a.id));
      expect(second.next_cursor).toBeNull();
    });

    it('filters by event_id, member_id, kind, campus and checked_in_at[…]; sorts by checked_in_at', async () => {
      const [a, b, c, d] = made.map((m) => m.id);
      expect(ids(await list(api, church, '/v1/attendance', { event_id: wednesday }))).toEqual([d]);
      expect(ids(await list(api, church, '/v1/attendance', { member_id: members[0] }))).toEqual([a, d]);
      expect(
        ids(await list(api, church, '/v1/attendance', { 'member_id[in]': `${members[1]},${members[2]}` })),
      ).toEqual([b, c]);
      expect(ids(await list(api, church, '/v1/attendance', { kind: 'volunteer' }))).toEqual([b]);
      expect(ids(await list(api, church, '/v1/attendance', { 'kind[in]': 'guest,volunteer' }))).toEqual([b, c]);
      expect(ids(await list(api, church, '/v1/attendance', { campus: 'north' }))).toEqual([a, b, c]);
      expect(ids(await list(api, church, '/v1/attendance', { campus: north }))).toEqual([a, b, c]);
      expect(
        ids(
          await list(api, church, '/v1/attendance', {
            'checked_in_at[gte]': '2026-03-01T10:00:00-06:00',
            'checked_in_at[lt]': '2026-03-02T00:00:00Z',
          }),
        ),
      ).toEqual([a, c]);
      expect(ids(await list(api, church, '/v1/attendance', { sort: 'checked_in_at' }))).toEqual([b, a, c, d]);
      expect(ids(await list(api, church, '/v1/attendance', { sort: '-checked_in_at' }))).toEqual([d, c, a, b]);
      expect(ids(await list(api, church, '/v1/attendance', { 'created_at[gt]': '2100-01-01T00:00:00Z' }))).toEqual([]);
      expect((await api.get<Problem>('/v1/attendance?sort=kind', as(church))).status).toBe(400);
      expect((await api.get<Problem>('/v1/attendance?seat=1', as(church))).status).toBe(400);
    });

    it("GET /v1/members/{id}/attendance and GET /v1/events/{id}/attendance: one member's, one event's", async () => {
      const [a, b, c, d] = made.map((m) => m.id);
      expect(ids(await list(api, church, `/v1/members/${members[0]}/attendance`))).toEqual([a, d]);
      expect(ids(await list(api, church, `/v1/members/${members[0]}/attendance`, { event_id: sunday }))).toEqual([a]);
      expect(ids(await list(api, church, `/v1/events/${sunday}/attendance`))).toEqual([a, b, c]);
      expect(ids(await list(api, church, `/v1/events/${sunday}/attendance`, { kind: 'guest' }))).toEqual([c]);
      expect(ids(await list(api, church, `/v1/events/${wednesday}/attendance`))).toEqual([d]);
      // The path's own filter is not a filter there.
      expect((await api.get(`/v1/events/${sunday}/attendance?event_id=${wednesday}`, as(church))).status).toBe(400);
    });

    it("another church's ids are 404 resource_not_found, and its records are not listed", async () => {
      const other = await newTenant(api);
      for (const path of [
        `/v1/attendance/${made[0].id}`,
        `/v1/members/${members[0]}/attendance`,
        `/v1/events/${sunday}/attendance`,
        '/v1/attendance/att_123',
        '/v1/events/evt_1/attendance',
      ]) {
        const res = await api.get<Problem>(path, as(other));
        expect({ path, status: res.status, code: res.body.code }).toEqual({
          path,
          status: 404,
          code: 'resource_not_found',
        });
      }
      expect((await list(api, other, '/v1/attendance')).data).toEqual([]);
    });

    it('scopes: read:attendance lists but cannot record; write:attendance alone cannot list', async () => {
      const reader = await newToken(api, church, ['read:attendance']);
      const writer = await newToken(api, church, ['write:attendance']);
      expect((await api.get('/v1/attendance', { token: reader.token, tenant: church.slug })).status).toBe(200);
      const refused = await api.post<Problem>('/v1/attendance', {
        token: reader.token,
        tenant: church.slug,
        body: { member_id: members[1], event_id: wednesday },
      });
      expect([refused.status, refused.body.code]).toEqual([403, 'scope_insufficient']);
      expect(
        (await api.post('/v1/attendance/bulk', { token: reader.token, tenant: church.slug, body: { attendance: [] } }))
          .status,
      ).toBe(403);
      expect((await api.get<Problem>('/v1/attendance', { token: writer.token, tenant: church.slug })).status).toBe(403);
      expect(
        (await api.get<Problem>(`/v1/members/${members[0]}/attendance`, { token: writer.token, tenant: church.slug }))
          .status,
      ).toBe(403);
    });
    it('totals follow every record (a cached total is never read after a write), per filter', async () => {
      const before = await list(api, church, '/v1/attendance', { kind: 'regular' });
      const again = await list(api, church, '/v1/attendance', { kind: 'regular' });
      expect(again.total).toBe(before.total);
      expect((await record(api, church, { member_id: members[1], event_id: wednesday })).status).toBe(201);
      expect((await list(api, church, '/v1/attendance', { kind: 'regular' })).total).toBe(before.total! + 1);
      expect((await list(api, church, `/v1/events/${wednesday}/attendance`)).total).toBe(2);
      const bulk = await api.post<BulkResult>(
        '/v1/attendance/bulk',
        as(church, { body: { attendance: [{ member_id: members[2], event_id: wednesday }] } }),
      );
      expect(bulk.body.created).toBe(1);
      expect((await list(api, church, `/v1/events/${wednesday}/attendance`)).total).toBe(3);
      expect((await list(api, church, '/v1/attendance', { kind: 'regular' })).total).toBe(before.total! + 2);
    });
  });

  describe('AttendanceService.recordMany (for the kiosk check-in)', () => {
    // check_in_id is the check-ins module's to test (its foreign key needs a real check-in).
    it('records every row and raises one attendance.recorded each; a member already recorded makes it 409 and keeps nothing', async () => {
      const church = await newTenant(api);
      const members = await newMembers(api, church, people(3));
      const event = parsePublicId(ID_PREFIX.event, await eventNow(api, church))!;
      const [m0, m1, m2] = members.map((m) => parsePublicId(ID_PREFIX.member, m)!);
      const service = api.app.get(AttendanceService);
      const at = new Date('2026-03-01T15:00:00Z');
      const made = await inTenant(api, church.id, () =>
        service.recordMany([
          { eventId: event, memberId: m0, kind: 'regular', checkedInAt: at },
          { eventId: event, memberId: m1, kind: 'guest', checkedInAt: at },
        ]),
      );
      expect(made.map((a) => [a.member_id, a.kind, a.check_in_id, a.checked_in_at])).toEqual([
        [members[0], 'regular', null, at.toISOString()],
        [members[1], 'guest', null, at.toISOString()],
      ]);
      expect((await recorded(api, church)).sort((x, y) => x.id.localeCompare(y.id))).toEqual(
        [...made].sort((x, y) => x.id.localeCompare(y.id)),
      );

      const refused = await inTenant(api, church.id, () =>
        service.recordMany([
          { eventId: event, memberId: m2, kind: 'regular', checkedInAt: at },
          { eventId: event, memberId: m1, kind: 'regular', checkedInAt: at },
        ]),
      ).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(AppError);
      expect([(refused as AppError).status, (refused as AppError).code]).toEqual([409, 'already_checked_in']);
      expect((refused as AppError).params.reason).toContain(members[1]);
      expect((refused as AppError).params.reason).not.toContain(members[0]);
      expect(await rowsIn(api, church)).toBe(2);
      expect(await recorded(api, church)).toHaveLength(2);

      const counts = await inTenant(api, church.id, () => service.countByEvent([event, newUuid()]));
      expect([...counts.entries()]).toEqual([[event, 2]]);
    });
  });
});
