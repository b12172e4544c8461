import { Client } from 'pg';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import { MembersRepository } from '../../src/modules/members/members.repository';
import { JsonObject, TestApi } from '../support/api';
import { addToHousehold, newHousehold, newMember, newTenant, newToken, TestTenant } from '../support/factories';
import { as, issuesOf, itRefusesBadListParams, qs, sortedIssuesOf } from '../support/http';
import type {
  HouseholdMemberRef as HouseholdMember,
  HouseholdResponse as Household,
} from '../../src/modules/households/dto/household.response';
import type {
  BulkCreateMembersResponse as BulkResult,
  MemberResponse as Member,
} from '../../src/modules/members/dto/member.response';

// ---------------------------------------------------------------------------------------------
// Types and small helpers
// ---------------------------------------------------------------------------------------------

const HOUSEHOLD_ID = /^hh_[0-9a-f]{32}$/;
const UTC_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const NO_HOUSEHOLD = `hh_${'0'.repeat(32)}`;
const NO_MEMBER = `mem_${'0'.repeat(32)}`;

const uuidOf = (publicId: string) =>
  publicId.slice(publicId.indexOf('_') + 1).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
const ref = (m: Member, household_role: HouseholdMember['household_role']): HouseholdMember => ({
  id: m.id,
  first_name: m.first_name,
  last_name: m.last_name,
  household_role,
});

