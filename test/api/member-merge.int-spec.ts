import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import type { AttendanceResponse as Attendance } from '../../src/modules/attendance/dto/attendance.response';
import type { CheckInResponse as CheckIn, CheckoutResponse } from '../../src/modules/check-in/dto/check-in.response';
import type { SearchHousehold } from '../../src/modules/check-in/dto/check-in.response';
import type { DonationResponse as Donation } from '../../src/modules/donations/dto/donation.response';
import type { CalendarEventResponse as CalendarEvent } from '../../src/modules/events/dto/event.response';
import type { RegistrationResponse as Registration } from '../../src/modules/events/dto/registration.response';
import type { GroupMemberResponse as GroupMember } from '../../src/modules/groups/dto/group-member.response';
import type { HouseholdResponse as Household } from '../../src/modules/households/dto/household.response';
import type { MemberMergeResponse as Merged } from '../../src/modules/members/dto/member-merge.response';
import type { MemberResponse as Member } from '../../src/modules/members/dto/member.response';
import type { NotificationResponse as Notification } from '../../src/modules/notifications/dto/notification.response';
import type { PledgeResponse as Pledge } from '../../src/modules/pledges/dto/pledge.response';
import type { PrayerRequestResponse as PrayerRequest } from '../../src/modules/prayer-requests/dto/prayer-request.response';
import type { ProspectResponse as Prospect } from '../../src/modules/prospects/dto/prospect.response';
import type { PushTokenList } from '../../src/modules/push-tokens/dto/push-token.response';
import type { RecurringGiftResponse as RecurringGift } from '../../src/modules/recurring-gifts/dto/recurring-gift.response';
import type { StatementRunResponse as Run } from '../../src/modules/statements/dto/statement-run.response';
import type { StatementResponse as Statement } from '../../src/modules/statements/dto/statement.response';
import { JsonObject, TestApi } from '../support/api';
import {
  addToHousehold,
  cancelPendingDeliveries,
  joinGroup,
  newCampus,
  newCustomField,
  newDonation,
  newEvent,
  newFund,
  newGroup,
  newHousehold,
  newMember,
  newPledge,
  newPrayerRequest,
  newProspect,
  newRecurringGift,
  newRegistration,
  newTag,
  newTenant,
  newToken,
  newUpcomingEvent,
  TestTenant,
  TokenPool,
} from '../support/factories';
import { as, expectProblem, issuesOf, qs } from '../support/http';
import { outboxObjects } from '../support/outbox';
import { waitFor } from '../support/wait';

/** CONTRACT §17: POST /v1/members/{id}/merge, and what a merged member's id does afterwards. */

/** Last calendar year: a gift of it is in the past whatever today's date (statements are per year). */
const YEAR = new Date().getUTCFullYear() - 1;

