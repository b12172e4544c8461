import { randomBytes } from 'node:crypto';
import { TenantContext } from '../../src/common/context/tenant-context';
import { ID_PREFIX, parsePublicId } from '../../src/common/ids/id';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import { KIOSK_ROUTES } from '../../src/platform/auth/kiosk-routes';
import { OPENAPI_DOCUMENT, OpenApiDocumentHolder } from '../../src/platform/openapi/openapi.controller';
import { BANNED_SEQUENCES, isAllowedCode } from '../../src/modules/check-in/security-code';
import { JsonObject, TestApi } from '../support/api';
import {
  addToHousehold,
  cancelPendingDeliveries,
  inTenant,
  newDevice,
  newHousehold,
  newMembers,
  newTenant,
  newToken,
  newUpcomingEvent,
  TestTenant,
} from '../support/factories';
import { as } from '../support/http';
import type {
  CheckInResponse as CheckIn,
  CheckoutResponse as Checkout,
  SearchHousehold,
} from '../../src/modules/check-in/dto/check-in.response';
import { newCustomField } from '../support/factories';

const CODE = /^[BCDFGHJKLMNPRSTXZ2456789]{4}$/;
const uuidOf = (prefix: keyof typeof ID_PREFIX, id: string) => parsePublicId(ID_PREFIX[prefix], id)!;
const digits = () => String(1000 + (randomBytes(2).readUInt16BE() % 9000));