describe('households', () => {
  let api: TestApi;
  let pg: Client;

  beforeAll(async () => {
    api = await TestApi.start();
    pg = new Client({ connectionString: process.env.DATABASE_URL });
    await pg.connect();
  });
  afterAll(async () => {
    await pg?.end();
    await api?.close();
  });

  async function getMember(church: TestTenant, id: string): Promise<Member> {
    return (await api.get<Member>(`/v1/members/${id}`, as(church))).body;
  }

  async function getHousehold(church: TestTenant, id: string): Promise<Household> {
    const res = await api.get<Household>(`/v1/households/${id}`, as(church));
    if (res.status !== 200) throw new Error(`get household failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** The member.updated objects of one member, oldest first, straight from the outbox. */
  async function updatesOf(church: TestTenant, memberId: string): Promise<Member[]> {
    const { rows } = await pg.query<{ payload: { data: { object: Member } } }>(
      `SELECT payload FROM webhook_events WHERE tenant_id = $1 AND type = 'member.updated' AND payload->'data'->'object'->>'id' = $2 ORDER BY id`,
      [church.id, memberId],
    );
    return rows.map((r) => r.payload.data.object);
  }

  // -------------------------------------------------------------------------------------------
  describe('POST /v1/households and GET /v1/households/{id}', () => {
    let church: TestTenant;

    beforeAll(async () => {
      church = await newTenant(api);
    });

    it('creates a household: 201, Location, hh_ id, fields echoed, no members yet; GET answers it with an ETag', async () => {
      const contact = await newMember(api, church, { first_name: 'María', last_name: 'González' });
      const address = {
        line1: 'Av. Juárez 100',
        line2: null,
        city: 'Guadalajara',
        region: 'Jalisco',
        postal_code: '44100',
        country: 'MX',
      };
      const res = await api.post<Household>(
        '/v1/households',
        as(church, { body: { name: '  Familia González ', address, primary_contact_id: contact.id } }),
      );

      expect(res.status).toBe(201);
      expect(res.body.id).toMatch(HOUSEHOLD_ID);
      expect(res.headers.location).toBe(`/v1/households/${res.body.id}`);
      expect(res.body).toEqual({
        id: res.body.id,
        name: 'Familia González',
        address,
        primary_contact_id: contact.id,
        members: [],
        created_at: expect.stringMatching(UTC_ISO),
        updated_at: res.body.created_at,
      });

      const fetched = await api.get<Household>(res.headers.location, as(church));
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(res.body);
      expect(fetched.headers.etag).toBeDefined();
      const again = await api.get(
        res.headers.location,
        as(church, { headers: { 'If-None-Match': fetched.headers.etag } }),
      );
      expect(again.status).toBe(304);
    });

    it('defaults address and primary_contact_id to null', async () => {
      const household = await newHousehold(api, church, { name: 'Ruiz' });
      expect(household).toMatchObject({ name: 'Ruiz', address: null, primary_contact_id: null, members: [] });
    });

    it('honours Idempotency-Key: a retry returns the same household, created once', async () => {
      const key = '6f1c2b9e-3a4d-4e5f-8a7b-9c0d1e2f3a4b';
      const body = { name: 'Idempotent' };
      const first = await api.post<Household>(
        '/v1/households',
        as(church, { body, headers: { 'Idempotency-Key': key } }),
      );
      const second = await api.post<Household>(
        '/v1/households',
        as(church, { body, headers: { 'Idempotency-Key': key } }),
      );
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.body.id).toBe(first.body.id);
      expect((await api.get<List<Household>>(`/v1/households${qs({ q: 'Idempotent' })}`, as(church))).body.total).toBe(
        1,
      );
    });

    it('refuses a bad body with 422 validation_failed naming every field', async () => {
      const res = await api.post<Problem>(
        '/v1/households',
        as(church, { body: { address: { country: 'mex', zip: '1' }, primary_contact_id: 'mem_x', pets: 2 } }),
      );
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(sortedIssuesOf(res.body)).toEqual([
        { field: 'address.country', issue: 'invalid_format' },
        { field: 'address.zip', issue: 'unknown_field' },
        { field: 'name', issue: 'required' },
        { field: 'pets', issue: 'unknown_field' },
        { field: 'primary_contact_id', issue: 'invalid_format' },
      ]);

      const cases: [JsonObject, { field: string; issue: string }][] = [
        [{ name: '' }, { field: 'name', issue: 'too_short' }],
        [{ name: 'x'.repeat(121) }, { field: 'name', issue: 'too_long' }],
        [
          { name: 'A', address: 'Main St' },
          { field: 'address', issue: 'invalid_type' },
        ],
        [
          { name: 'A', primary_contact_id: NO_HOUSEHOLD },
          { field: 'primary_contact_id', issue: 'invalid_format' },
        ],
      ];
      for (const [body, issue] of cases) {
        const bad = await api.post<Problem>('/v1/households', as(church, { body }));
        expect({ body, status: bad.status, errors: issuesOf(bad.body) }).toEqual({
          body,
          status: 422,
          errors: [issue],
        });
      }
    });

    it('refuses a primary_contact_id that is no live member of the church (422 not_found)', async () => {
      const other = await newTenant(api);
      const theirs = await newMember(api, other, { first_name: 'Not', last_name: 'Ours' });
      const gone = await newMember(api, church, { first_name: 'Gone', last_name: 'Away' });
      expect((await api.delete(`/v1/members/${gone.id}`, as(church))).status).toBe(204);
      for (const primary_contact_id of [NO_MEMBER, theirs.id, gone.id]) {
        const res = await api.post<Problem>(
          '/v1/households',
          as(church, { body: { name: 'Nope', primary_contact_id } }),
        );
        expect({ primary_contact_id, status: res.status, errors: issuesOf(res.body) }).toEqual({
          primary_contact_id,
          status: 422,
          errors: [{ field: 'primary_contact_id', issue: 'not_found' }],
        });
      }
      expect((await api.get<List<Household>>(`/v1/households${qs({ q: 'Nope' })}`, as(church))).body.total).toBe(0);
    });

    it('answers unknown and malformed ids with 404 resource_not_found', async () => {
      const household = await newHousehold(api, church, { name: 'Real' });
      for (const id of [NO_HOUSEHOLD, 'hh_123', `mem_${household.id.slice(3)}`, household.id.toUpperCase()]) {
        const res = await api.get<Problem>(`/v1/households/${id}`, as(church));
        expect({ id, status: res.status, code: res.body.code }).toEqual({
          id,
          status: 404,
          code: 'resource_not_found',
        });
      }
    });

    it('shows primary_contact_id as null once that member is deleted', async () => {
      const contact = await newMember(api, church, { first_name: 'Short', last_name: 'Lived' });
      const household = await newHousehold(api, church, { name: 'Contactless', primary_contact_id: contact.id });
      expect(household.primary_contact_id).toBe(contact.id);
      await api.delete(`/v1/members/${contact.id}`, as(church));
      expect((await getHousehold(church, household.id)).primary_contact_id).toBeNull();
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('PATCH /v1/households/{id}', () => {
    let church: TestTenant;

    beforeAll(async () => {
      church = await newTenant(api);
    });

    it('changes any subset; null clears address and primary contact; updated_at advances', async () => {
      const contact = await newMember(api, church, { first_name: 'Ana', last_name: 'Ruiz' });
      const household = await newHousehold(api, church, { name: 'Ruiz', address: { city: 'Lima', country: 'PE' } });
      await new Promise((resolve) => setTimeout(resolve, 15));

      const renamed = await api.patch<Household>(
        `/v1/households/${household.id}`,
        as(church, { body: { name: 'Familia Ruiz', primary_contact_id: contact.id } }),
      );
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({
        ...household,
        name: 'Familia Ruiz',
        primary_contact_id: contact.id,
        updated_at: renamed.body.updated_at,
      });
      expect(Date.parse(renamed.body.updated_at)).toBeGreaterThan(Date.parse(household.updated_at));

      const cleared = await api.patch<Household>(
        `/v1/households/${household.id}`,
        as(church, { body: { address: null, primary_contact_id: null } }),
      );
      expect(cleared.body).toMatchObject({ name: 'Familia Ruiz', address: null, primary_contact_id: null });
      expect(await getHousehold(church, household.id)).toEqual(cleared.body);
    });

    it('refuses a null name, a bad address and an unknown contact with 422 naming the fields, and changes nothing', async () => {
      const household = await newHousehold(api, church, { name: 'Stable' });
      const res = await api.patch<Problem>(
        `/v1/households/${household.id}`,
        as(church, { body: { name: 'Changed', address: { country: 'xx', zip: '1' } } }),
      );
      expect(res.status).toBe(422);
      expect(sortedIssuesOf(res.body)).toEqual([
        { field: 'address.country', issue: 'invalid_format' },
        { field: 'address.zip', issue: 'unknown_field' },
      ]);
      const cleared = await api.patch<Problem>(
        `/v1/households/${household.id}`,
        as(church, { body: { name: null, primary_contact_id: NO_MEMBER } }),
      );
      expect([cleared.status, sortedIssuesOf(cleared.body)]).toEqual([
        422,
        [
          { field: 'name', issue: 'required' },
          { field: 'primary_contact_id', issue: 'not_found' },
        ],
      ]);
      const contact = await api.patch<Problem>(
        `/v1/households/${household.id}`,
        as(church, { body: { name: 'Changed', primary_contact_id: NO_MEMBER } }),
      );
      expect([contact.status, issuesOf(contact.body)]).toEqual([
        422,
        [{ field: 'primary_contact_id', issue: 'not_found' }],
      ]);
      expect(await getHousehold(church, household.id)).toEqual(household);
    });

    it('answers 404 for an unknown id', async () => {
      const res = await api.patch<Problem>(`/v1/households/${NO_HOUSEHOLD}`, as(church, { body: { name: 'X' } }));
      expect([res.status, res.body.code]).toEqual([404, 'resource_not_found']);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('GET /v1/households', () => {
    let church: TestTenant;
    const h: Record<string, Household> = {};
    const m: Record<string, Member> = {};

    beforeAll(async () => {
      church = await newTenant(api);
      h.perez = await newHousehold(api, church, { name: 'Pérez' });
      h.alvarez = await newHousehold(api, church, { name: 'Álvarez' });
      h.castro = await newHousehold(api, church, { name: 'Castro' });
      m.kid = await newMember(api, church, { first_name: 'Kid', last_name: 'Pérez' });
      m.dad = await newMember(api, church, { first_name: 'Juan', last_name: 'Pérez' });
      m.mom = await newMember(api, church, { first_name: 'Rosa', last_name: 'Pérez' });
      m.solo = await newMember(api, church, { first_name: 'Sol', last_name: 'Castro' });
      await addToHousehold(api, church, h.perez.id, { member_id: m.kid.id, household_role: 'child' });
      await addToHousehold(api, church, h.perez.id, { member_id: m.mom.id, household_role: 'spouse' });
      await addToHousehold(api, church, h.perez.id, { member_id: m.dad.id, household_role: 'head' });
      await addToHousehold(api, church, h.castro.id, { member_id: m.solo.id, household_role: 'head' });
    });

    it('lists every household with its members (by role), oldest first', async () => {
      const res = await api.get<List<Household>>('/v1/households', as(church));
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(3);
      expect(res.body.next_cursor).toBeNull();
      expect(res.body.data.map((x) => x.name)).toEqual(['Pérez', 'Álvarez', 'Castro']);
      expect(res.body.data[0].members).toEqual([ref(m.dad, 'head'), ref(m.mom, 'spouse'), ref(m.kid, 'child')]);
      expect(res.body.data[1].members).toEqual([]);
      expect(res.body.data[2].members).toEqual([ref(m.solo, 'head')]);
      expect(res.body.data[0]).toEqual(await getHousehold(church, h.perez.id));
    });

    it('loads the members of a whole page in one query', async () => {
      const repository = api.app.get(MembersRepository);
      const roster = jest.spyOn(repository, 'inHouseholds');
      const single = jest.spyOn(repository, 'findLive');
      try {
        const res = await api.get<List<Household>>('/v1/households', as(church));
        expect(res.body.data).toHaveLength(3);
        expect(roster).toHaveBeenCalledTimes(1);
        expect([...roster.mock.calls[0][0]].sort()).toEqual([h.perez.id, h.alvarez.id, h.castro.id].map(uuidOf).sort());
        expect(single).not.toHaveBeenCalled();
      } finally {
        roster.mockRestore();
        single.mockRestore();
      }
    });

    it('sorts by name, pages with a cursor, filters by q and created_at', async () => {
      const first = await api.get<List<Household>>(`/v1/households${qs({ sort: 'name', limit: '2' })}`, as(church));
      expect(first.body.data.map((x) => x.name)).toEqual(['Castro', 'Pérez']);
      const second = await api.get<List<Household>>(
        `/v1/households${qs({ sort: 'name', limit: '2', cursor: first.body.next_cursor! })}`,
        as(church),
      );
      expect(second.body.data.map((x) => x.name)).toEqual(['Álvarez']);
      expect(second.body.next_cursor).toBeNull();

      expect(
        (await api.get<List<Household>>(`/v1/households${qs({ q: 'pér' })}`, as(church))).body.data.map((x) => x.id),
      ).toEqual([h.perez.id]);
      const later = await api.get<List<Household>>(
        `/v1/households${qs({ 'created_at[gt]': h.perez.created_at })}`,
        as(church),
      );
      expect(later.body.data.map((x) => x.id)).toEqual([h.alvarez.id, h.castro.id]);
    });

    itRefusesBadListParams(
      () => api,
      '/v1/households',
      () => as(church),
      [
        [{ name: 'Castro' }, null],
        [{ sort: 'members' }, null],
        [{ 'q[in]': 'a' }, null],
      ],
    );
  });

  // -------------------------------------------------------------------------------------------
  describe('POST and DELETE /v1/households/{id}/members', () => {
    let church: TestTenant;

    beforeAll(async () => {
      church = await newTenant(api);
    });

    it('adds a member with a role: 200 with the household; the member shows household_id and household_role; member.updated raised', async () => {
      const household = await newHousehold(api, church, { name: 'Torres' });
      const member = await newMember(api, church, { first_name: 'Luis', last_name: 'Torres' });
      expect([member.household_id, member.household_role]).toEqual([null, null]);

      const res = await api.post<Household>(
        `/v1/households/${household.id}/members`,
        as(church, { body: { member_id: member.id, household_role: 'head' } }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...household, members: [ref(member, 'head')] });

      const fetched = await getMember(church, member.id);
      expect([fetched.household_id, fetched.household_role]).toEqual([household.id, 'head']);
      const events = await updatesOf(church, member.id);
      expect(events).toHaveLength(1);
      expect(events[0]).toEqual(fetched);
    });

    it('changes the role on a second POST; the same role, or none, changes nothing and raises nothing', async () => {
      const household = await newHousehold(api, church, { name: 'Vega' });
      const member = await newMember(api, church, { first_name: 'Eva', last_name: 'Vega' });
      await addToHousehold(api, church, household.id, { member_id: member.id, household_role: 'adult' });
      const spouse = await addToHousehold(api, church, household.id, {
        member_id: member.id,
        household_role: 'spouse',
      });
      expect(spouse.members).toEqual([ref(member, 'spouse')]);
      expect(await updatesOf(church, member.id)).toHaveLength(2);

      expect(
        (await addToHousehold(api, church, household.id, { member_id: member.id, household_role: 'spouse' })).members,
      ).toEqual([ref(member, 'spouse')]);
      expect((await addToHousehold(api, church, household.id, { member_id: member.id })).members).toEqual([
        ref(member, 'spouse'),
      ]);
      expect(await updatesOf(church, member.id)).toHaveLength(2);
    });

    it('gives `other` to a member joining without a role', async () => {
      const household = await newHousehold(api, church, { name: 'Soto' });
      const member = await newMember(api, church, { first_name: 'Ivo', last_name: 'Soto' });
      expect((await addToHousehold(api, church, household.id, { member_id: member.id })).members).toEqual([
        ref(member, 'other'),
      ]);
    });

    it('refuses a bad body with 422 naming the fields; an unknown, deleted or foreign member is not_found', async () => {
      const household = await newHousehold(api, church, { name: 'Strict' });
      const res = await api.post<Problem>(
        `/v1/households/${household.id}/members`,
        as(church, { body: { household_role: 'cousin', extra: true } }),
      );
      expect(res.status).toBe(422);
      expect(sortedIssuesOf(res.body)).toEqual([
        { field: 'extra', issue: 'unknown_field' },
        { field: 'household_role', issue: 'one_of' },
        { field: 'member_id', issue: 'required' },
      ]);
      const malformed = await api.post<Problem>(
        `/v1/households/${household.id}/members`,
        as(church, { body: { member_id: 'mem_1' } }),
      );
      expect(issuesOf(malformed.body)).toEqual([{ field: 'member_id', issue: 'invalid_format' }]);

      const other = await newTenant(api);
      const theirs = await newMember(api, other, { first_name: 'Their', last_name: 'Member' });
      const gone = await newMember(api, church, { first_name: 'Gone', last_name: 'Member' });
      await api.delete(`/v1/members/${gone.id}`, as(church));
      for (const member_id of [NO_MEMBER, theirs.id, gone.id]) {
        const bad = await api.post<Problem>(
          `/v1/households/${household.id}/members`,
          as(church, { body: { member_id, household_role: 'head' } }),
        );
        expect({ member_id, status: bad.status, errors: issuesOf(bad.body) }).toEqual({
          member_id,
          status: 422,
          errors: [{ field: 'member_id', issue: 'not_found' }],
        });
      }
      expect((await getHousehold(church, household.id)).members).toEqual([]);
      expect((await getMember(other, theirs.id)).household_id).toBeNull();
    });

    it('removes a member: 204, both fields null, member.updated; again, or from another household, 404', async () => {
      const household = await newHousehold(api, church, { name: 'Leaving' });
      const elsewhere = await newHousehold(api, church, { name: 'Elsewhere' });
      const member = await newMember(api, church, { first_name: 'Leo', last_name: 'Leaving' });
      const stays = await newMember(api, church, { first_name: 'Sara', last_name: 'Leaving' });
      await addToHousehold(api, church, household.id, { member_id: member.id, household_role: 'child' });
      await addToHousehold(api, church, household.id, { member_id: stays.id, household_role: 'head' });

      const wrong = await api.delete<Problem>(`/v1/households/${elsewhere.id}/members/${member.id}`, as(church));
      expect([wrong.status, wrong.body.code]).toEqual([404, 'resource_not_found']);

      const res = await api.delete(`/v1/households/${household.id}/members/${member.id}`, as(church));
      expect(res.status).toBe(204);
      const fetched = await getMember(church, member.id);
      expect([fetched.household_id, fetched.household_role]).toEqual([null, null]);
      expect((await getHousehold(church, household.id)).members).toEqual([ref(stays, 'head')]);
      const events = await updatesOf(church, member.id);
      expect(events[events.length - 1]).toEqual(fetched);

      for (const memberId of [member.id, NO_MEMBER, 'mem_1']) {
        const again = await api.delete<Problem>(`/v1/households/${household.id}/members/${memberId}`, as(church));
        expect({ memberId, status: again.status, code: again.body.code }).toEqual({
          memberId,
          status: 404,
          code: 'resource_not_found',
        });
      }
    });

    it('answers 404 for an unknown household on both routes', async () => {
      const member = await newMember(api, church, { first_name: 'No', last_name: 'Home' });
      const post = await api.post<Problem>(
        `/v1/households/${NO_HOUSEHOLD}/members`,
        as(church, { body: { member_id: member.id } }),
      );
      expect([post.status, post.body.code]).toEqual([404, 'resource_not_found']);
      const del = await api.delete<Problem>(`/v1/households/${NO_HOUSEHOLD}/members/${member.id}`, as(church));
      expect([del.status, del.body.code]).toEqual([404, 'resource_not_found']);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('moving members, and households on member routes', () => {
    let church: TestTenant;
    let a: Household;
    let b: Household;

    beforeAll(async () => {
      church = await newTenant(api);
      a = await newHousehold(api, church, { name: 'A' });
      b = await newHousehold(api, church, { name: 'B' });
    });

    it('POST to another household moves the member out of the first one, with one member.updated', async () => {
      const member = await newMember(api, church, { first_name: 'Mover', last_name: 'One' });
      await addToHousehold(api, church, a.id, { member_id: member.id, household_role: 'head' });
      const moved = await addToHousehold(api, church, b.id, { member_id: member.id, household_role: 'child' });

      expect(moved.members).toEqual([ref(member, 'child')]);
      expect((await getHousehold(church, a.id)).members.map((x) => x.id)).not.toContain(member.id);
      const fetched = await getMember(church, member.id);
      expect([fetched.household_id, fetched.household_role]).toEqual([b.id, 'child']);
      const events = await updatesOf(church, member.id);
      expect(events.map((e) => [e.household_id, e.household_role])).toEqual([
        [a.id, 'head'],
        [b.id, 'child'],
      ]);
    });

    it('PATCH of the member’s household_id moves them with role `other`; the same household keeps the role; null clears both', async () => {
      const member = await newMember(api, church, { first_name: 'Patcher', last_name: 'Two' });
      await addToHousehold(api, church, a.id, { member_id: member.id, household_role: 'spouse' });

      const moved = await api.patch<Member>(`/v1/members/${member.id}`, as(church, { body: { household_id: b.id } }));
      expect(moved.status).toBe(200);
      expect([moved.body.household_id, moved.body.household_role]).toEqual([b.id, 'other']);
      expect((await getHousehold(church, a.id)).members.map((x) => x.id)).not.toContain(member.id);
      expect((await getHousehold(church, b.id)).members).toContainEqual(ref(member, 'other'));

      await addToHousehold(api, church, b.id, { member_id: member.id, household_role: 'adult' });
      const same = await api.patch<Member>(
        `/v1/members/${member.id}`,
        as(church, { body: { household_id: b.id, first_name: 'Patched' } }),
      );
      expect([same.body.household_id, same.body.household_role]).toEqual([b.id, 'adult']);

      const left = await api.patch<Member>(`/v1/members/${member.id}`, as(church, { body: { household_id: null } }));
      expect([left.body.household_id, left.body.household_role]).toEqual([null, null]);
      expect((await getHousehold(church, b.id)).members.map((x) => x.id)).not.toContain(member.id);
    });

    it('PUT without household_id takes the member out of their household', async () => {
      const member = await newMember(api, church, { first_name: 'Put', last_name: 'Three' });
      await addToHousehold(api, church, a.id, { member_id: member.id, household_role: 'head' });
      const put = await api.put<Member>(
        `/v1/members/${member.id}`,
        as(church, { body: { first_name: 'Put', last_name: 'Three' } }),
      );
      expect([put.status, put.body.household_id, put.body.household_role]).toEqual([200, null, null]);
    });

    it('POST /v1/members and bulk with household_id join with role `other`; an unknown household is 422 not_found', async () => {
      const created = await newMember(api, church, { first_name: 'Born', last_name: 'In', household_id: a.id });
      expect([created.household_id, created.household_role]).toEqual([a.id, 'other']);
      expect((await getHousehold(church, a.id)).members).toContainEqual(ref(created, 'other'));

      const bad = await api.post<Problem>(
        '/v1/members',
        as(church, { body: { first_name: 'X', last_name: 'Y', household_id: NO_HOUSEHOLD } }),
      );
      expect([bad.status, issuesOf(bad.body)]).toEqual([422, [{ field: 'household_id', issue: 'not_found' }]]);

      const bulk = await api.post<BulkResult>(
        '/v1/members/bulk',
        as(church, {
          body: {
            members: [
              { first_name: 'Bulk', last_name: 'One', household_id: b.id },
              { first_name: 'Bulk', last_name: 'Two', household_id: NO_HOUSEHOLD },
              { first_name: 'Bulk', last_name: 'Three' },
            ],
          },
        }),
      );
      expect(bulk.status).toBe(200);
      expect([bulk.body.created, bulk.body.failed]).toEqual([2, 1]);
      expect(bulk.body.results[1].error?.errors.map(({ field, issue }) => ({ field, issue }))).toEqual([
        { field: 'household_id', issue: 'not_found' },
      ]);
      const one = await getMember(church, bulk.body.results[0].id!);
      const three = await getMember(church, bulk.body.results[2].id!);
      expect([one.household_id, one.household_role, three.household_id, three.household_role]).toEqual([
        b.id,
        'other',
        null,
        null,
      ]);
    });

    it('PATCH to an unknown, deleted or foreign household is 422 not_found and changes nothing', async () => {
      const member = await newMember(api, church, { first_name: 'Stay', last_name: 'Put', household_id: a.id });
      const deleted = await newHousehold(api, church, { name: 'Deleted' });
      await api.delete(`/v1/households/${deleted.id}`, as(church));
      const other = await newTenant(api);
      const foreign = await newHousehold(api, other, { name: 'Foreign' });
      for (const household_id of [NO_HOUSEHOLD, deleted.id, foreign.id]) {
        const res = await api.patch<Problem>(`/v1/members/${member.id}`, as(church, { body: { household_id } }));
        expect({ household_id, status: res.status, errors: issuesOf(res.body) }).toEqual({
          household_id,
          status: 422,
          errors: [{ field: 'household_id', issue: 'not_found' }],
        });
      }
      expect((await getMember(church, member.id)).household_id).toBe(a.id);
    });

    it('filters members by household_id and household_id[in]; a malformed id is a 400', async () => {
      const c = await newTenant(api);
      const x = await newHousehold(api, c, { name: 'X' });
      const y = await newHousehold(api, c, { name: 'Y' });
      const inX = await newMember(api, c, { first_name: 'In', last_name: 'X', household_id: x.id });
      const inY = await newMember(api, c, { first_name: 'In', last_name: 'Y', household_id: y.id });
      await newMember(api, c, { first_name: 'No', last_name: 'Household' });

      const listed = async (params: Record<string, string>) =>
        (await api.get<List<Member>>(`/v1/members${qs(params)}`, as(c))).body;
      const byX = await listed({ household_id: x.id });
      expect(byX.data.map((mm) => mm.id)).toEqual([inX.id]);
      expect(byX.total).toBe(1);
      expect(byX.data[0]).toMatchObject({ household_id: x.id, household_role: 'other' });
      expect((await listed({ 'household_id[in]': `${x.id},${y.id}` })).data.map((mm) => mm.id)).toEqual([
        inX.id,
        inY.id,
      ]);
      expect(await listed({ household_id: NO_HOUSEHOLD })).toEqual({ data: [], next_cursor: null, total: 0 });

      for (const params of [
        { household_id: 'hh_nope' },
        { 'household_id[in]': `${x.id},grp_1` },
        { 'household_id[gt]': x.id },
      ] as Record<string, string>[]) {
        const res = await api.get<Problem>(`/v1/members${qs(params)}`, as(c));
        expect({ params, status: res.status, code: res.body.code }).toEqual({
          params,
          status: 400,
          code: 'invalid_parameter',
        });
      }
      // The filter is served by the (tenant_id, household_id, …) index.
      const { rows } = await pg.query<{ indexdef: string }>(
        `SELECT indexdef FROM pg_indexes WHERE tablename = 'members' AND indexname = 'members_tenant_household_idx'`,
      );
      expect(rows[0]?.indexdef).toContain('(tenant_id, household_id, created_at, id)');
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('DELETE /v1/households/{id}', () => {
    it('soft-deletes: 204; its members are detached (member.updated each); it is gone from GET, lists and sub-routes', async () => {
      const church = await newTenant(api);
      const household = await newHousehold(api, church, { name: 'Doomed' });
      const keep = await newHousehold(api, church, { name: 'Kept' });
      const one = await newMember(api, church, { first_name: 'One', last_name: 'Doomed' });
      const two = await newMember(api, church, { first_name: 'Two', last_name: 'Doomed' });
      const other = await newMember(api, church, { first_name: 'Other', last_name: 'Kept' });
      await addToHousehold(api, church, household.id, { member_id: one.id, household_role: 'head' });
      await addToHousehold(api, church, household.id, { member_id: two.id, household_role: 'child' });
      await addToHousehold(api, church, keep.id, { member_id: other.id, household_role: 'head' });

      const res = await api.delete(`/v1/households/${household.id}`, as(church));
      expect(res.status).toBe(204);

      for (const member of [one, two]) {
        const fetched = await getMember(church, member.id);
        expect([fetched.household_id, fetched.household_role]).toEqual([null, null]);
        const events = await updatesOf(church, member.id);
        expect(events).toHaveLength(2);
        expect(events[1]).toEqual(fetched);
      }
      expect((await getMember(church, other.id)).household_id).toBe(keep.id);
      const { rows } = await pg.query<{ deleted: boolean }>(
        'SELECT deleted_at IS NOT NULL AS deleted FROM households WHERE tenant_id = $1 AND id = $2',
        [church.id, uuidOf(household.id)],
      );
      expect(rows).toEqual([{ deleted: true }]);

      const calls: [string, string, JsonObject?][] = [
        ['GET', `/v1/households/${household.id}`],
        ['PATCH', `/v1/households/${household.id}`, { name: 'Back' }],
        ['DELETE', `/v1/households/${household.id}`],
        ['POST', `/v1/households/${household.id}/members`, { member_id: one.id }],
        ['DELETE', `/v1/households/${household.id}/members/${one.id}`],
      ];
      for (const [method, path, body] of calls) {
        const r = await api.send<Problem>(method, path, as(church, { body }));
        expect({ method, path, status: r.status, code: r.body.code }).toEqual({
          method,
          path,
          status: 404,
          code: 'resource_not_found',
        });
      }
      expect((await api.get<List<Household>>('/v1/households', as(church))).body.data.map((x) => x.id)).toEqual([
        keep.id,
      ]);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('races', () => {
    it('one member moved between two households by 16 requests at once (POST and PATCH), 3 rounds: it ends in exactly one; every answer shows its own move', async () => {
      const church = await newTenant(api);
      const a = await newHousehold(api, church, { name: 'A' });
      const b = await newHousehold(api, church, { name: 'B' });
      for (let round = 0; round < 3; round++) {
        const member = await newMember(api, church, { first_name: 'Raced', last_name: `Member ${round}` });
        await addToHousehold(api, church, a.id, { member_id: member.id, household_role: 'head' });
        // Half of the requests ask for where the member already is: each must still answer what it made true.
        const moves = Array.from({ length: 16 }, (_, i) => ({
          target: i % 2 === 0 ? a : b,
          role: i % 2 === 0 ? ('head' as const) : ('child' as const),
          patch: i % 4 === 3,
        }));
        const answers = await Promise.all(
          moves.map(({ target, role, patch }) =>
            patch
              ? api.patch<Member & Household>(
                  `/v1/members/${member.id}`,
                  as(church, { body: { household_id: target.id } }),
                )
              : api.post<Member & Household>(
                  `/v1/households/${target.id}/members`,
                  as(church, { body: { member_id: member.id, household_role: role } }),
                ),
          ),
        );
        expect(answers.map((r) => r.status)).toEqual(Array(16).fill(200));
        for (const [i, { target, role, patch }] of moves.entries()) {
          if (patch) expect(answers[i].body.household_id).toBe(target.id);
          else
            expect({ round, i, members: answers[i].body.members.filter((x) => x.id === member.id) }).toEqual({
              round,
              i,
              members: [ref(member, role)],
            });
        }

        const final = await getMember(church, member.id);
        const holders = [await getHousehold(church, a.id), await getHousehold(church, b.id)].filter((hh) =>
          hh.members.some((x) => x.id === member.id),
        );
        expect(holders.map((hh) => hh.id)).toEqual([final.household_id]);
        expect(holders[0].members.filter((x) => x.id === member.id)).toEqual([ref(member, final.household_role!)]);
        const { rows } = await pg.query<{ household_id: string; household_role: string }>(
          'SELECT household_id, household_role FROM members WHERE tenant_id = $1 AND id = $2',
          [church.id, uuidOf(member.id)],
        );
        expect(rows).toEqual([{ household_id: uuidOf(final.household_id!), household_role: final.household_role }]);
        // The member.updated raised last carries the final state (each move wrote on what the previous one committed).
        const events = await updatesOf(church, member.id);
        expect(events.filter((e) => e.updated_at === final.updated_at)).toContainEqual(final);
      }
    });

    it('a household deleted while members join it: joins 200 or 404, and no live member is left in the deleted household', async () => {
      const church = await newTenant(api);
      for (let round = 0; round < 3; round++) {
        const household = await newHousehold(api, church, { name: `Race ${round}` });
        const members = await Promise.all(
          Array.from({ length: 6 }, (_, i) => newMember(api, church, { first_name: `M${i}`, last_name: `R${round}` })),
        );
        const answers = await Promise.all([
          ...members
            .slice(0, 3)
            .map((m) => api.post(`/v1/households/${household.id}/members`, as(church, { body: { member_id: m.id } }))),
          api.delete(`/v1/households/${household.id}`, as(church)),
          ...members
            .slice(3)
            .map((m) => api.patch(`/v1/members/${m.id}`, as(church, { body: { household_id: household.id } }))),
        ]);
        expect(answers[3].status).toBe(204);
        for (const [i, r] of answers.entries()) if (i !== 3) expect([200, 404, 422]).toContain(r.status);
        const { rows } = await pg.query(
          'SELECT id FROM members WHERE tenant_id = $1 AND household_id = $2 AND deleted_at IS NULL',
          [church.id, uuidOf(household.id)],
        );
        expect(rows).toEqual([]);
      }
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('isolation and scopes', () => {
    let a: TestTenant;
    let b: TestTenant;
    let theirs: Household;
    let theirMember: Member;

    beforeAll(async () => {
      a = await newTenant(api);
      b = await newTenant(api);
      theirMember = await newMember(api, a, { first_name: 'Theirs', last_name: 'Only' });
      theirs = await newHousehold(api, a, { name: 'A only', primary_contact_id: theirMember.id });
      await addToHousehold(api, a, theirs.id, { member_id: theirMember.id, household_role: 'head' });
    });

    it("answers 404 to another church's household on every {id} route, and changes nothing", async () => {
      const mine = await newMember(api, b, { first_name: 'Mine', last_name: 'B' });
      const calls: [string, string, JsonObject?][] = [
        ['GET', `/v1/households/${theirs.id}`],
        ['PATCH', `/v1/households/${theirs.id}`, { name: 'Hijacked' }],
        ['DELETE', `/v1/households/${theirs.id}`],
        ['POST', `/v1/households/${theirs.id}/members`, { member_id: mine.id }],
        ['DELETE', `/v1/households/${theirs.id}/members/${theirMember.id}`],
      ];
      for (const [method, path, body] of calls) {
        const r = await api.send<Problem>(method, path, as(b, { body }));
        expect({ method, path, status: r.status, code: r.body.code }).toEqual({
          method,
          path,
          status: 404,
          code: 'resource_not_found',
        });
      }
      expect((await api.get<List<Household>>('/v1/households', as(b))).body.total).toBe(0);
      const still = await getHousehold(a, theirs.id);
      expect(still).toMatchObject({
        name: 'A only',
        primary_contact_id: theirMember.id,
        members: [ref(theirMember, 'head')],
      });
    });

    it('reads with read:members; writes need write:members (403 scope_insufficient naming it)', async () => {
      const reader = (await newToken(api, a, ['read:members'])).token;
      expect((await api.get(`/v1/households/${theirs.id}`, { token: reader, tenant: a.slug })).status).toBe(200);
      expect((await api.get('/v1/households', { token: reader, tenant: a.slug })).status).toBe(200);
      const writes: [string, string, JsonObject?][] = [
        ['POST', '/v1/households', { name: 'No' }],
        ['PATCH', `/v1/households/${theirs.id}`, { name: 'No' }],
        ['DELETE', `/v1/households/${theirs.id}`],
        ['POST', `/v1/households/${theirs.id}/members`, { member_id: theirMember.id }],
        ['DELETE', `/v1/households/${theirs.id}/members/${theirMember.id}`],
      ];
      for (const [method, path, body] of writes) {
        const r = await api.send<Problem>(method, path, { token: reader, tenant: a.slug, body });
        expect({
          method,
          path,
          status: r.status,
          code: r.body.code,
          scope: r.body.detail?.includes('write:members'),
        }).toEqual({
          method,
          path,
          status: 403,
          code: 'scope_insufficient',
          scope: true,
        });
      }

      const writer = (await newToken(api, a, ['write:members'])).token;
      const read = await api.get<Problem>(`/v1/households/${theirs.id}`, { token: writer, tenant: a.slug });
      expect([read.status, read.body.code]).toEqual([403, 'scope_insufficient']);
      expect(read.headers['www-authenticate']).toContain('scope="read:members"');

      const campusesOnly = (await newToken(api, a, ['read:campuses', 'write:campuses'])).token;
      const none = await api.get<Problem>('/v1/households', { token: campusesOnly, tenant: a.slug });
      expect([none.status, none.body.code]).toEqual([403, 'scope_insufficient']);
      expect(await getHousehold(a, theirs.id)).toMatchObject({ name: 'A only', members: [ref(theirMember, 'head')] });
    });
  });
});