describe('merging duplicate members (POST /v1/members/{id}/merge)', () => {
  let api: TestApi;
  let church: TestTenant;
  let other: TestTenant;
  let fundId: string;
  /** POST /v1/donations allows 30 a minute per token. */
  let donationTokens: TokenPool;

  const merge = (survivor: string, body: JsonObject, c: TestTenant = church, headers?: Record<string, string>) =>
    api.post<Merged & Problem>(`/v1/members/${survivor}/merge`, as(c, { body, headers }));

  async function merged(survivor: string, body: JsonObject, c: TestTenant = church): Promise<Merged> {
    const res = await merge(survivor, body, c);
    if (res.status !== 200) throw new Error(`merge failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function ok<T>(path: string, c: TestTenant = church): Promise<T> {
    const res = await api.get<T>(path, as(c));
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function donate(donorId: string, extra: JsonObject = {}): Promise<Donation> {
    return newDonation(
      api,
      church,
      { amount: 1000, currency: 'USD', fund_id: fundId, donor_id: donorId, ...extra },
      { token: await donationTokens.next() },
    );
  }

  /** Donations per donor (public ids), read past the API: what a half-done merge would leave behind. */
  async function donationsPerDonor(c: TestTenant, ids: string[]): Promise<Record<string, number>> {
    const rows = await api.db.platform.query<{ donor: string; n: number }[]>(
      `SELECT 'mem_' || replace(donor_id::text, '-', '') AS donor, count(*)::int AS n FROM donations
        WHERE tenant_id = $1 AND donor_id IS NOT NULL GROUP BY donor_id`,
      [c.id],
    );
    const counts = Object.fromEntries(ids.map((id) => [id, 0]));
    for (const r of rows) if (r.donor in counts) counts[r.donor] = r.n;
    return counts;
  }

  const ids = <T extends { id: string }>(list: List<T> | { data: T[] }) => list.data.map((r) => r.id).sort();

  beforeAll(async () => {
    api = await TestApi.start();
    church = await newTenant(api);
    other = await newTenant(api);
    fundId = (await newFund(api, church)).id;
    donationTokens = new TokenPool(api, church, ['read:donations', 'write:donations']);
  });

  afterAll(async () => {
    await cancelPendingDeliveries(api, [church.id, other.id]);
    await api.close();
  });

  // -------------------------------------------------------------------------------------------
  describe('what moves', () => {
    it('moves every kind of record to the survivor, counts each in `moved`, and the API shows them there', async () => {
      // Both people came from prospects (a survivor may now come from several).
      const convert = async (first: string) => {
        const prospect = await newProspect(api, church, { first_name: first, last_name: 'Merge' });
        const res = await api.post<Prospect>(`/v1/prospects/${prospect.id}/convert`, as(church));
        expect(res.status).toBe(200);
        return { prospect: res.body.id, member: res.body.member_id! };
      };
      const s = await convert('Ana');
      const d = await convert('Anita');
      const [survivor, duplicate] = [s.member, d.member];
      const survivorHome = await newHousehold(api, church);
      const duplicateHome = await newHousehold(api, church, { primary_contact_id: duplicate });
      await addToHousehold(api, church, survivorHome.id, { member_id: survivor, household_role: 'head' });
      await addToHousehold(api, church, duplicateHome.id, { member_id: duplicate, household_role: 'spouse' });

      // Giving: two gifts of the duplicate (one last year, on a statement), one of the survivor; a recurring gift; a pledge.
      const gifts = [
        await donate(duplicate, { received_at: `${YEAR}-06-01T12:00:00Z` }),
        await donate(duplicate),
        await donate(survivor),
      ];
      const recurring = await newRecurringGift(api, church, {
        donor_id: duplicate,
        amount: 2500,
        currency: 'USD',
        fund_id: fundId,
        interval: 'month',
        start_on: '2099-01-01',
      });
      const pledge = await newPledge(api, church, {
        donor_id: duplicate,
        fund_id: fundId,
        amount: 50000,
        currency: 'USD',
        starts_on: `${YEAR}-01-01`,
        ends_on: `${YEAR + 2}-12-31`,
      });
      const run = await api.post<Run>('/v1/statements', as(church, { body: { year: YEAR, donor_ids: [duplicate] } }));
      expect(run.status).toBe(202);
      await waitFor(async () => (await ok<Run>(`/v1/statement-runs/${run.body.id}`)).status === 'done', {
        what: 'the statement run',
        timeout: 20_000,
      });
      const [statement] = (await ok<List<Statement>>(`/v1/statements${qs({ donor_id: duplicate })}`)).data;
      expect(statement.donors.map((x) => x.id)).toEqual([duplicate]);

      // Attendance: both at `shared`, the duplicate alone at `own`; a kiosk check-in of the duplicate.
      const shared = await newEvent(api, church);
      const own = await newEvent(api, church);
      for (const [event_id, member_id] of [
        [shared.id, survivor],
        [shared.id, duplicate],
        [own.id, duplicate],
      ])
        expect((await api.post('/v1/attendance', as(church, { body: { event_id, member_id } }))).status).toBe(201);
      const upcoming = await newUpcomingEvent(api, church);
      const visit = await api.post<CheckIn>(
        '/v1/check-ins',
        as(church, { body: { event_id: upcoming.id, member_ids: [duplicate] } }),
      );
      expect(visit.status).toBe(201);

      // Registrations: both for `sharedReg` (two seats), the duplicate alone for `ownReg`.
      const sharedReg = await newEvent(api, church);
      const ownReg = await newEvent(api, church);
      await newRegistration(api, church, sharedReg.id, { member_id: survivor });
      await newRegistration(api, church, sharedReg.id, { member_id: duplicate });
      await newRegistration(api, church, ownReg.id, { member_id: duplicate });

      // Groups: the duplicate leads `both` where the survivor is a member; the duplicate alone in `theirs`;
      // the survivor leads `ours` where the duplicate is a member.
      const [both, theirs, ours] = [
        await newGroup(api, church),
        await newGroup(api, church),
        await newGroup(api, church),
      ];
      await joinGroup(api, church, both.id, duplicate, { group_role: 'leader' });
      await joinGroup(api, church, both.id, survivor, { group_role: 'member' });
      await joinGroup(api, church, theirs.id, duplicate, { group_role: 'member' });
      await joinGroup(api, church, ours.id, survivor, { group_role: 'leader' });
      await joinGroup(api, church, ours.id, duplicate, { group_role: 'member' });

      // Tags: `common` on both, `extra` on the duplicate only.
      const [common, extra] = [await newTag(api, church), await newTag(api, church)];
      for (const [member, tag] of [
        [survivor, common.id],
        [duplicate, common.id],
        [duplicate, extra.id],
      ])
        expect((await api.put(`/v1/members/${member}/tags/${tag}`, as(church))).status).toBe(200);

      const token = `merge-${randomBytes(8).toString('hex')}`;
      expect(
        (await api.post(`/v1/members/${duplicate}/push-tokens`, as(church, { body: { token, platform: 'ios' } })))
          .status,
      ).toBe(201);
      const prayer = await newPrayerRequest(api, church, { request: 'For the family', member_id: duplicate });

      const answer = await merged(survivor, { duplicate_id: duplicate });
      expect(answer.moved).toEqual({
        donations: 2,
        recurring_gifts: 1,
        pledges: 1,
        statements: 1,
        attendance: 2, // `own` and the check-in's; `shared` was the survivor's already
        check_ins: 1,
        registrations: 1, // `ownReg`; the duplicate's seat at `sharedReg` is freed
        group_memberships: 1, // `theirs`
        tags: 1, // `extra`
        household: 0,
        household_contacts: 1,
        prospects: 1,
        push_tokens: 1,
        prayer_requests: 1,
      });
      expect(answer).toMatchObject({
        id: survivor,
        first_name: 'Ana',
        duplicate_id: duplicate,
        household_id: survivorHome.id,
        household_role: 'head',
        duplicate_household_id: duplicateHome.id,
      });
      expect(answer.tags.map((t) => t.id).sort()).toEqual([common.id, extra.id].sort());

      // Giving.
      expect(ids(await ok<List<Donation>>(`/v1/donations${qs({ donor_id: survivor })}`))).toEqual(ids({ data: gifts }));
      expect(ids(await ok<List<Donation>>(`/v1/members/${survivor}/donations`))).toEqual(ids({ data: gifts }));
      expect((await ok<List<Donation>>(`/v1/donations${qs({ donor_id: duplicate })}`)).data).toEqual([]);
      expect((await ok<RecurringGift>(`/v1/recurring-gifts/${recurring.id}`)).donor_id).toBe(survivor);
      expect((await ok<Pledge>(`/v1/pledges/${pledge.id}`)).donor_id).toBe(survivor);
      const [moved] = (await ok<List<Statement>>(`/v1/statements${qs({ donor_id: survivor })}`)).data;
      expect(moved.id).toBe(statement.id);
      expect(moved.donors.map((x) => x.id)).toEqual([survivor]);

      // Attendance and check-in.
      const attended = await ok<List<Attendance>>(`/v1/members/${survivor}/attendance`);
      expect(attended.data.map((a) => a.event_id).sort()).toEqual([shared.id, own.id, upcoming.id].sort());
      expect((await ok<CalendarEvent>(`/v1/events/${shared.id}`)).attendance_count).toBe(1);
      const checkout = await api.post<CheckoutResponse>(
        `/v1/check-ins/${visit.body.id}/checkout`,
        as(church, { body: { security_code: visit.body.security_code } }),
      );
      expect(checkout.status).toBe(200);
      expect(checkout.body.member_ids).toEqual([survivor]);

      // Registrations.
      const atShared = await ok<List<Registration>>(`/v1/events/${sharedReg.id}/registrations`);
      expect(atShared.data.map((r) => r.member?.id)).toEqual([survivor]);
      expect((await ok<CalendarEvent>(`/v1/events/${sharedReg.id}`)).registration_count).toBe(1);
      const atOwn = await ok<List<Registration>>(`/v1/events/${ownReg.id}/registrations`);
      expect(atOwn.data.map((r) => r.member?.id)).toEqual([survivor]);

      // Groups: one membership per group, leader wins.
      const roster = async (groupId: string) =>
        (await ok<List<GroupMember>>(`/v1/groups/${groupId}/members`)).data.map((m) => [m.id, m.group_role]);
      expect(await roster(both.id)).toEqual([[survivor, 'leader']]);
      expect(await roster(theirs.id)).toEqual([[survivor, 'member']]);
      expect(await roster(ours.id)).toEqual([[survivor, 'leader']]);

      // Tags: the survivor carries both, once; the tag filter finds it alone.
      expect(ids(await ok<List<Member>>(`/v1/members${qs({ tag: common.id })}`))).toEqual([survivor]);
      expect(ids(await ok<List<Member>>(`/v1/members${qs({ tag: extra.id })}`))).toEqual([survivor]);

      // Households: the survivor keeps its own; the duplicate's lost the duplicate, and names the survivor as its contact.
      const theirHome = await ok<Household>(`/v1/households/${duplicateHome.id}`);
      expect(theirHome.members).toEqual([]);
      expect(theirHome.primary_contact_id).toBe(survivor);
      expect((await ok<Household>(`/v1/households/${survivorHome.id}`)).members.map((m) => m.id)).toEqual([survivor]);

      // Prospects, push tokens, prayer requests.
      expect((await ok<Prospect>(`/v1/prospects/${s.prospect}`)).member_id).toBe(survivor);
      expect((await ok<Prospect>(`/v1/prospects/${d.prospect}`)).member_id).toBe(survivor);
      const tokens = await ok<PushTokenList>(`/v1/members/${survivor}/push-tokens`);
      expect(tokens.data.map((t) => t.token_last8)).toEqual([token.slice(-8)]);
      expect((await ok<PrayerRequest>(`/v1/prayer-requests/${prayer.id}`)).member?.id).toBe(survivor);
      expect(ids(await ok<List<PrayerRequest>>(`/v1/prayer-requests${qs({ member_id: survivor })}`))).toEqual([
        prayer.id,
      ]);

      // The duplicate is gone from lists.
      expect(ids(await ok<List<Member>>(`/v1/members${qs({ q: 'Merge' })}`))).not.toContain(duplicate);
    });

    it('fills the survivor’s empty fields from the duplicate (custom fields key by key), and takes its household when it had none', async () => {
      const north = await newCampus(api, church);
      const key = `shirt_${randomBytes(3).toString('hex')}`;
      const flag = `baptized_${randomBytes(3).toString('hex')}`;
      await newCustomField(api, church, { key, label: 'Shirt', type: 'text' });
      await newCustomField(api, church, { key: flag, label: 'Baptized', type: 'boolean' });
      const home = await newHousehold(api, church);
      const survivor = await newMember(api, church, {
        first_name: 'Ana',
        phone: '+5213312345678',
        status: 'member',
        custom_fields: { [key]: 'M' },
      });
      const duplicate = await newMember(api, church, {
        first_name: 'Anita',
        email: 'anita@example.org',
        phone: '+5213399999999',
        birthdate: '1990-01-02',
        gender: 'female',
        status: 'visitor',
        campus: north.key,
        active: false,
        address: { line1: 'Av. Juárez 100', city: 'Guadalajara' },
        custom_fields: { [key]: 'L', [flag]: true },
      });
      await addToHousehold(api, church, home.id, { member_id: duplicate.id, household_role: 'child' });

      const answer = await merged(survivor.id, { duplicate_id: duplicate.id });
      expect(answer).toMatchObject({
        id: survivor.id,
        first_name: 'Ana',
        email: 'anita@example.org',
        phone: '+5213312345678',
        birthdate: '1990-01-02',
        gender: 'female',
        status: 'member',
        campus: { id: north.id, key: north.key, name: north.name },
        active: true,
        address: { line1: 'Av. Juárez 100', city: 'Guadalajara' },
        custom_fields: { [key]: 'M', [flag]: true },
        household_id: home.id,
        household_role: 'child',
        duplicate_household_id: home.id,
        created_at: survivor.created_at,
      });
      expect(answer.moved.household).toBe(1);
      expect(answer.updated_at > survivor.updated_at).toBe(true);
      const { duplicate_id, duplicate_household_id, moved, ...member } = answer;
      expect([duplicate_id, duplicate_household_id, moved.household]).toEqual([duplicate.id, home.id, 1]);
      expect(await ok<Member>(`/v1/members/${survivor.id}`)).toEqual(member);
      expect((await ok<Household>(`/v1/households/${home.id}`)).members.map((m) => [m.id, m.household_role])).toEqual([
        [survivor.id, 'child'],
      ]);
    });

    it('`prefer` picks the duplicate’s value (or keeps the survivor’s, even empty) field by field', async () => {
      const key = `size_${randomBytes(3).toString('hex')}`;
      await newCustomField(api, church, { key, label: 'Size', type: 'text' });
      const [homeA, homeB] = [await newHousehold(api, church), await newHousehold(api, church)];
      const survivor = await newMember(api, church, {
        first_name: 'Ana',
        phone: '+5213312345678',
        custom_fields: { [key]: 'M' },
      });
      const duplicate = await newMember(api, church, {
        first_name: 'Anita',
        email: 'anita.prefer@example.org',
        phone: '+5213399999999',
        status: 'leader',
        custom_fields: { [key]: 'L' },
      });
      await addToHousehold(api, church, homeA.id, { member_id: survivor.id, household_role: 'head' });
      await addToHousehold(api, church, homeB.id, { member_id: duplicate.id, household_role: 'adult' });
      const answer = await merged(survivor.id, {
        duplicate_id: duplicate.id,
        prefer: {
          first_name: 'duplicate',
          phone: 'duplicate',
          status: 'duplicate',
          email: 'survivor',
          birthdate: 'duplicate', // the duplicate has none: the survivor's (none) stays
          custom_fields: 'duplicate',
          household_id: 'duplicate',
        },
      });
      expect(answer).toMatchObject({
        first_name: 'Anita',
        phone: '+5213399999999',
        status: 'leader',
        email: null,
        birthdate: null,
        custom_fields: { [key]: 'L' },
        household_id: homeB.id,
        household_role: 'adult',
        duplicate_household_id: homeB.id,
      });
      expect(answer.moved.household).toBe(1);
      expect((await ok<Household>(`/v1/households/${homeA.id}`)).members).toEqual([]);
    });

    it('`prefer` takes the member fields only, each `survivor` or `duplicate` (422 validation_failed, nothing merged)', async () => {
      const survivor = await newMember(api, church);
      const duplicate = await newMember(api, church);
      const res = await merge(survivor.id, {
        duplicate_id: duplicate.id,
        prefer: { nickname: 'duplicate', email: 'theirs' },
      });
      expectProblem(res, 422, 'validation_failed');
      expect(issuesOf(res.body).sort((a, b) => a.field.localeCompare(b.field))).toEqual([
        { field: 'prefer.email', issue: 'one_of' },
        { field: 'prefer.nickname', issue: 'unknown_field' },
      ]);
      expectProblem(await merge(survivor.id, { prefer: {} }), 422, 'validation_failed');
      expectProblem(await merge(survivor.id, { duplicate_id: 'nope' }), 422, 'validation_failed');
      expect((await api.get(`/v1/members/${duplicate.id}`, as(church))).status).toBe(200);
    });

    it('raises member.merged (the survivor and duplicate_id) and member.deleted (the duplicate as it was)', async () => {
      const survivor = await newMember(api, church, { first_name: 'Eva' });
      const duplicate = await newMember(api, church, { first_name: 'Evita', email: 'evita@example.org' });
      const tag = await newTag(api, church);
      await api.put(`/v1/members/${duplicate.id}/tags/${tag.id}`, as(church));
      const answer = await merged(survivor.id, { duplicate_id: duplicate.id });

      const [data] = (
        await api.db.platform.query<{ data: { object: Member; duplicate_id: string } }[]>(
          `SELECT payload->'data' AS data FROM webhook_events
            WHERE tenant_id = $1 AND type = 'member.merged' AND payload->'data'->'object'->>'id' = $2`,
          [church.id, survivor.id],
        )
      ).map((r) => r.data);
      const { moved: _moved, duplicate_household_id: _home, duplicate_id: _dup, ...survivorAfter } = answer;
      expect(data).toEqual({ object: survivorAfter, duplicate_id: duplicate.id });
      expect(data.object.email).toBe('evita@example.org');
      const [deleted] = await outboxObjects<Member>(api, church, 'member.deleted', duplicate.id);
      expect(deleted).toMatchObject({
        id: duplicate.id,
        first_name: 'Evita',
        email: 'evita@example.org',
        tags: [{ id: tag.id, name: tag.name }],
      });
      expect(deleted.updated_at).toBe(answer.updated_at);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('the duplicate’s id afterwards', () => {
    it('GET answers 301 member_merged with Location and merged_into naming the survivor', async () => {
      const survivor = await newMember(api, church);
      const duplicate = await newMember(api, church);
      await merged(survivor.id, { duplicate_id: duplicate.id });
      const res = await api.get<Problem>(`/v1/members/${duplicate.id}`, as(church, { lang: 'en' }));
      expectProblem(res, 301, 'member_merged');
      expect(res.headers.location).toBe(`/v1/members/${survivor.id}`);
      expect(res.body).toMatchObject({ status: 301, merged_into: survivor.id, title: 'Member merged' });
      expect(res.body.detail).toContain(survivor.id);
      const es = await api.get<Problem>(`/v1/members/${duplicate.id}`, as(church));
      expect(es.body).toMatchObject({ code: 'member_merged', title: 'Miembro fusionado', merged_into: survivor.id });
      // The survivor is read as ever.
      expect((await api.get<Member>(res.headers.location, as(church))).body.id).toBe(survivor.id);
    });

    it('writes that name the duplicate land on the survivor, and the answer shows the survivor', async () => {
      const survivor = await newMember(api, church, { first_name: 'Luz' });
      const duplicate = await newMember(api, church, { first_name: 'Lucía' });
      await merged(survivor.id, { duplicate_id: duplicate.id });

      const gift = await donate(duplicate.id);
      expect(gift.donor).toEqual({ id: survivor.id, first_name: 'Luz' });
      expect(ids(await ok<List<Donation>>(`/v1/donations${qs({ donor_id: survivor.id })}`))).toEqual([gift.id]);

      const event = await newEvent(api, church);
      const registration = await newRegistration(api, church, event.id, { member_id: duplicate.id });
      expect(registration.member?.id).toBe(survivor.id);
      // The survivor is now registered: naming either is the same person.
      const again = await api.post<Problem>(
        `/v1/events/${event.id}/registrations`,
        as(church, { body: { member_id: survivor.id } }),
      );
      expectProblem(again, 409, 'conflict');

      const tag = await newTag(api, church);
      const tagged = await api.put<Member>(`/v1/members/${duplicate.id}/tags/${tag.id}`, as(church));
      expect(tagged.status).toBe(200);
      expect(tagged.body.id).toBe(survivor.id);
      expect(tagged.body.tags).toEqual([{ id: tag.id, name: tag.name }]);

      const patched = await api.patch<Member>(
        `/v1/members/${duplicate.id}`,
        as(church, { body: { phone: '+5213311112222' } }),
      );
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ id: survivor.id, first_name: 'Luz', phone: '+5213311112222' });
      expect((await ok<Member>(`/v1/members/${survivor.id}`)).phone).toBe('+5213311112222');
      expect((await api.delete(`/v1/members/${duplicate.id}/tags/${tag.id}`, as(church))).status).toBe(204);
      expect((await ok<Member>(`/v1/members/${survivor.id}`)).tags).toEqual([]);
    });

    it('chains collapse: A into B, then B into C: A and B answer C, and writes naming A land on C', async () => {
      const [a, b, c] = [await newMember(api, church), await newMember(api, church), await newMember(api, church)];
      await merged(b.id, { duplicate_id: a.id });
      await merged(c.id, { duplicate_id: b.id });
      for (const gone of [a, b]) {
        const res = await api.get<Problem>(`/v1/members/${gone.id}`, as(church));
        expectProblem(res, 301, 'member_merged');
        expect([res.headers.location, res.body.merged_into]).toEqual([`/v1/members/${c.id}`, c.id]);
      }
      const rows = await api.db.platform.query<{ merged_into: string }[]>(
        'SELECT merged_into FROM members WHERE tenant_id = $1 AND id = ANY($2::uuid[])',
        [
          church.id,
          [a.id, b.id].map((id) => id.slice(4).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5')),
        ],
      );
      expect(new Set(rows.map((r) => r.merged_into.replace(/-/g, '')))).toEqual(new Set([c.id.slice(4)]));
      expect((await donate(a.id)).donor?.id).toBe(c.id);
      // A merged member's survivor deleted since: not found.
      expect((await api.delete(`/v1/members/${c.id}`, as(church))).status).toBe(204);
      expectProblem(await api.get(`/v1/members/${a.id}`, as(church)), 404, 'resource_not_found');
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('every write naming the duplicate lands on the survivor (CONTRACT §17)', () => {
    /** A survivor and a duplicate merged into it (public ids). */
    async function mergedPair(): Promise<{ survivor: string; duplicate: string }> {
      const survivor = (await newMember(api, church, { first_name: 'Rosa', last_name: 'Superviviente' })).id;
      const duplicate = (await newMember(api, church, { first_name: 'Rosita', last_name: 'Duplicada' })).id;
      await merged(survivor, { duplicate_id: duplicate });
      return { survivor, duplicate };
    }

    it('POST /v1/attendance', async () => {
      const { survivor, duplicate } = await mergedPair();
      const event = await newEvent(api, church);
      const res = await api.post<Attendance>(
        '/v1/attendance',
        as(church, { body: { event_id: event.id, member_id: duplicate } }),
      );
      expect(res.status).toBe(201);
      expect(res.body.member_id).toBe(survivor);
      expect(ids(await ok<List<Attendance>>(`/v1/members/${survivor}/attendance`))).toEqual([res.body.id]);
      // Naming the survivor now is the same person at the same event.
      const again = await api.post<Problem>(
        '/v1/attendance',
        as(church, { body: { event_id: event.id, member_id: survivor } }),
      );
      expectProblem(again, 409, 'conflict');
    });

    it('POST /v1/attendance/bulk', async () => {
      const { survivor, duplicate } = await mergedPair();
      const event = await newEvent(api, church);
      const res = await api.post<{ results: { index: number; id?: string; error?: { code: string } }[] }>(
        '/v1/attendance/bulk',
        as(church, { body: { attendance: [{ event_id: event.id, member_id: duplicate }] } }),
      );
      expect(res.status).toBe(200);
      expect(res.body.results).toEqual([{ index: 0, id: expect.stringMatching(/^att_/) }]);
      expect((await ok<Attendance>(`/v1/attendance/${res.body.results[0].id}`)).member_id).toBe(survivor);
    });

    it('POST /v1/check-ins', async () => {
      const { survivor, duplicate } = await mergedPair();
      const event = await newUpcomingEvent(api, church);
      const res = await api.post<CheckIn>(
        '/v1/check-ins',
        as(church, { body: { event_id: event.id, member_ids: [duplicate, survivor] } }),
      );
      expect(res.status).toBe(201);
      // Both ids are one person: one label, the survivor's.
      expect(res.body.labels.map((l) => [l.member_id, l.first_name])).toEqual([[survivor, 'Rosa']]);
      const attendance = await ok<List<Attendance>>(`/v1/events/${event.id}/attendance`);
      expect(attendance.data.map((a) => a.member_id)).toEqual([survivor]);
    });

    it('PUT and DELETE /v1/groups/{id}/members/{member_id}', async () => {
      const { survivor, duplicate } = await mergedPair();
      const group = await newGroup(api, church);
      const joined = await api.put<GroupMember>(
        `/v1/groups/${group.id}/members/${duplicate}`,
        as(church, { body: { group_role: 'leader' } }),
      );
      expect(joined.status).toBe(200);
      expect([joined.body.id, joined.body.group_role]).toEqual([survivor, 'leader']);
      expect(ids(await ok<List<GroupMember>>(`/v1/groups/${group.id}/members`))).toEqual([survivor]);
      expect((await api.delete(`/v1/groups/${group.id}/members/${duplicate}`, as(church))).status).toBe(204);
      expect(ids(await ok<List<GroupMember>>(`/v1/groups/${group.id}/members`))).toEqual([]);
    });

    it('POST /v1/groups/{id}/multiply', async () => {
      const { survivor, duplicate } = await mergedPair();
      const leader = await newMember(api, church);
      const group = await newGroup(api, church);
      await joinGroup(api, church, group.id, survivor);
      await joinGroup(api, church, group.id, leader.id, { group_role: 'leader' });
      const res = await api.post<{ id: string }>(
        `/v1/groups/${group.id}/multiply`,
        as(church, { body: { name: `Hija ${randomUUID()}`, member_ids: [duplicate], leader_id: leader.id } }),
      );
      expect(res.status).toBe(201);
      expect(ids(await ok<List<GroupMember>>(`/v1/groups/${res.body.id}/members`))).toEqual(
        [leader.id, survivor].sort(),
      );
    });

    it('POST and DELETE /v1/households/{id}/members, and a household’s primary_contact_id', async () => {
      const { survivor, duplicate } = await mergedPair();
      const home = await newHousehold(api, church, { primary_contact_id: duplicate });
      expect(home.primary_contact_id).toBe(survivor);
      const added = await api.post<Household>(
        `/v1/households/${home.id}/members`,
        as(church, { body: { member_id: duplicate, household_role: 'head' } }),
      );
      expect(added.status).toBe(200);
      expect(added.body.members.map((m) => [m.id, m.household_role])).toEqual([[survivor, 'head']]);
      const patched = await api.patch<Household>(
        `/v1/households/${home.id}`,
        as(church, { body: { primary_contact_id: duplicate } }),
      );
      expect([patched.status, patched.body.primary_contact_id]).toEqual([200, survivor]);
      expect((await api.delete(`/v1/households/${home.id}/members/${duplicate}`, as(church))).status).toBe(204);
      expect((await ok<Household>(`/v1/households/${home.id}`)).members).toEqual([]);
    });

    it('POST /v1/pledges', async () => {
      const { survivor, duplicate } = await mergedPair();
      const res = await api.post<Pledge>(
        '/v1/pledges',
        as(church, {
          body: {
            donor_id: duplicate,
            fund_id: fundId,
            amount: 10000,
            currency: 'USD',
            starts_on: `${YEAR}-01-01`,
            ends_on: `${YEAR + 1}-12-31`,
          },
        }),
      );
      expect(res.status).toBe(201);
      expect(res.body.donor_id).toBe(survivor);
    });

    it('POST /v1/recurring-gifts', async () => {
      const { survivor, duplicate } = await mergedPair();
      const res = await api.post<RecurringGift>(
        '/v1/recurring-gifts',
        as(church, {
          body: {
            donor_id: duplicate,
            amount: 2500,
            currency: 'USD',
            fund_id: fundId,
            interval: 'month',
            start_on: '2099-01-01',
          },
        }),
      );
      expect(res.status).toBe(201);
      expect(res.body.donor_id).toBe(survivor);
    });

    it('POST and PATCH /v1/prayer-requests (member_id)', async () => {
      const { survivor, duplicate } = await mergedPair();
      const res = await api.post<PrayerRequest>(
        '/v1/prayer-requests',
        as(church, { body: { request: 'Por la familia', member_id: duplicate } }),
      );
      expect(res.status).toBe(201);
      expect(res.body.member?.id).toBe(survivor);
      const other = await newPrayerRequest(api, church, { request: 'Por el viaje', name: 'Alguien' });
      const patched = await api.patch<PrayerRequest>(
        `/v1/prayer-requests/${other.id}`,
        as(church, { body: { member_id: duplicate } }),
      );
      expect([patched.status, patched.body.member?.id]).toEqual([200, survivor]);
    });

    it('POST and DELETE /v1/members/{id}/push-tokens', async () => {
      const { survivor, duplicate } = await mergedPair();
      const res = await api.post<{ id: string; member_id: string }>(
        `/v1/members/${duplicate}/push-tokens`,
        as(church, { body: { token: `merged-${randomBytes(8).toString('hex')}`, platform: 'android' } }),
      );
      expect(res.status).toBe(201);
      expect(res.body.member_id).toBe(survivor);
      expect((await ok<PushTokenList>(`/v1/members/${survivor}/push-tokens`)).data.map((t) => t.id)).toEqual([
        res.body.id,
      ]);
      expect((await api.delete(`/v1/members/${duplicate}/push-tokens/${res.body.id}`, as(church))).status).toBe(204);
      expect((await ok<PushTokenList>(`/v1/members/${survivor}/push-tokens`)).data).toEqual([]);
    });

    it('POST /v1/notifications (audience.member_ids)', async () => {
      const { survivor, duplicate } = await mergedPair();
      const sent = await api.post<Notification>(
        '/v1/notifications',
        as(church, {
          body: { title: 'Hola', body: 'Merged', channels: ['email'], audience: { member_ids: [duplicate, survivor] } },
        }),
      );
      expect(sent.status).toBe(202);
      expect(sent.body.audience).toEqual({ member_ids: [survivor] });
      const done = await waitFor(
        async () => {
          const n = await ok<Notification>(`/v1/notifications/${sent.body.id}`);
          return n.recipients !== null ? n : null;
        },
        { what: 'the notification audience', timeout: 20_000 },
      );
      expect(done.recipients).toBe(1);
    });

    it('POST /v1/statements (donor_ids)', async () => {
      const { survivor, duplicate } = await mergedPair();
      const run = await api.post<Run>('/v1/statements', as(church, { body: { year: YEAR, donor_ids: [duplicate] } }));
      expect(run.status).toBe(202);
      expect(run.body.donor_ids).toEqual([survivor]);
    });

    it('GET /v1/members/{duplicate}/donations, /attendance and /push-tokens: 301 member_merged to the survivor’s', async () => {
      const { survivor, duplicate } = await mergedPair();
      for (const sub of ['donations', 'attendance', 'push-tokens']) {
        const res = await api.get<Problem>(`/v1/members/${duplicate}/${sub}`, as(church));
        expectProblem(res, 301, 'member_merged');
        expect([res.headers.location, res.body.merged_into]).toEqual([`/v1/members/${survivor}/${sub}`, survivor]);
        expect((await api.get(res.headers.location, as(church))).status).toBe(200);
      }
      const unknown = `mem_${randomUUID().replace(/-/g, '')}`;
      expectProblem(await api.get(`/v1/members/${unknown}/donations`, as(church)), 404, 'resource_not_found');
    });

    it('a write naming the duplicate while the merge runs lands on the survivor, never on the deleted duplicate', async () => {
      for (let round = 0; round < 5; round++) {
        const survivor = (await newMember(api, church)).id;
        const duplicate = (await newMember(api, church)).id;
        const event = await newEvent(api, church);
        const [merge_, write] = await Promise.all([
          merge(survivor, { duplicate_id: duplicate }),
          api.post<Attendance>('/v1/attendance', as(church, { body: { event_id: event.id, member_id: duplicate } })),
        ]);
        expect([merge_.status, write.status]).toEqual([200, 201]);
        // Either order: the write came first and the merge moved it, or the write waited and followed it.
        expect((await ok<Attendance>(`/v1/attendance/${write.body.id}`)).member_id).toBe(survivor);
        const onDuplicate = await api.db.platform.query<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM attendance WHERE tenant_id = $1 AND replace(member_id::text, '-', '') = $2`,
          [church.id, duplicate.slice(4)],
        );
        expect(onDuplicate[0].n).toBe(0);
      }
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('a write naming the duplicate while its merge holds the members waits and follows it', () => {
    const uuidOf = (publicId: string) =>
      publicId.slice(4).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

    /**
     * Holds both members as a merge does (FOR UPDATE), sends `write`, waits until it queues on
     * that lock, then commits what the merge writes (the duplicate deleted and merged into the
     * survivor, plus `moves`) and returns the write's answer. A write that read the duplicate
     * without a lock would not wait, and would land on the duplicate.
     */
    async function duringMerge<T>(
      pair: { survivor: string; duplicate: string },
      write: () => Promise<T>,
      moves: (tx: Client, ids: { survivor: string; duplicate: string }) => Promise<unknown> = async () => undefined,
    ): Promise<T> {
      const tx = new Client({ connectionString: process.env.DATABASE_URL, application_name: 'merge-in-test' });
      await tx.connect();
      try {
        const ids = { survivor: uuidOf(pair.survivor), duplicate: uuidOf(pair.duplicate) };
        await tx.query('BEGIN');
        await tx.query(`SELECT id FROM members WHERE tenant_id = $1 AND id = ANY($2::uuid[]) ORDER BY id FOR UPDATE`, [
          church.id,
          [ids.survivor, ids.duplicate],
        ]);
        const answer = write();
        await waitFor(
          async () =>
            (
              await tx.query<{ n: number }>(
                `SELECT count(*)::int AS n FROM pg_stat_activity
                  WHERE datname = current_database() AND application_name <> 'merge-in-test' AND wait_event_type = 'Lock'`,
              )
            ).rows[0].n === 1,
          { what: 'the write to wait on the merge’s lock on the members', timeout: 5_000 },
        );
        await tx.query(`UPDATE members SET deleted_at = now(), merged_into = $2 WHERE tenant_id = $1 AND id = $3`, [
          church.id,
          ids.survivor,
          ids.duplicate,
        ]);
        await moves(tx, ids);
        await tx.query('COMMIT');
        return await answer;
      } finally {
        await tx.end();
      }
    }

    const livePair = async () => ({
      survivor: (await newMember(api, church, { first_name: 'Rosa', last_name: 'Superviviente' })).id,
      duplicate: (await newMember(api, church, { first_name: 'Rosita', last_name: 'Duplicada' })).id,
    });

    it('DELETE /v1/members/{id}/push-tokens/{token_id}', async () => {
      const pair = await livePair();
      const token = await api.post<{ id: string }>(
        `/v1/members/${pair.duplicate}/push-tokens`,
        as(church, { body: { token: `race-${randomBytes(8).toString('hex')}`, platform: 'ios' } }),
      );
      const res = await duringMerge(
        pair,
        () => api.delete(`/v1/members/${pair.duplicate}/push-tokens/${token.body.id}`, as(church)),
        (tx, ids) =>
          tx.query(`UPDATE member_push_tokens SET member_id = $1 WHERE member_id = $2`, [ids.survivor, ids.duplicate]),
      );
      expect(res.status).toBe(204);
      expect((await ok<PushTokenList>(`/v1/members/${pair.survivor}/push-tokens`)).data).toEqual([]);
    });

    it('DELETE /v1/households/{id}/members/{member_id}', async () => {
      const pair = await livePair();
      const home = await newHousehold(api, church);
      await addToHousehold(api, church, home.id, { member_id: pair.duplicate, household_role: 'spouse' });
      const res = await duringMerge(
        pair,
        () => api.delete(`/v1/households/${home.id}/members/${pair.duplicate}`, as(church)),
        // The merge gives the survivor (who had none) the duplicate's household.
        (tx, ids) =>
          tx.query(
            `UPDATE members m SET household_id = d.household_id, household_role = d.household_role
               FROM members d WHERE m.id = $1 AND d.id = $2`,
            [ids.survivor, ids.duplicate],
          ),
      );
      expect(res.status).toBe(204);
      expect((await ok<Household>(`/v1/households/${home.id}`)).members).toEqual([]);
    });

    it('POST /v1/notifications (audience.member_ids)', async () => {
      const pair = await livePair();
      const sent = await duringMerge(pair, () =>
        api.post<Notification>(
          '/v1/notifications',
          as(church, {
            body: { title: 'Hola', body: 'Carrera', channels: ['email'], audience: { member_ids: [pair.duplicate] } },
          }),
        ),
      );
      expect([sent.status, sent.body.audience]).toEqual([202, { member_ids: [pair.survivor] }]);
    });

    it('POST /v1/statements (donor_ids)', async () => {
      const pair = await livePair();
      const run = await duringMerge(pair, () =>
        api.post<Run>('/v1/statements', as(church, { body: { year: YEAR, donor_ids: [pair.duplicate] } })),
      );
      expect([run.status, run.body.donor_ids]).toEqual([202, [pair.survivor]]);
    });

    it('POST /v1/events/{id}/registrations (member_id)', async () => {
      const pair = await livePair();
      const event = await newUpcomingEvent(api, church, { registration_open: true });
      const registered = await duringMerge(pair, () =>
        api.post<Registration>(
          `/v1/events/${event.id}/registrations`,
          as(church, { body: { member_id: pair.duplicate } }),
        ),
      );
      expect([registered.status, registered.body.member?.id]).toEqual([201, pair.survivor]);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('merges that cannot be', () => {
    it('into itself, into a deleted member, a deleted or merged duplicate, across churches: 422 merge_invalid, nothing changed', async () => {
      const member = await newMember(api, church);
      const deleted = await newMember(api, church);
      expect((await api.delete(`/v1/members/${deleted.id}`, as(church))).status).toBe(204);
      const gone = await newMember(api, church);
      const kept = await newMember(api, church);
      await merged(kept.id, { duplicate_id: gone.id });
      const theirs = await newMember(api, other);
      const gift = await donate(member.id);

      const cases: [string, string, string][] = [
        ['itself', member.id, member.id],
        ['into a deleted member', deleted.id, member.id],
        ['into a merged member', gone.id, member.id],
        ['a deleted duplicate', member.id, deleted.id],
        ['a merged duplicate', member.id, gone.id],
        ['another church’s duplicate', member.id, theirs.id],
        ['into another church’s member', theirs.id, member.id],
        ['an unknown duplicate', member.id, `mem_${randomUUID().replace(/-/g, '')}`],
      ];
      for (const [label, survivor, duplicate] of cases) {
        const res = await merge(survivor, { duplicate_id: duplicate });
        expect({ label, status: res.status, code: res.body.code }).toEqual({
          label,
          status: 422,
          code: 'merge_invalid',
        });
      }
      expect((await ok<Member>(`/v1/members/${member.id}`)).id).toBe(member.id);
      expect((await ok<Member>(`/v1/members/${theirs.id}`, other)).id).toBe(theirs.id);
      expect((await ok<Donation>(`/v1/donations/${gift.id}`)).donor?.id).toBe(member.id);
      expectProblem(await merge(`mem_${'x'.repeat(32)}`, { duplicate_id: member.id }), 404, 'resource_not_found');
    });

    it('needs write:members', async () => {
      const { token } = await newToken(api, church, ['read:members', 'write:donations']);
      const [a, b] = [await newMember(api, church), await newMember(api, church)];
      const res = await api.post<Problem>(
        `/v1/members/${a.id}/merge`,
        as(token, church, { body: { duplicate_id: b.id } }),
      );
      expectProblem(res, 403, 'scope_insufficient');
    });

    it('an Idempotency-Key replays the merge’s answer instead of a 422', async () => {
      const [a, b] = [await newMember(api, church), await newMember(api, church)];
      const key = randomUUID();
      const first = await merge(a.id, { duplicate_id: b.id }, church, { 'Idempotency-Key': key });
      const replay = await merge(a.id, { duplicate_id: b.id }, church, { 'Idempotency-Key': key });
      expect([first.status, replay.status, replay.headers['idempotent-replayed']]).toEqual([200, 200, 'true']);
      expect(replay.body).toEqual(first.body);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('merges at once', () => {
    it('the same merge twice at once: one 200, one 422, everything moved once', async () => {
      for (let round = 0; round < 3; round++) {
        const [a, b] = [await newMember(api, church), await newMember(api, church)];
        await donate(b.id);
        await donate(b.id);
        await donate(a.id);
        const before = await donationsPerDonor(church, [a.id, b.id]);
        expect(before).toEqual({ [a.id]: 1, [b.id]: 2 });
        const answers = await Promise.all([merge(a.id, { duplicate_id: b.id }), merge(a.id, { duplicate_id: b.id })]);
        expect(answers.map((r) => [r.status, r.body.code ?? null]).sort()).toEqual([
          [200, null],
          [422, 'merge_invalid'],
        ]);
        expect(answers.find((r) => r.status === 200)!.body.moved.donations).toBe(2);
        expect(await donationsPerDonor(church, [a.id, b.id])).toEqual({ [a.id]: 3, [b.id]: 0 });
      }
    });

    it('A into B and B into A at once: one survives with everything, the other is merged into it', async () => {
      for (let round = 0; round < 3; round++) {
        const [a, b] = [await newMember(api, church), await newMember(api, church)];
        await donate(a.id);
        await donate(b.id);
        await donate(b.id);
        const tag = await newTag(api, church);
        await api.put(`/v1/members/${a.id}/tags/${tag.id}`, as(church));
        const answers = await Promise.all([merge(b.id, { duplicate_id: a.id }), merge(a.id, { duplicate_id: b.id })]);
        expect(answers.map((r) => r.status).sort()).toEqual([200, 422]);
        const winner = answers.find((r) => r.status === 200)!.body;
        const loser = winner.duplicate_id;
        expect(answers.find((r) => r.status === 422)!.body.code).toBe('merge_invalid');
        expect(await donationsPerDonor(church, [a.id, b.id])).toEqual({ [winner.id]: 3, [loser]: 0 });
        expect(winner.tags).toEqual([{ id: tag.id, name: tag.name }]);
        const res = await api.get<Problem>(`/v1/members/${loser}`, as(church));
        expect([res.status, res.body.merged_into]).toEqual([301, winner.id]);
        expect((await ok<Member>(`/v1/members/${winner.id}`)).id).toBe(winner.id);
      }
    });

    it('a chain built at once (A into B, B into C): every merged id answers the last survivor', async () => {
      for (let round = 0; round < 3; round++) {
        const [a, b, c] = [await newMember(api, church), await newMember(api, church), await newMember(api, church)];
        const [aIntoB, bIntoC] = await Promise.all([
          merge(b.id, { duplicate_id: a.id }),
          merge(c.id, { duplicate_id: b.id }),
        ]);
        expect(bIntoC.status).toBe(200);
        const bAnswer = await api.get<Problem>(`/v1/members/${b.id}`, as(church));
        expect([bAnswer.status, bAnswer.body.merged_into]).toEqual([301, c.id]);
        const aAnswer = await api.get<Problem>(`/v1/members/${a.id}`, as(church));
        if (aIntoB.status === 200) {
          // A into B ran first: B's merge into C took A along.
          expect([aAnswer.status, aAnswer.body.merged_into]).toEqual([301, c.id]);
        } else {
          // B into C ran first: A into B then found B merged, and A stayed.
          expect([aIntoB.status, aIntoB.body.code, aAnswer.status]).toEqual([422, 'merge_invalid', 200]);
        }
      }
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('what reads the members who are left', () => {
    it('check-in search, tag deletes and notification audiences see the survivor only', async () => {
      const last4 = String(1000 + (randomBytes(2).readUInt16BE() % 9000));
      const home = await newHousehold(api, church, { name: `Casa ${last4}` });
      const survivor = await newMember(api, church, { first_name: 'Olga', phone: `+5213300${last4}` });
      const duplicate = await newMember(api, church, { first_name: 'Olguita' });
      await addToHousehold(api, church, home.id, { member_id: survivor.id, household_role: 'head' });
      const event = await newUpcomingEvent(api, church);
      expect(
        (await api.post('/v1/check-ins', as(church, { body: { event_id: event.id, member_ids: [duplicate.id] } })))
          .status,
      ).toBe(201);
      const tag = await newTag(api, church);
      for (const m of [survivor, duplicate]) await api.put(`/v1/members/${m.id}/tags/${tag.id}`, as(church));
      await merged(survivor.id, { duplicate_id: duplicate.id });

      const search = await ok<{ data: SearchHousehold[] }>(
        `/v1/check-in/search${qs({ event_id: event.id, phone_last4: last4 })}`,
      );
      expect(search.data.find((h) => h.id === home.id)?.members.map((m) => [m.id, m.checked_in])).toEqual([
        [survivor.id, true],
      ]);

      const sent = await api.post<Notification>(
        '/v1/notifications',
        as(church, { body: { title: 'Hola', body: 'Merge test', channels: ['email'], audience: { tag: tag.id } } }),
      );
      expect(sent.status).toBe(202);
      const done = await waitFor(
        async () => {
          const n = await ok<Notification>(`/v1/notifications/${sent.body.id}`);
          return n.recipients !== null ? n : null;
        },
        { what: 'the notification audience', timeout: 20_000 },
      );
      expect(done.recipients).toBe(1);

      expect((await api.delete(`/v1/tags/${tag.id}`, as(church))).status).toBe(204);
      expect((await ok<Member>(`/v1/members/${survivor.id}`)).tags).toEqual([]);
    });
  });
});