describe('kiosk check-in (/v1/check-in/search, /v1/check-ins)', () => {
  let api: TestApi;
  let church: TestTenant;
  let other: TestTenant;
  let kiosk: { key: string; deviceId: string };
  let eventId: string;

  async function ok<T>(res: { status: number; body: unknown }, status: number): Promise<T> {
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body as T;
  }

  /** A household with its members (the first has the phone ending in `last4`). */
  async function newFamily(
    c: TestTenant,
    lastName: string,
    last4: string,
    people: { first: string; birthdate?: string; role: string }[],
  ) {
    const ids = await newMembers(
      api,
      c,
      people.map((p, i) => ({
        first_name: p.first,
        last_name: lastName,
        birthdate: p.birthdate ?? null,
        phone: i === 0 ? `+52133${randomBytes(2).readUInt16BE() % 10}00${last4}` : null,
      })),
    );
    const household = await newHousehold(api, c, { name: `${lastName} family` });
    for (const [i, id] of ids.entries())
      await addToHousehold(api, c, household.id, { member_id: id, household_role: people[i].role });
    return { id: household.id, memberIds: ids };
  }

  async function checkIn(body: JsonObject, token = kiosk.key, c = church) {
    return api.post<CheckIn & Problem>('/v1/check-ins', as(token, c, { body }));
  }

  const attendanceOf = async (event: string): Promise<{ member_id: string; check_in_id: string | null }[]> =>
    api.db.platform.query(
      `SELECT member_id, check_in_id FROM attendance WHERE tenant_id = $1 AND event_id = $2 ORDER BY member_id`,
      [church.id, uuidOf('event', event)],
    );

  beforeAll(async () => {
    api = await TestApi.start();
    church = await newTenant(api);
    other = await newTenant(api);
    const device = await newDevice(api, church, { name: 'Lobby kiosk' });
    kiosk = { key: device.key, deviceId: device.id };
    eventId = await newUpcomingEvent(api, church).then((e) => e.id);
  });

  afterAll(async () => {
    await cancelPendingDeliveries(api, [church.id, other.id]);
    await api.close();
  });

  describe('search', () => {
    it('finds the household by the last four phone digits, with all its members and nothing else about them', async () => {
      const last4 = digits();
      const home = await newFamily(church, `Pérez${last4}`, last4, [
        { first: 'Ana', birthdate: '1985-02-03', role: 'head' },
        {
          first: 'Sofía',
          birthdate: new Date(Date.now() - 7.5 * 365.25 * 86400_000).toISOString().slice(0, 10),
          role: 'child',
        },
      ]);
      const res = await ok<{ data: SearchHousehold[] }>(
        await api.get(`/v1/check-in/search?event_id=${eventId}&phone_last4=${last4}`, as(kiosk.key, church)),
        200,
      );
      const found = res.data.find((h) => h.id === home.id)!;
      expect(found).toEqual({
        id: home.id,
        name: `Pérez${last4} family`,
        members: [
          {
            id: home.memberIds[0],
            first_name: 'Ana',
            last_name: `Pérez${last4}`,
            age: expect.any(Number),
            checked_in: false,
          },
          { id: home.memberIds[1], first_name: 'Sofía', last_name: `Pérez${last4}`, age: 7, checked_in: false },
        ],
      });
      // Another church's member with the same digits never shows.
      const [theirs] = await newMembers(api, other, [
        { first_name: 'Other', last_name: 'Church', phone: `+5213300${last4}` },
      ]);
      const again = await ok<{ data: SearchHousehold[] }>(
        await api.get(`/v1/check-in/search?event_id=${eventId}&phone_last4=${last4}`, as(kiosk.key, church)),
        200,
      );
      expect(again.data.flatMap((h) => h.members.map((m) => m.id))).not.toContain(theirs);
    });

    it('finds by the start of a household, first or last name in any case; a person in no household is listed alone', async () => {
      const tag = randomBytes(3).toString('hex');
      const home = await newFamily(church, `Zamora${tag}`, digits(), [{ first: 'Luis', role: 'head' }]);
      const [solo] = await newMembers(api, church, [{ first_name: `Quintín${tag}`, last_name: 'Solo' }]);
      const byLast = await ok<{ data: SearchHousehold[] }>(
        await api.get(`/v1/check-in/search?event_id=${eventId}&name=zAmOrA${tag}`, as(kiosk.key, church)),
        200,
      );
      expect(byLast.data.map((h) => h.id)).toEqual([home.id]);
      const byFirst = await ok<{ data: SearchHousehold[] }>(
        await api.get(
          `/v1/check-in/search?event_id=${eventId}&name=${encodeURIComponent(`quintín${tag}`)}`,
          as(kiosk.key, church),
        ),
        200,
      );
      expect(byFirst.data).toEqual([
        {
          id: null,
          name: `Quintín${tag} Solo`,
          members: [{ id: solo, first_name: `Quintín${tag}`, last_name: 'Solo', age: null, checked_in: false }],
        },
      ]);
      const wildcard = await ok<{ data: SearchHousehold[] }>(
        await api.get(`/v1/check-in/search?event_id=${eventId}&name=%25%25`, as(kiosk.key, church)),
        200,
      );
      expect(wildcard.data).toEqual([]);
    });

    it('the phone, name and e-mail look-ups reach their indexes as the app role, under row-level security', async () => {
      // As a request runs them: the app role with the church set, where only leakproof conditions
      // may be index conditions (lower() and right() are not; the generated key columns are plain).
      // A church of 1,000 more members, analyzed, so that the selective index is the planner's choice.
      const n = (i: number) => String(i).padStart(4, '0');
      await newMembers(
        api,
        church,
        Array.from({ length: 1000 }, (_, i) => ({
          first_name: `Load${n(i)}`,
          last_name: `Planner${n(i)}`,
          phone: `+1555777${n(i)}`,
          email: `load${n(i)}@example.org`,
        })),
      );
      await api.db.platform.query('ANALYZE members');
      const indexConditions = (where: string, params: unknown[]) =>
        inTenant(api, church.id, async () => {
          const { manager } = TenantContext.current();
          await manager.query('SET LOCAL enable_seqscan = off');
          const rows: { 'QUERY PLAN': string }[] = await manager.query(
            `EXPLAIN SELECT id FROM members m WHERE m.tenant_id = $1 AND m.deleted_at IS NULL AND ${where}`,
            [church.id, ...params],
          );
          return rows.map((r) => r['QUERY PLAN']);
        });
      expect((await indexConditions('m.phone_last4 IS NOT NULL AND m.phone_last4 = $2', ['1234'])).join('\n')).toMatch(
        /tenant_id = .*phone_last4 = /,
      );
      expect(
        (
          await indexConditions(
            "m.last_name_key ~>=~ lower($2) AND m.last_name_key ~<=~ (lower($2) || U&'\\+10FFFF')",
            ['Gar'],
          )
        ).join('\n'),
      ).toMatch(/tenant_id = .*last_name_key ~>=~/);
      expect((await indexConditions('m.email_key = lower($2)', ['Ana@Example.org'])).join('\n')).toMatch(
        /tenant_id = .*email_key = /,
      );
    });

    it('needs exactly one of phone_last4 and name (400), and the church’s event (404)', async () => {
      expect((await api.get<Problem>(`/v1/check-in/search?event_id=${eventId}`, as(kiosk.key, church))).body.code).toBe(
        'invalid_parameter',
      );
      expect(
        (
          await api.get<Problem>(
            `/v1/check-in/search?event_id=${eventId}&phone_last4=1234&name=ab`,
            as(kiosk.key, church),
          )
        ).body.code,
      ).toBe('invalid_parameter');
      expect(
        (await api.get<Problem>(`/v1/check-in/search?event_id=${eventId}&phone_last4=12a4`, as(kiosk.key, church)))
          .status,
      ).toBe(400);
      expect(
        (await api.get<Problem>(`/v1/check-in/search?event_id=${eventId}&name=%20%20a`, as(kiosk.key, church))).status,
      ).toBe(400); // not a match-all
      const theirEvent = await newUpcomingEvent(api, other).then((e) => e.id);
      const res = await api.get<Problem>(
        `/v1/check-in/search?event_id=${theirEvent}&phone_last4=1234`,
        as(kiosk.key, church),
      );
      expect([res.status, res.body.code]).toEqual([404, 'resource_not_found']);
    });
  });

  describe('check-in and checkout', () => {
    it('checks a household in with one security code: labels, parent label, one attendance each pointing at the check-in', async () => {
      const event = await newUpcomingEvent(api, church).then((e) => e.id);
      const home = await newFamily(church, 'Gómez', digits(), [
        { first: 'Marta', role: 'head' },
        { first: 'Leo', birthdate: '2020-05-06', role: 'child' },
      ]);
      const res = await checkIn({ event_id: event, member_ids: home.memberIds });
      expect(res.status).toBe(201);
      const code = res.body.security_code;
      expect(code).toMatch(CODE);
      expect(isAllowedCode(code)).toBe(true);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^cki_[0-9a-f]{32}$/),
        event_id: event,
        security_code: code,
        labels: [
          { member_id: home.memberIds[0], first_name: 'Marta', last_name: 'Gómez', security_code: code },
          { member_id: home.memberIds[1], first_name: 'Leo', last_name: 'Gómez', security_code: code },
        ],
        parent_label: { security_code: code, names: ['Marta Gómez', 'Leo Gómez'] },
        device_id: kiosk.deviceId,
        checked_in_at: expect.any(String),
      });
      const rows = await attendanceOf(event);
      expect(rows.map((r) => r.member_id).sort()).toEqual(home.memberIds.map((id) => uuidOf('member', id)).sort());
      expect(rows.every((r) => r.check_in_id === uuidOf('checkIn', res.body.id))).toBe(true);
      const events: { n: number }[] = await api.db.platform.query(
        `SELECT count(*)::int AS n FROM webhook_events WHERE tenant_id = $1 AND type = 'attendance.recorded' AND payload -> 'data' -> 'object' ->> 'event_id' = $2`,
        [church.id, event],
      );
      expect(events[0].n).toBe(2);

      const search = await ok<{ data: SearchHousehold[] }>(
        await api.get(`/v1/check-in/search?event_id=${event}&name=G%C3%B3mez`, as(kiosk.key, church)),
        200,
      );
      expect(search.data.find((h) => h.id === home.id)!.members.map((m) => m.checked_in)).toEqual([true, true]);
    });

    it('labels carry allergies when the church defines an `allergies` custom field (null when the member has none)', async () => {
      const c = await newTenant(api);
      const { key } = await newDevice(api, c, { name: 'K' });
      await newCustomField(api, c, { key: 'allergies', label: 'Allergies', type: 'text' });
      const [kid, parent] = await newMembers(api, c, [
        { first_name: 'Tim', last_name: 'Ruiz', custom_fields: { allergies: 'Peanuts' } },
        { first_name: 'Eva', last_name: 'Ruiz' },
      ]);
      const res = await checkIn(
        { event_id: await newUpcomingEvent(api, c).then((e) => e.id), member_ids: [kid, parent] },
        key,
        c,
      );
      expect(res.status).toBe(201);
      expect(res.body.labels.map((l) => l.allergies)).toEqual(['Peanuts', null]);
      await cancelPendingDeliveries(api, [c.id]);
    });

    it('a person already checked in to the event is 409 already_checked_in, and nothing of the call is kept', async () => {
      const event = await newUpcomingEvent(api, church).then((e) => e.id);
      const [first, second] = await newMembers(api, church, [
        { first_name: 'Uno', last_name: 'Dup' },
        { first_name: 'Dos', last_name: 'Dup' },
      ]);
      await ok(await checkIn({ event_id: event, member_ids: [first] }), 201);
      const res = await checkIn({ event_id: event, member_ids: [second, first] });
      expect([res.status, res.body.code]).toEqual([409, 'already_checked_in']);
      expect(res.body.detail).toContain(first);
      expect((await attendanceOf(event)).map((r) => r.member_id)).toEqual([uuidOf('member', first)]);
      const visits: unknown[] = await api.db.platform.query(
        `SELECT 1 FROM check_ins WHERE tenant_id = $1 AND event_id = $2`,
        [church.id, uuidOf('event', event)],
      );
      expect(visits).toHaveLength(1);
    });

    it('the same person checked in by two kiosks at once: one 201, one 409', async () => {
      const event = await newUpcomingEvent(api, church).then((e) => e.id);
      const [member] = await newMembers(api, church, [{ first_name: 'Race', last_name: 'Kid' }]);
      const results = await Promise.all([
        checkIn({ event_id: event, member_ids: [member] }),
        checkIn({ event_id: event, member_ids: [member] }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      expect(results.find((r) => r.status === 409)!.body.code).toBe('already_checked_in');
      expect(await attendanceOf(event)).toHaveLength(1);
    });

    it('checkout with a wrong code is 422 security_code_mismatch and changes nothing; the right one (any case) records who and when; twice is 409', async () => {
      const event = await newUpcomingEvent(api, church).then((e) => e.id);
      const [member] = await newMembers(api, church, [{ first_name: 'Out', last_name: 'Kid' }]);
      const visit = await ok<CheckIn>(await checkIn({ event_id: event, member_ids: [member] }), 201);
      const rowOf = async () => {
        const rows: { checked_out_at: Date | null; updated_at: Date }[] = await api.db.platform.query(
          `SELECT checked_out_at, checked_out_device_id, checked_out_token_id, updated_at FROM check_ins WHERE tenant_id = $1 AND id = $2`,
          [church.id, uuidOf('checkIn', visit.id)],
        );
        return rows[0];
      };
      const before = await rowOf();
      const wrongCode = visit.security_code === 'BBBB' ? 'CCCC' : 'BBBB';
      const wrong = await api.post<Problem>(
        `/v1/check-ins/${visit.id}/checkout`,
        as(kiosk.key, church, { body: { security_code: wrongCode } }),
      );
      expect([wrong.status, wrong.body.code]).toEqual([422, 'security_code_mismatch']);
      expect(await rowOf()).toEqual(before);
      expect(before.checked_out_at).toBeNull();

      const right = await api.post<Checkout>(
        `/v1/check-ins/${visit.id}/checkout`,
        as(kiosk.key, church, { body: { security_code: visit.security_code.toLowerCase() } }),
      );
      expect(right.status).toBe(200);
      expect(right.body).toMatchObject({
        id: visit.id,
        checked_out_device_id: kiosk.deviceId,
        checked_out_token_id: expect.stringMatching(/^tok_/),
      });
      expect((await rowOf()).checked_out_at).not.toBeNull();
      const again = await api.post<Problem>(
        `/v1/check-ins/${visit.id}/checkout`,
        as(kiosk.key, church, { body: { security_code: visit.security_code } }),
      );
      expect([again.status, again.body.code]).toEqual([409, 'conflict']);
    });

    it("another church's check-in is 404; another church's event, member or device is 422 naming the field", async () => {
      const event = await newUpcomingEvent(api, church).then((e) => e.id);
      const [mine] = await newMembers(api, church, [{ first_name: 'Mine', last_name: 'X' }]);
      const [theirs] = await newMembers(api, other, [{ first_name: 'Theirs', last_name: 'X' }]);
      const theirDevice = (await newDevice(api, other, { name: 'Their kiosk' })).id;
      const theirVisit = await ok<CheckIn>(
        await checkIn(
          { event_id: await newUpcomingEvent(api, other).then((e) => e.id), member_ids: [theirs] },
          other.token,
          other,
        ),
        201,
      );
      const checkout = await api.post<Problem>(
        `/v1/check-ins/${theirVisit.id}/checkout`,
        as(kiosk.key, church, { body: { security_code: theirVisit.security_code } }),
      );
      expect([checkout.status, checkout.body.code]).toEqual([404, 'resource_not_found']);

      const fields = async (body: JsonObject) => {
        const res = await checkIn(body);
        expect([res.status, res.body.code]).toEqual([422, 'validation_failed']);
        return (res.body.errors ?? []).map((e) => `${e.field}:${e.issue}`);
      };
      expect(await fields({ event_id: theirVisit.event_id, member_ids: [mine] })).toEqual(['event_id:not_found']);
      expect(await fields({ event_id: event, member_ids: [mine, theirs] })).toEqual(['member_ids.1:not_found']);
      expect(await fields({ event_id: event, member_ids: [mine], device_id: theirDevice })).toEqual([
        'device_id:not_found',
      ]);
      expect(await fields({ event_id: event, member_ids: [] })).toEqual(['member_ids:required']);
      expect(await attendanceOf(event)).toEqual([]);
    });

    it('a canceled event is 409 event_canceled', async () => {
      const event = await newUpcomingEvent(api, church).then((e) => e.id);
      const [member] = await newMembers(api, church, [{ first_name: 'Late', last_name: 'Kid' }]);
      await ok(
        await api.post(`/v1/events/${event}/cancel`, as(church.token, church, { body: { reason: 'Storm' } })),
        200,
      );
      const res = await checkIn({ event_id: event, member_ids: [member] });
      expect([res.status, res.body.code]).toEqual([409, 'event_canceled']);
    });

    it('staff tokens need write:attendance (and read:members to search)', async () => {
      const [member] = await newMembers(api, church, [{ first_name: 'Staff', last_name: 'Kid' }]);
      const reader = await newToken(api, church, ['read:members', 'read:attendance'], 'staff');
      const writer = await newToken(api, church, ['write:attendance'], 'staff');
      expect((await checkIn({ event_id: eventId, member_ids: [member] }, reader.token)).body.code).toBe(
        'scope_insufficient',
      );
      expect(
        (await api.get<Problem>(`/v1/check-in/search?event_id=${eventId}&phone_last4=1234`, as(writer.token, church)))
          .body.code,
      ).toBe('scope_insufficient');
      const res = await checkIn({ event_id: eventId, member_ids: [member] }, writer.token);
      expect(res.status).toBe(201);
      expect(res.body.device_id).toBeNull();
    });
  });

  describe('check-out lock', () => {
    /** A visit of one new person at a new event, and a code that is not its own. */
    async function newVisit() {
      const [member] = await newMembers(api, church, [{ first_name: 'Lock', last_name: 'Kid' }]);
      const visit = await ok<CheckIn>(
        await checkIn({ event_id: await newUpcomingEvent(api, church).then((e) => e.id), member_ids: [member] }),
        201,
      );
      return { ...visit, wrongCode: visit.security_code === 'BBBB' ? 'CCCC' : 'BBBB' };
    }
    const checkout = (visit: CheckIn, code: string) =>
      api.post<Checkout & Problem>(
        `/v1/check-ins/${visit.id}/checkout`,
        as(kiosk.key, church, { body: { security_code: code } }),
      );
    const rowOf = async (visit: CheckIn) => {
      const rows: { checkout_failures: number; checkout_locked_until: Date | null; checked_out_at: Date | null }[] =
        await api.db.platform.query(
          `SELECT checkout_failures, checkout_locked_until, checked_out_at FROM check_ins WHERE tenant_id = $1 AND id = $2`,
          [church.id, uuidOf('checkIn', visit.id)],
        );
      return rows[0];
    };
    const expectLocked = (res: { status: number; body: Problem; headers: Record<string, string> }) => {
      expect([res.status, res.body.code]).toEqual([423, 'checkout_locked']);
      const seconds = Number(res.headers['retry-after']);
      expect(Number.isInteger(seconds) && seconds > 0 && seconds <= 900).toBe(true);
      expect(res.body.detail).toContain(`${seconds}`);
    };

    it('five wrong codes lock check-out for 15 minutes, even with the right code (423 checkout_locked, Retry-After); once the lock has run out the right code checks out', async () => {
      const visit = await newVisit();
      for (let i = 1; i <= 5; i++) {
        const wrong = await checkout(visit, visit.wrongCode);
        expect([wrong.status, wrong.body.code]).toEqual([422, 'security_code_mismatch']);
        expect((await rowOf(visit)).checkout_failures).toBe(i); // counted, although the answer is an error
      }
      const locked = await rowOf(visit);
      expect(locked.checkout_locked_until!.getTime() - Date.now()).toBeGreaterThan(14 * 60_000);
      expectLocked(await checkout(visit, visit.security_code));
      expectLocked(await checkout(visit, visit.wrongCode));
      expect(await rowOf(visit)).toEqual(locked); // attempts while locked are not counted, nor do they extend the lock

      // The lock runs out: a wrong code starts a new count (422, not locked again), the right one checks out.
      await api.db.platform.query(
        `UPDATE check_ins SET checkout_locked_until = now() - interval '1 second' WHERE tenant_id = $1 AND id = $2`,
        [church.id, uuidOf('checkIn', visit.id)],
      );
      const again = await checkout(visit, visit.wrongCode);
      expect([again.status, again.body.code]).toEqual([422, 'security_code_mismatch']);
      expect((await rowOf(visit)).checkout_failures).toBe(1);
      const right = await checkout(visit, visit.security_code);
      expect(right.status).toBe(200);
      expect(right.body.id).toBe(visit.id);
      expect(await rowOf(visit)).toEqual({
        checkout_failures: 0,
        checkout_locked_until: null,
        checked_out_at: expect.any(Date),
      });
    });

    it('four wrong codes do not lock: the right one checks out and clears the count', async () => {
      const visit = await newVisit();
      for (let i = 0; i < 4; i++) expect((await checkout(visit, visit.wrongCode)).status).toBe(422);
      expect((await rowOf(visit)).checkout_failures).toBe(4);
      expect((await checkout(visit, visit.security_code)).status).toBe(200);
      expect(await rowOf(visit)).toMatchObject({ checkout_failures: 0, checkout_locked_until: null });
      // The route runs outside the request's transaction: the checkout is audited in a transaction of its own, the refusals not at all.
      const audit: { action: string; status: number }[] = await api.db.platform.query(
        `SELECT action, status FROM audit_log WHERE tenant_id = $1 AND resource_id = $2 AND action = 'check_in.checkout'`,
        [church.id, visit.id],
      );
      expect(audit).toEqual([{ action: 'check_in.checkout', status: 200 }]);
    });

    it('10 wrong codes at once: none is lost, the first five are 422 and the rest 423; then the right code is 423', async () => {
      const visit = await newVisit();
      const results = await Promise.all(Array.from({ length: 10 }, () => checkout(visit, visit.wrongCode)));
      const answers = results.map((r) => `${r.status} ${r.body.code}`);
      expect(answers.filter((a) => a === '422 security_code_mismatch')).toHaveLength(5);
      expect(answers.filter((a) => a === '423 checkout_locked')).toHaveLength(5);
      const row = await rowOf(visit);
      expect(row.checkout_failures).toBe(5);
      expect(row.checkout_locked_until).not.toBeNull();
      expectLocked(await checkout(visit, visit.security_code));
      expect((await rowOf(visit)).checked_out_at).toBeNull();
    });

    it("another church's check-in is still 404, with or without wrong codes counted", async () => {
      const [theirs] = await newMembers(api, other, [{ first_name: 'Far', last_name: 'Kid' }]);
      const theirVisit = await ok<CheckIn>(
        await checkIn(
          { event_id: await newUpcomingEvent(api, other).then((e) => e.id), member_ids: [theirs] },
          other.token,
          other,
        ),
        201,
      );
      for (let i = 0; i < 6; i++) {
        const res = await checkout(theirVisit, 'BBBB');
        expect([res.status, res.body.code]).toEqual([404, 'resource_not_found']);
      }
      const rows: { checkout_failures: number }[] = await api.db.platform.query(
        `SELECT checkout_failures FROM check_ins WHERE tenant_id = $1 AND id = $2`,
        [other.id, uuidOf('checkIn', theirVisit.id)],
      );
      expect(rows[0].checkout_failures).toBe(0);
    });
  });

  describe('security codes', () => {
    it('200 concurrent check-ins of different households on one church and day get 200 distinct codes', async () => {
      const event = await newUpcomingEvent(api, church, { name: 'Big Sunday' }).then((e) => e.id);
      const members = await newMembers(
        api,
        church,
        Array.from({ length: 200 }, (_, i) => ({ first_name: `Kid${i}`, last_name: 'Burst' })),
      );
      const results = await Promise.all(members.map((member) => checkIn({ event_id: event, member_ids: [member] })));
      expect(results.filter((r) => r.status !== 201).map((r) => `${r.status} ${JSON.stringify(r.body)}`)).toEqual([]);
      const codes = results.map((r) => r.body.security_code);
      expect(new Set(codes).size).toBe(200);
      expect(codes.every((c) => CODE.test(c) && isAllowedCode(c))).toBe(true);
    });

    it('a code the church already used today is never issued again: the check-in draws another', async () => {
      // A quarter of all codes taken today (every code starting with one of the first 6 letters of the alphabet): without a retry, about one check-in in four would fail.
      const event = await newUpcomingEvent(api, church, { name: 'Full day' }).then((e) => e.id);
      const eventUuid = uuidOf('event', event);
      await api.db.platform.query(
        `INSERT INTO check_ins (tenant_id, id, event_id, day, security_code, member_ids)
         SELECT $1, gen_random_uuid(), $2, (now() AT TIME ZONE 'America/Mexico_City')::date, a || b || c || d, '{}'
           FROM unnest(string_to_array('BCDFGH', NULL)) a, unnest(string_to_array('BCDFGHJKLMNPRSTXZ2456789', NULL)) b,
                unnest(string_to_array('BCDFGHJKLMNPRSTXZ2456789', NULL)) c, unnest(string_to_array('BCDFGHJKLMNPRSTXZ2456789', NULL)) d
         ON CONFLICT DO NOTHING`,
        [church.id, eventUuid],
      );
      const members = await newMembers(
        api,
        church,
        Array.from({ length: 20 }, (_, i) => ({ first_name: `Day${i}`, last_name: 'Full' })),
      );
      for (const member of members) {
        const res = await checkIn({ event_id: event, member_ids: [member] });
        expect(res.status).toBe(201);
        expect('BCDFGH').not.toContain(res.body.security_code[0]);
      }
      await api.db.platform.query(
        `DELETE FROM check_ins WHERE tenant_id = $1 AND event_id = $2 AND member_ids = '{}'`,
        [church.id, eventUuid],
      );
    });

    it('the banned list only names sequences the alphabet can spell', () => {
      for (const sequence of BANNED_SEQUENCES) expect(sequence).toMatch(/^[BCDFGHJKLMNPRSTXZ2456789]+$/);
      expect(isAllowedCode('XFCK')).toBe(false);
      expect(isAllowedCode('B69C')).toBe(false);
      expect(isAllowedCode('BCDF')).toBe(true);
    });
  });

  describe('kiosk keys', () => {
    it('reach the check-in routes and GET /v1/events only: every other route of the OpenAPI document answers 403 (scope_insufficient, or token_type_not_allowed on the credential routes)', async () => {
      const document = api.app.get<OpenApiDocumentHolder>(OPENAPI_DOCUMENT).document!;
      const reached: string[] = [];
      const refused: string[] = [];
      for (const [template, item] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(item as Record<string, { security?: unknown[] }>)) {
          if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
          if (!operation.security || operation.security.length === 0) continue; // public routes
          const path = template.replace(/\{[^}]+\}/g, (name) =>
            name === '{id}' ? 'x_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' : 'x',
          );
          const res = await api.send<Problem>(method.toUpperCase(), path, as(kiosk.key, church));
          const route = `${method.toUpperCase()} ${template.replace(/\{([^}]+)\}/g, ':$1')}`;
          if (res.status === 403 && ['scope_insufficient', 'token_type_not_allowed'].includes(res.body.code))
            refused.push(route);
          else reached.push(route);
        }
      }
      expect(reached.sort()).toEqual([...KIOSK_ROUTES].sort());
      expect(refused.length).toBeGreaterThan(50);
      expect(refused).toContain('GET /v1/members');
    });
  });
});
