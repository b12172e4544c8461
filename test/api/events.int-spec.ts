import { randomBytes } from 'node:crypto';
import { ID_PREFIX, parsePublicId } from '../../src/common/ids/id';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import { JsonObject, TestApi } from '../support/api';
import {
  cancelPendingDeliveries,
  newCampus,
  newEvent,
  newMembers,
  newRegistration,
  newTenant,
  newToken,
  TestTenant,
} from '../support/factories';
import { TestSmtpServer } from '../support/smtp';
import { waitFor } from '../support/wait';
import { as, qs, sortedIssuesOf } from '../support/http';
import type { CalendarEventResponse as CalendarEvent } from '../../src/modules/events/dto/event.response';
import type { RegistrationResponse as Registration } from '../../src/modules/events/dto/registration.response';
import { outboxObjects } from '../support/outbox';

// ---------------------------------------------------------------------------------------------
// Calendar events and registrations (CONTRACT §11), over HTTP on PostgreSQL, with a real SMTP server
// for the cancellation mails (mail jobs run in-process: no REDIS_URL in this file).
// ---------------------------------------------------------------------------------------------

const EVENT_ID = /^evt_[0-9a-f]{32}$/;
const REG_ID = /^reg_[0-9a-f]{32}$/;

const unique = (prefix: string) => `${prefix}-${randomBytes(3).toString('hex')}`;

describe('calendar events', () => {
  let api: TestApi;
  let smtp: TestSmtpServer;
  const churches: TestTenant[] = [];

  beforeAll(async () => {
    delete process.env.REDIS_URL; // mail jobs in-process, delivered to the test SMTP server
    smtp = await TestSmtpServer.start();
    api = await TestApi.start({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Church API <no-reply@church.test>',
      JOB_RETRY_BASE_MS: '200',
    });
  });

  afterAll(async () => {
    if (api && churches.length) {
      await cancelPendingDeliveries(
        api,
        churches.map((c) => c.id),
      );
    }
    await api?.close();
    await smtp?.close();
  });

  async function church(): Promise<TestTenant> {
    const c = await newTenant(api);
    churches.push(c);
    return c;
  }

  function register(c: TestTenant, eventId: string, body: JsonObject) {
    return api.post<Registration & Problem>(`/v1/events/${eventId}/registrations`, as(c, { body }));
  }

  async function listEvents(c: TestTenant, params: Record<string, string> = {}): Promise<List<CalendarEvent>> {
    const res = await api.get<List<CalendarEvent>>(`/v1/events${qs(params)}`, as(c));
    if (res.status !== 200) throw new Error(`list failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function outbox<T>(c: TestTenant, type: string, objectId: string): Promise<T[]> {
    return outboxObjects<T>(api, c, type, objectId);
  }

  async function registrationRows(c: TestTenant, eventId: string): Promise<number> {
    const rows: { n: number }[] = await api.db.platform.query(
      `SELECT count(*)::int AS n FROM event_registrations WHERE tenant_id = $1 AND event_id = $2`,
      [c.id, parsePublicId(ID_PREFIX.event, eventId)],
    );
    return rows[0].n;
  }

  // -------------------------------------------------------------------------------------------
  describe('create, read, update, delete', () => {
    it('creates an event: 201, Location, evt_ id, times in UTC, event.created carries the event as GET returns it', async () => {
      const c = await church();
      const res = await api.post<CalendarEvent>(
        '/v1/events',
        as(c, {
          body: {
            name: 'Christmas Eve service',
            starts_at: '2026-12-24T19:00:00-06:00',
            ends_at: '2026-12-24T20:30:00-06:00',
            timezone: 'America/Mexico_City',
            location: 'Main sanctuary',
            description: 'Carols and candles.',
            capacity: 120,
          },
        }),
      );
      expect(res.status).toBe(201);
      expect(res.body.id).toMatch(EVENT_ID);
      expect(res.headers.location).toBe(`/v1/events/${res.body.id}`);
      expect(res.body).toMatchObject({
        name: 'Christmas Eve service',
        starts_at: '2026-12-25T01:00:00.000Z',
        ends_at: '2026-12-25T02:30:00.000Z',
        timezone: 'America/Mexico_City',
        capacity: 120,
        registration_count: 0,
        registration_open: true,
        attendance_count: 0,
        status: 'scheduled',
        canceled_at: null,
        campus: null,
      });
      const got = await api.get<CalendarEvent>(`/v1/events/${res.body.id}`, as(c));
      expect(got.status).toBe(200);
      expect(got.body).toEqual(res.body);
      expect(await outbox(c, 'event.created', res.body.id)).toEqual([res.body]);
    });

    it('reads a time without an offset as local time in the event time zone (DST included)', async () => {
      const c = await church();
      const summer = await newEvent(api, c, {
        starts_at: '2026-07-05T10:00',
        ends_at: '2026-07-05T11:00:00',
        timezone: 'America/New_York',
      });
      expect([summer.starts_at, summer.ends_at]).toEqual(['2026-07-05T14:00:00.000Z', '2026-07-05T15:00:00.000Z']);
      const winter = await newEvent(api, c, {
        starts_at: '2026-12-06T10:00',
        ends_at: '2026-12-06T11:00',
        timezone: 'America/New_York',
      });
      expect(winter.starts_at).toBe('2026-12-06T15:00:00.000Z');
      // 02:30 does not exist on 2026-03-08 in New York (02:00 -> 03:00): it moves forward by the gap, to 03:30 EDT.
      const skipped = await newEvent(api, c, {
        starts_at: '2026-03-08T02:30',
        ends_at: '2026-03-08T05:00',
        timezone: 'America/New_York',
      });
      expect(skipped.starts_at).toBe('2026-03-08T07:30:00.000Z');
      const madrid = await newEvent(api, c, {
        starts_at: '2026-03-29T02:30',
        ends_at: '2026-03-29T05:00',
        timezone: 'Europe/Madrid',
      });
      expect(madrid.starts_at).toBe('2026-03-29T01:30:00.000Z');
    });

    it("defaults the time zone to the campus's, else UTC", async () => {
      const c = await church();
      await newCampus(api, c, { key: 'bogota', timezone: 'America/Bogota' });
      await newCampus(api, c, { key: 'plain' });
      const atCampus = await newEvent(api, c, {
        campus: 'bogota',
        starts_at: '2026-12-06T10:00',
        ends_at: '2026-12-06T12:00',
      });
      expect(atCampus.timezone).toBe('America/Bogota');
      expect(atCampus.starts_at).toBe('2026-12-06T15:00:00.000Z');
      expect(atCampus.campus).toMatchObject({ key: 'bogota' });
      const noZone = await newEvent(api, c, {
        campus: 'plain',
        starts_at: '2026-12-06T10:00',
        ends_at: '2026-12-06T12:00',
      });
      expect(noZone.timezone).toBe('UTC');
      expect(noZone.starts_at).toBe('2026-12-06T10:00:00.000Z');
      expect((await newEvent(api, c)).timezone).toBe('UTC');
    });

    it('refuses an unknown time zone, an offset as a zone, ends_at not after starts_at, a bad time, an unknown campus (422 naming each field)', async () => {
      const c = await church();
      const post = (body: JsonObject) =>
        api.post<Problem>(
          '/v1/events',
          as(c, { body: { name: 'x', starts_at: '2026-12-06T10:00:00Z', ends_at: '2026-12-06T11:00:00Z', ...body } }),
        );
      for (const timezone of ['Mars/Olympus_Mons', '+05:00', 'America/', '']) {
        const res = await post({ timezone });
        expect([res.status, res.body.code]).toEqual([422, 'validation_failed']);
        expect(sortedIssuesOf(res.body)).toEqual([{ field: 'timezone', issue: 'invalid_format' }]);
      }
      const backwards = await post({ ends_at: '2026-12-06T09:00:00Z' });
      expect(sortedIssuesOf(backwards.body)).toEqual([{ field: 'ends_at', issue: 'not_after_start' }]);
      const equal = await post({ ends_at: '2026-12-06T10:00:00Z' });
      expect(sortedIssuesOf(equal.body)).toEqual([{ field: 'ends_at', issue: 'not_after_start' }]);
      const badDate = await post({ starts_at: '2026-02-30T10:00:00Z' });
      expect(sortedIssuesOf(badDate.body)).toEqual([{ field: 'starts_at', issue: 'invalid_format' }]);
      const badHour = await post({ starts_at: '2026-02-03T25:00' });
      expect(sortedIssuesOf(badHour.body)).toEqual([{ field: 'starts_at', issue: 'invalid_format' }]);
      const campus = await post({ campus: 'nowhere' });
      expect(sortedIssuesOf(campus.body)).toEqual([{ field: 'campus', issue: 'not_found' }]);
      const missing = await api.post<Problem>('/v1/events', as(c, { body: {} }));
      expect(sortedIssuesOf(missing.body).map((i) => i.field)).toEqual(['ends_at', 'name', 'starts_at']);
      const status = await post({ status: 'canceled' });
      expect(status.status).toBe(422);
    });

    it('PATCH: a subset; a new time zone alone keeps the instants; local times are read in the new zone; ends_at must stay after starts_at', async () => {
      const c = await church();
      const e = await newEvent(api, c, { capacity: 10 });
      const renamed = await api.patch<CalendarEvent>(
        `/v1/events/${e.id}`,
        as(c, { body: { name: 'Renamed', capacity: null, location: 'Hall' } }),
      );
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ name: 'Renamed', capacity: null, location: 'Hall', starts_at: e.starts_at });
      const zoned = await api.patch<CalendarEvent>(
        `/v1/events/${e.id}`,
        as(c, { body: { timezone: 'Europe/Madrid' } }),
      );
      expect(zoned.body).toMatchObject({ timezone: 'Europe/Madrid', starts_at: e.starts_at, ends_at: e.ends_at });
      const moved = await api.patch<CalendarEvent>(
        `/v1/events/${e.id}`,
        as(c, { body: { starts_at: '2026-12-06T09:00', ends_at: '2026-12-06T10:00' } }),
      );
      expect(moved.body).toMatchObject({ starts_at: '2026-12-06T08:00:00.000Z', ends_at: '2026-12-06T09:00:00.000Z' });
      const backwards = await api.patch<Problem>(
        `/v1/events/${e.id}`,
        as(c, { body: { ends_at: '2026-12-06T07:00:00Z' } }),
      );
      expect([backwards.status, sortedIssuesOf(backwards.body)]).toEqual([
        422,
        [{ field: 'ends_at', issue: 'not_after_start' }],
      ]);
      const cleared = await api.patch<Problem>(`/v1/events/${e.id}`, as(c, { body: { name: null } }));
      expect([cleared.status, sortedIssuesOf(cleared.body)]).toEqual([422, [{ field: 'name', issue: 'required' }]]);
      const back = await api.patch<CalendarEvent>(`/v1/events/${e.id}`, as(c, { body: { timezone: null } }));
      expect(back.body.timezone).toBe('UTC');
    });

    it('GET carries an ETag: 304 while unchanged, 200 after a registration changes it', async () => {
      const c = await church();
      const e = await newEvent(api, c);
      const first = await api.get<CalendarEvent>(`/v1/events/${e.id}`, as(c));
      const etag = String(first.headers.etag);
      expect((await api.get(`/v1/events/${e.id}`, as(c, { headers: { 'If-None-Match': etag } }))).status).toBe(304);
      await newRegistration(api, c, e.id, { guest: { first_name: 'Ana', last_name: 'Torres' } });
      const after = await api.get<CalendarEvent>(`/v1/events/${e.id}`, as(c, { headers: { 'If-None-Match': etag } }));
      expect([after.status, after.body.registration_count]).toEqual([200, 1]);
    });

    it('DELETE: 204, then 404 by id and gone from the list', async () => {
      const c = await church();
      const e = await newEvent(api, c);
      expect((await api.delete(`/v1/events/${e.id}`, as(c))).status).toBe(204);
      const gone = await api.get<Problem>(`/v1/events/${e.id}`, as(c));
      expect([gone.status, gone.body.code]).toEqual([404, 'resource_not_found']);
      expect((await listEvents(c)).data.map((x) => x.id)).not.toContain(e.id);
      expect((await api.delete(`/v1/events/${e.id}`, as(c))).status).toBe(404);
    });

    it("another church's event is 404 on every {id} route; a malformed id too", async () => {
      const mine = await church();
      const theirs = await church();
      const e = await newEvent(api, theirs);
      const reg = await register(theirs, e.id, { guest: { first_name: 'Ana', last_name: 'Torres' } });
      const calls = [
        api.get<Problem>(`/v1/events/${e.id}`, as(mine)),
        api.patch<Problem>(`/v1/events/${e.id}`, as(mine, { body: { name: 'hijack' } })),
        api.delete<Problem>(`/v1/events/${e.id}`, as(mine)),
        api.post<Problem>(`/v1/events/${e.id}/cancel`, as(mine, { body: {} })),
        api.post<Problem>(
          `/v1/events/${e.id}/registrations`,
          as(mine, { body: { guest: { first_name: 'A', last_name: 'B' } } }),
        ),
        api.get<Problem>(`/v1/events/${e.id}/registrations`, as(mine)),
        api.delete<Problem>(`/v1/events/${e.id}/registrations/${reg.body.id}`, as(mine)),
        api.get<Problem>('/v1/events/evt_nothex', as(mine)),
      ];
      for (const res of await Promise.all(calls))
        expect([res.status, res.body.code]).toEqual([404, 'resource_not_found']);
      const still = await api.get<CalendarEvent>(`/v1/events/${e.id}`, as(theirs));
      expect(still.body).toMatchObject({ name: 'Sunday service', status: 'scheduled', registration_count: 1 });
      expect((await listEvents(mine)).data).toEqual([]);
    });

    it('scopes: read:events reads but cannot write (403 scope_insufficient); without read:events nothing', async () => {
      const c = await church();
      const e = await newEvent(api, c);
      const reader = await newToken(api, c, ['read:events'], 'volunteer');
      const read = await api.get<CalendarEvent>(`/v1/events/${e.id}`, { token: reader.token, tenant: c.slug });
      expect(read.status).toBe(200);
      const write = await api.post<Problem>('/v1/events', {
        token: reader.token,
        tenant: c.slug,
        body: { name: 'x', starts_at: '2026-12-06T10:00:00Z', ends_at: '2026-12-06T11:00:00Z' },
      });
      expect([write.status, write.body.code]).toEqual([403, 'scope_insufficient']);
      const reg = await api.post<Problem>(`/v1/events/${e.id}/registrations`, {
        token: reader.token,
        tenant: c.slug,
        body: { guest: { first_name: 'A', last_name: 'B' } },
      });
      expect([reg.status, reg.body.code]).toEqual([403, 'scope_insufficient']);
      const other = await newToken(api, c, ['read:members'], 'staff');
      const list = await api.get<Problem>('/v1/events', { token: other.token, tenant: c.slug });
      expect([list.status, list.body.code]).toEqual([403, 'scope_insufficient']);
      const kiosk = await newToken(api, c, ['read:events', 'read:members', 'write:attendance'], 'volunteer', 'kiosk');
      expect((await api.get<List<CalendarEvent>>('/v1/events', { token: kiosk.token, tenant: c.slug })).status).toBe(
        200,
      );
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('GET /v1/events', () => {
    it('filters by starts_at[…], status, campus, created_at; sorts by starts_at; pages with the cursor', async () => {
      const c = await church();
      await newCampus(api, c, { key: 'north' });
      const jan = await newEvent(api, c, {
        name: 'Jan',
        starts_at: '2027-01-10T10:00:00Z',
        ends_at: '2027-01-10T11:00:00Z',
        campus: 'north',
      });
      const dec = await newEvent(api, c, {
        name: 'Dec',
        starts_at: '2026-12-10T10:00:00Z',
        ends_at: '2026-12-10T11:00:00Z',
      });
      const feb = await newEvent(api, c, {
        name: 'Feb',
        starts_at: '2027-02-10T10:00:00Z',
        ends_at: '2027-02-10T11:00:00Z',
        campus: 'north',
      });
      await api.post(`/v1/events/${feb.id}/cancel`, as(c, { body: {} }));

      const byStart = await listEvents(c, { sort: 'starts_at' });
      expect(byStart.data.map((e) => e.name)).toEqual(['Dec', 'Jan', 'Feb']);
      expect(byStart.total).toBe(3);
      const desc = await listEvents(c, { sort: '-starts_at' });
      expect(desc.data.map((e) => e.name)).toEqual(['Feb', 'Jan', 'Dec']);
      const upcoming = await listEvents(c, { 'starts_at[gte]': '2027-01-01T00:00:00Z', sort: 'starts_at' });
      expect(upcoming.data.map((e) => e.id)).toEqual([jan.id, feb.id]);
      const before = await listEvents(c, { 'starts_at[lt]': '2027-01-10T04:00:00-06:00' });
      expect(before.data.map((e) => e.id)).toEqual([dec.id]);
      expect((await listEvents(c, { status: 'canceled' })).data.map((e) => e.id)).toEqual([feb.id]);
      expect((await listEvents(c, { 'status[ne]': 'canceled', campus: 'north' })).data.map((e) => e.id)).toEqual([
        jan.id,
      ]);
      expect((await listEvents(c, { 'created_at[gte]': dec.created_at })).data.map((e) => e.id)).toEqual([
        dec.id,
        feb.id,
      ]);
      expect((await listEvents(c, { 'updated_at[gt]': '2000-01-01T00:00:00Z' })).total).toBe(3);

      const page1 = await listEvents(c, { sort: 'starts_at', limit: '2' });
      expect(page1.data.map((e) => e.name)).toEqual(['Dec', 'Jan']);
      const page2 = await listEvents(c, { sort: 'starts_at', limit: '2', cursor: page1.next_cursor! });
      expect(page2.data.map((e) => e.name)).toEqual(['Feb']);
      expect(page2.next_cursor).toBeNull();

      const bad: Record<string, string>[] = [
        { sort: 'name' },
        { color: 'red' },
        { 'starts_at[gte]': 'yesterday' },
        { status: 'postponed' },
      ];
      for (const params of bad) {
        const res = await api.get<Problem>(`/v1/events${qs(params)}`, as(c));
        expect([res.status, res.body.code]).toEqual([400, 'invalid_parameter']);
      }
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('attendance_count', () => {
    it('counts the attendance records of each event on GET, on every event of a list page, and after PATCH', async () => {
      const c = await church();
      const members = await newMembers(
        api,
        c,
        Array.from({ length: 3 }, (_, i) => ({ first_name: `Att${i}`, last_name: 'Count' })),
      );
      const a = await newEvent(api, c, {
        name: 'A',
        starts_at: '2026-12-06T10:00:00Z',
        ends_at: '2026-12-06T11:00:00Z',
      });
      const b = await newEvent(api, c, {
        name: 'B',
        starts_at: '2026-12-13T10:00:00Z',
        ends_at: '2026-12-13T11:00:00Z',
      });
      const none = await newEvent(api, c, {
        name: 'None',
        starts_at: '2026-12-20T10:00:00Z',
        ends_at: '2026-12-20T11:00:00Z',
      });
      const record = async (event_id: string, member_id: string) => {
        const res = await api.post('/v1/attendance', as(c, { body: { event_id, member_id, kind: 'regular' } }));
        expect(res.status).toBe(201);
      };
      for (const m of members) await record(a.id, m);
      await record(b.id, members[0]);
      expect((await api.get<CalendarEvent>(`/v1/events/${a.id}`, as(c))).body.attendance_count).toBe(3);
      const page = await listEvents(c, { sort: 'starts_at' });
      expect(page.data.map((e) => [e.name, e.attendance_count])).toEqual([
        ['A', 3],
        ['B', 1],
        ['None', 0],
      ]);
      expect(
        (await api.patch<CalendarEvent>(`/v1/events/${b.id}`, as(c, { body: { name: 'B2' } }))).body.attendance_count,
      ).toBe(1);
      expect(none.attendance_count).toBe(0);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('registrations', () => {
    it('registers a member and a guest: 201, reg_ ids, event.registration each, listed oldest first, counted on the event', async () => {
      const c = await church();
      const [maria] = await newMembers(api, c, [
        { first_name: 'María', last_name: 'González', email: 'maria@example.org' },
      ]);
      const e = await newEvent(api, c, { capacity: 5 });
      const m = await register(c, e.id, { member_id: maria });
      expect(m.status).toBe(201);
      expect(m.body.id).toMatch(REG_ID);
      expect(m.body).toMatchObject({
        event_id: e.id,
        member: { id: maria, first_name: 'María', last_name: 'González' },
        guest: null,
      });
      const g = await register(c, e.id, {
        guest: { first_name: ' Ana ', last_name: 'Torres', email: 'ana@example.org' },
      });
      expect(g.status).toBe(201);
      expect(g.body).toMatchObject({
        member: null,
        guest: { first_name: 'Ana', last_name: 'Torres', email: 'ana@example.org' },
      });
      expect(await outbox(c, 'event.registration', m.body.id)).toEqual([m.body]);
      expect(await outbox(c, 'event.registration', g.body.id)).toEqual([g.body]);

      const list = await api.get<List<Registration>>(`/v1/events/${e.id}/registrations`, as(c));
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual([m.body, g.body]);
      expect(list.body.total).toBe(2);
      expect((await api.get<CalendarEvent>(`/v1/events/${e.id}`, as(c))).body.registration_count).toBe(2);
    });

    it('a member registered twice is 409 conflict; a body with both or neither of member_id and guest, or an unknown member, is 422', async () => {
      const c = await church();
      const other = await church();
      const [maria] = await newMembers(api, c, [{ first_name: 'María', last_name: 'González' }]);
      const [stranger] = await newMembers(api, other, [{ first_name: 'Otro', last_name: 'Miembro' }]);
      const e = await newEvent(api, c);
      expect((await register(c, e.id, { member_id: maria })).status).toBe(201);
      const twice = await register(c, e.id, { member_id: maria });
      expect([twice.status, twice.body.code]).toEqual([409, 'conflict']);
      const both = await register(c, e.id, { member_id: maria, guest: { first_name: 'A', last_name: 'B' } });
      expect([both.status, both.body.code]).toEqual([422, 'validation_failed']);
      const neither = await register(c, e.id, {});
      expect([neither.status, sortedIssuesOf(neither.body)]).toEqual([
        422,
        [{ field: 'member_id', issue: 'required' }],
      ]);
      for (const member_id of [stranger, 'mem_nothex', 'prs_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f']) {
        const res = await register(c, e.id, { member_id });
        expect([res.status, sortedIssuesOf(res.body)]).toEqual([422, [{ field: 'member_id', issue: 'not_found' }]]);
      }
      const badGuest = await register(c, e.id, { guest: { first_name: 'A', last_name: '', email: 'nope' } });
      expect([badGuest.status, sortedIssuesOf(badGuest.body).map((i) => i.field)]).toEqual([
        422,
        ['guest.email', 'guest.last_name'],
      ]);
      expect(await registrationRows(c, e.id)).toBe(1);
    });

    it('over capacity is 409 event_full; deleting a registration frees the seat and lets the member register again', async () => {
      const c = await church();
      const [maria, jose] = await newMembers(api, c, [
        { first_name: 'María', last_name: 'González' },
        { first_name: 'José', last_name: 'Pérez' },
      ]);
      const e = await newEvent(api, c, { capacity: 1 });
      const first = await register(c, e.id, { member_id: maria });
      const full = await register(c, e.id, { member_id: jose });
      expect([full.status, full.body.code]).toEqual([409, 'event_full']);
      const guest = await register(c, e.id, { guest: { first_name: 'A', last_name: 'B' } });
      expect([guest.status, guest.body.code]).toEqual([409, 'event_full']);
      expect((await api.delete(`/v1/events/${e.id}/registrations/${first.body.id}`, as(c))).status).toBe(204);
      expect((await api.delete<Problem>(`/v1/events/${e.id}/registrations/${first.body.id}`, as(c))).status).toBe(404);
      expect((await api.get<CalendarEvent>(`/v1/events/${e.id}`, as(c))).body.registration_count).toBe(0);
      expect((await register(c, e.id, { member_id: jose })).status).toBe(201);
      expect((await register(c, e.id, { member_id: maria })).body.code).toBe('event_full');
      const zero = await newEvent(api, c, { capacity: 0 });
      expect((await register(c, zero.id, { member_id: maria })).body.code).toBe('event_full');
      const unlimited = await newEvent(api, c);
      for (let i = 0; i < 3; i++)
        expect((await register(c, unlimited.id, { guest: { first_name: `G${i}`, last_name: 'X' } })).status).toBe(201);
    });

    it("a registration of another event is 404 on this event's DELETE", async () => {
      const c = await church();
      const a = await newEvent(api, c);
      const b = await newEvent(api, c);
      const reg = await register(c, a.id, { guest: { first_name: 'A', last_name: 'B' } });
      const res = await api.delete<Problem>(`/v1/events/${b.id}/registrations/${reg.body.id}`, as(c));
      expect([res.status, res.body.code]).toEqual([404, 'resource_not_found']);
      expect(await registrationRows(c, a.id)).toBe(1);
    });

    it('registration_open: false is 409 conflict', async () => {
      const c = await church();
      const e = await newEvent(api, c, { registration_open: false });
      const res = await register(c, e.id, { guest: { first_name: 'A', last_name: 'B' } });
      expect([res.status, res.body.code]).toEqual([409, 'conflict']);
    });

    it('10 concurrent registrations for 3 seats: exactly 3 succeed, 7 are event_full, and the count holds', async () => {
      const c = await church();
      const ids = await newMembers(
        api,
        c,
        Array.from({ length: 10 }, (_, i) => ({ first_name: `Racer${i}`, last_name: 'Seat' })),
      );
      const e = await newEvent(api, c, { capacity: 3 });
      const results = await Promise.all(ids.map((member_id) => register(c, e.id, { member_id })));
      const statuses = results.map((r) => (r.status === 201 ? 201 : `${r.status} ${r.body.code}`));
      expect(statuses.filter((s) => s === 201)).toHaveLength(3);
      expect(statuses.filter((s) => s === '409 event_full')).toHaveLength(7);
      expect(await registrationRows(c, e.id)).toBe(3);
      expect((await api.get<CalendarEvent>(`/v1/events/${e.id}`, as(c))).body.registration_count).toBe(3);
    });

    it('the same member registering 5 times at once: one 201, the others 409 conflict', async () => {
      const c = await church();
      const [maria] = await newMembers(api, c, [{ first_name: 'María', last_name: 'González' }]);
      const e = await newEvent(api, c, { capacity: 10 });
      const results = await Promise.all(Array.from({ length: 5 }, () => register(c, e.id, { member_id: maria })));
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
      expect(results.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual([
        'conflict',
        'conflict',
        'conflict',
        'conflict',
      ]);
      expect(await registrationRows(c, e.id)).toBe(1);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('POST /v1/events/{id}/cancel', () => {
    it('cancels: status canceled, event.canceled, one localized mail to each registrant with an address; then registrations and a second cancel are 409 event_canceled', async () => {
      const c = await church();
      const maria = `maria-${randomBytes(3).toString('hex')}@example.org`;
      const ana = `ana-${randomBytes(3).toString('hex')}@example.org`;
      const [mariaId, noMailId] = await newMembers(api, c, [
        { first_name: 'María', last_name: 'González', email: maria },
        { first_name: 'Sin', last_name: 'Correo' },
      ]);
      const e = await newEvent(api, c, {
        name: unique('Retiro de jóvenes'),
        starts_at: '2026-12-24T19:00',
        ends_at: '2026-12-24T21:00',
        timezone: 'America/Mexico_City',
      });
      for (const body of [
        { member_id: mariaId },
        { member_id: noMailId },
        { guest: { first_name: 'Ana', last_name: 'Torres', email: ana } },
        { guest: { first_name: 'Sin', last_name: 'Correo' } },
      ]) {
        expect((await register(c, e.id, body)).status).toBe(201);
      }

      for (const body of [{ reason: 5 }, { reason: 'x'.repeat(1001) }, { reason: 'ok', status: 'canceled' }]) {
        const bad = await api.post<Problem>(`/v1/events/${e.id}/cancel`, as(c, { body }));
        expect([bad.status, bad.body.code]).toEqual([422, 'validation_failed']);
      }
      expect((await api.get<CalendarEvent>(`/v1/events/${e.id}`, as(c))).body.status).toBe('scheduled');

      const res = await api.post<CalendarEvent>(
        `/v1/events/${e.id}/cancel`,
        as(c, { lang: 'es', body: { reason: 'Alerta de huracán' } }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: e.id, status: 'canceled', cancel_reason: 'Alerta de huracán' });
      expect(res.body.canceled_at).not.toBeNull();
      expect(await outbox(c, 'event.canceled', e.id)).toEqual([res.body]);
      expect((await api.get<CalendarEvent>(`/v1/events/${e.id}`, as(c))).body).toEqual(res.body);

      await waitFor(async () => smtp.to(maria).length + smtp.to(ana).length >= 2, {
        what: 'two cancellation mails',
        timeout: 15_000,
      });
      const [toMaria] = smtp.to(maria);
      expect(toMaria.subject).toBe(`Cancelado: ${e.name}`);
      expect(toMaria.text).toContain('Hola, María:');
      expect(toMaria.text).toContain('Motivo: Alerta de huracán');
      expect(toMaria.text).toContain('America/Mexico_City');
      expect(toMaria.text).toMatch(/jueves, 24 de diciembre de 2026.*7:00/);
      expect(smtp.to(ana)[0].text).toContain('Hola, Ana:');
      expect(smtp.messages.filter((m) => m.subject.includes(e.name))).toHaveLength(2);

      const again = await api.post<Problem>(`/v1/events/${e.id}/cancel`, as(c, { body: {} }));
      expect([again.status, again.body.code]).toEqual([409, 'event_canceled']);
      const late = await register(c, e.id, { guest: { first_name: 'Late', last_name: 'Comer' } });
      expect([late.status, late.body.code]).toEqual([409, 'event_canceled']);
      expect(await outbox(c, 'event.canceled', e.id)).toHaveLength(1);
    });

    it('in English for an English request; without a reason; no registrants, no mail', async () => {
      const c = await church();
      const bob = `bob-${randomBytes(3).toString('hex')}@example.org`;
      const e = await newEvent(api, c, { name: unique('Youth night') });
      await newRegistration(api, c, e.id, { guest: { first_name: 'Bob', last_name: 'Smith', email: bob } });
      const res = await api.post<CalendarEvent>(`/v1/events/${e.id}/cancel`, as(c, { lang: 'en', body: {} }));
      expect([res.status, res.body.cancel_reason]).toEqual([200, null]);
      await waitFor(async () => smtp.to(bob).length >= 1, { what: 'the English mail', timeout: 15_000 });
      expect(smtp.to(bob)[0].subject).toBe(`Canceled: ${e.name}`);
      expect(smtp.to(bob)[0].text).toContain('Hello Bob,');
      expect(smtp.to(bob)[0].text).not.toContain('Reason:');

      const empty = await newEvent(api, c, { name: unique('Empty') });
      expect((await api.post(`/v1/events/${empty.id}/cancel`, as(c))).status).toBe(200); // no body at all
      const queued: { n: number }[] = await api.db.platform.query(
        `SELECT count(*)::int AS n FROM mail_outbox WHERE subject LIKE $1`,
        [`%${empty.name}%`],
      );
      expect(queued[0].n).toBe(0);
    });

    it('two concurrent cancels: one 200, one 409 event_canceled, one event and one mail', async () => {
      const c = await church();
      const carl = `carl-${randomBytes(3).toString('hex')}@example.org`;
      const e = await newEvent(api, c, { name: unique('Race') });
      await newRegistration(api, c, e.id, { guest: { first_name: 'Carl', last_name: 'X', email: carl } });
      const results = await Promise.all(
        [0, 1].map(() => api.post<Problem>(`/v1/events/${e.id}/cancel`, as(c, { body: {} }))),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(await outbox(c, 'event.canceled', e.id)).toHaveLength(1);
      await waitFor(async () => smtp.to(carl).length >= 1, { what: 'the mail', timeout: 15_000 });
      const queued: { n: number }[] = await api.db.platform.query(
        `SELECT count(*)::int AS n FROM mail_outbox WHERE recipient = $1`,
        [carl],
      );
      expect(queued[0].n).toBe(1);
      // Written in the cancel's own transaction: the mail job is the church's, not a platform job.
      const jobs: { n: number }[] = await api.db.platform.query(
        `SELECT count(*)::int AS n FROM background_jobs j JOIN mail_outbox m ON m.id = (j.data->>'mailId')::uuid WHERE j.tenant_id = $1 AND j.kind = 'mail' AND m.recipient = $2`,
        [c.id, carl],
      );
      expect(jobs[0].n).toBe(1);
    });
  });
});
