import { randomBytes, randomUUID } from 'node:crypto';
import { TenantContext } from '../../src/common/context/tenant-context';
import { parsePublicId } from '../../src/common/ids/id';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import { JsonObject, TestApi } from '../support/api';
import {
  campusRef,
  inTenant,
  joinGroup,
  newCampus,
  newGroup,
  newMembers,
  newTenant,
  newToken,
  TestTenant,
} from '../support/factories';
import { as, qs, sortedIssuesOf } from '../support/http';
import type { CampusRef } from '../../src/modules/campuses/dto/campus.response';
import type { GroupResponse as Group } from '../../src/modules/groups/dto/group.response';
import type { MemberResponse as Member } from '../../src/modules/members/dto/member.response';
import type { GroupMemberResponse as GroupMember } from '../../src/modules/groups/dto/group-member.response';

// ---------------------------------------------------------------------------------------------
// Types and small helpers
// ---------------------------------------------------------------------------------------------

const GROUP_ID = /^grp_[0-9a-f]{32}$/;
const UTC_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const unique = (prefix: string) => `${prefix} ${randomBytes(4).toString('hex')}`;
const sorted = (ids: string[]) => [...ids].sort();

async function members(api: TestApi, church: TestTenant, n: number, lastName = unique('Ruiz')): Promise<string[]> {
  return newMembers(
    api,
    church,
    Array.from({ length: n }, (_, i) => ({ first_name: `Persona${i}`, last_name: lastName })),
  );
}

/** Every member of a group, page after page (limit `limit`). */
async function roster(
  api: TestApi,
  church: TestTenant,
  groupId: string,
  params: Record<string, string> = {},
  limit = 250,
): Promise<GroupMember[]> {
  const all: GroupMember[] = [];
  let cursor: string | null = null;
  do {
    const res: { status: number; body: List<GroupMember> } = await api.get<List<GroupMember>>(
      `/v1/groups/${groupId}/members${qs({ ...params, limit: String(limit), ...(cursor ? { cursor } : {}) })}`,
      as(church),
    );
    if (res.status !== 200) throw new Error(`roster failed: ${res.status} ${JSON.stringify(res.body)}`);
    all.push(...res.body.data);
    cursor = res.body.next_cursor;
  } while (cursor);
  return all;
}

/** The `data.object` of every outbox event of `type` whose object (or `objectPath`) has this id. */
async function eventObjects<T>(
  api: TestApi,
  church: TestTenant,
  type: string,
  id: string,
  objectPath = '{data,object,id}',
): Promise<T[]> {
  const rows: { object: T }[] = await api.db.platform.query(
    `SELECT payload->'data'->'object' AS object FROM webhook_events WHERE tenant_id = $1 AND type = $2 AND payload #>> $4::text[] = $3 ORDER BY created_at, id`,
    [church.id, type, id, objectPath],
  );
  return rows.map((r) => r.object);
}

/** group id (grp_) of each membership row of these members, straight from PostgreSQL. */
async function groupsOf(api: TestApi, church: TestTenant, memberIds: string[]): Promise<Map<string, string[]>> {
  const rows: { member_id: string; group_id: string }[] = await api.db.platform.query(
    `SELECT member_id::text, group_id::text FROM group_members WHERE tenant_id = $1 AND member_id = ANY($2::uuid[])`,
    [church.id, memberIds.map((id) => parsePublicId('mem', id))],
  );
  const out = new Map<string, string[]>();
  for (const r of rows) {
    const key = `mem_${r.member_id.replace(/-/g, '')}`;
    out.set(key, [...(out.get(key) ?? []), `grp_${r.group_id.replace(/-/g, '')}`]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

describe('groups', () => {
  let api: TestApi;
  let church: TestTenant;
  let other: TestTenant;
  let north: CampusRef;

  beforeAll(async () => {
    api = await TestApi.start();
    church = await newTenant(api);
    other = await newTenant(api);
    north = await newCampus(api, church, { key: 'north', name: 'North Campus' }).then(campusRef);
  });
  afterAll(() => api.close());

  // -------------------------------------------------------------------------------------------
  describe('CRUD', () => {
    it('creates a group: 201, Location, grp_ id, every field echoed, group.created with the group as GET returns it', async () => {
      const body = {
        name: ' Células Norte ',
        description: 'Young adults',
        campus: 'north',
        meeting_day: 'thursday',
        meeting_time: '19:30',
        location: 'Calle 10 #45',
        capacity: 12,
        status: 'open',
      };
      const res = await api.post<Group>('/v1/groups', as(church, { body }));
      expect(res.status).toBe(201);
      expect(res.body.id).toMatch(GROUP_ID);
      expect(res.headers.location).toBe(`/v1/groups/${res.body.id}`);
      expect(res.body).toEqual({
        ...body,
        name: 'Células Norte',
        id: res.body.id,
        campus: north,
        parent_group_id: null,
        member_count: 0,
        closed_at: null,
        created_at: expect.stringMatching(UTC_ISO),
        updated_at: res.body.created_at,
      });
      const got = await api.get<Group>(`/v1/groups/${res.body.id}`, as(church));
      expect(got.status).toBe(200);
      expect(got.body).toEqual(res.body);
      expect(await eventObjects(api, church, 'group.created', res.body.id)).toEqual([res.body]);
    });

    it('defaults: status open, optional fields null', async () => {
      const res = await api.post<Group>('/v1/groups', as(church, { body: { name: 'Solo nombre' } }));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        status: 'open',
        campus: null,
        meeting_day: null,
        meeting_time: null,
        capacity: null,
        description: null,
        location: null,
      });
    });

    it('refuses bad bodies with 422 naming every field; status closed only through close', async () => {
      const res = await api.post<Problem>(
        '/v1/groups',
        as(church, {
          body: {
            meeting_day: 'someday',
            meeting_time: '25:00',
            capacity: 0,
            status: 'closed',
            campus: 'nowhere',
            parent_group_id: 'grp_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
          },
        }),
      );
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(sortedIssuesOf(res.body).map((i) => i.field)).toEqual([
        'capacity',
        'meeting_day',
        'meeting_time',
        'name',
        'parent_group_id',
        'status',
      ]);
      expect(sortedIssuesOf(res.body)).toContainEqual({ field: 'meeting_time', issue: 'invalid_format' });
      const campus = await api.post<Problem>('/v1/groups', as(church, { body: { name: 'X', campus: 'nowhere' } }));
      expect(campus.status).toBe(422);
      expect(sortedIssuesOf(campus.body)).toEqual([{ field: 'campus', issue: 'not_found' }]);
    });

    it('PATCH changes the given fields, null clears; name cannot be cleared; status closed is 422', async () => {
      const group = await newGroup(api, church, { campus: 'north', location: 'Casa' });
      const res = await api.patch<Group>(
        `/v1/groups/${group.id}`,
        as(church, { body: { meeting_day: 'sunday', location: null, campus: null, status: 'full' } }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        meeting_day: 'sunday',
        location: null,
        campus: null,
        status: 'full',
        name: group.name,
      });
      expect(res.body.updated_at > group.updated_at || res.body.updated_at === group.updated_at).toBe(true);
      expect((await api.get<Group>(`/v1/groups/${group.id}`, as(church))).body).toEqual(res.body);
      const cleared = await api.patch<Problem>(`/v1/groups/${group.id}`, as(church, { body: { name: null } }));
      expect(cleared.status).toBe(422);
      expect(sortedIssuesOf(cleared.body)).toEqual([{ field: 'name', issue: 'required' }]);
      const closed = await api.patch<Problem>(`/v1/groups/${group.id}`, as(church, { body: { status: 'closed' } }));
      expect(closed.status).toBe(422);
    });

    it('DELETE is a soft delete: 204, then 404 everywhere', async () => {
      const group = await newGroup(api, church);
      const [id] = await members(api, church, 1);
      await joinGroup(api, church, group.id, id);
      expect((await api.delete(`/v1/groups/${group.id}`, as(church))).status).toBe(204);
      expect((await api.get(`/v1/groups/${group.id}`, as(church))).status).toBe(404);
      expect((await api.delete(`/v1/groups/${group.id}`, as(church))).status).toBe(404);
      expect((await api.get(`/v1/groups/${group.id}/members`, as(church))).status).toBe(404);
      expect((await api.put(`/v1/groups/${group.id}/members/${id}`, as(church, { body: {} }))).status).toBe(404);
    });

    it("another church's group is 404 resource_not_found on every {id} route, and changes nothing", async () => {
      const group = await newGroup(api, church);
      const [mine] = await members(api, church, 1);
      await joinGroup(api, church, group.id, mine);
      const [theirs] = await members(api, other, 1);
      const calls: [string, string, JsonObject | undefined][] = [
        ['GET', `/v1/groups/${group.id}`, undefined],
        ['PATCH', `/v1/groups/${group.id}`, { name: 'hijacked' }],
        ['DELETE', `/v1/groups/${group.id}`, undefined],
        ['GET', `/v1/groups/${group.id}/members`, undefined],
        ['PUT', `/v1/groups/${group.id}/members/${theirs}`, {}],
        ['DELETE', `/v1/groups/${group.id}/members/${mine}`, undefined],
        ['POST', `/v1/groups/${group.id}/close`, undefined],
        ['POST', `/v1/groups/${group.id}/multiply`, { name: 'x', member_ids: [mine], leader_id: mine }],
      ];
      for (const [method, path, body] of calls) {
        const res = await api.send<Problem>(method, path, as(other, body ? { body } : {}));
        expect({ method, path, status: res.status, code: res.body.code }).toEqual({
          method,
          path,
          status: 404,
          code: 'resource_not_found',
        });
      }
      expect((await api.get<Group>(`/v1/groups/${group.id}`, as(church))).body).toMatchObject({
        name: group.name,
        status: 'open',
        member_count: 1,
      });
    });

    it('scopes: read:groups reads, write:groups writes', async () => {
      const group = await newGroup(api, church);
      const reader = await newToken(api, church, ['read:groups'], 'staff');
      const outsider = await newToken(api, church, ['read:members'], 'staff');
      expect((await api.get(`/v1/groups/${group.id}`, { token: reader.token, tenant: church.slug })).status).toBe(200);
      expect(
        (await api.get(`/v1/groups/${group.id}/members`, { token: reader.token, tenant: church.slug })).status,
      ).toBe(200);
      const write = await api.post<Problem>(`/v1/groups/${group.id}/close`, {
        token: reader.token,
        tenant: church.slug,
      });
      expect([write.status, write.body.code]).toEqual([403, 'scope_insufficient']);
      const read = await api.get<Problem>('/v1/groups', { token: outsider.token, tenant: church.slug });
      expect([read.status, read.body.code]).toEqual([403, 'scope_insufficient']);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('GET /v1/groups', () => {
    let church2: TestTenant;
    beforeAll(async () => {
      church2 = await newTenant(api);
      await newCampus(api, church2, { key: 'south', name: 'South' }).then(campusRef);
    });

    it('filters by status, campus, meeting_day, q and parent_group_id; sorts by name; pages without gaps', async () => {
      const a = await newGroup(api, church2, { name: 'Alfa', campus: 'south', meeting_day: 'monday' });
      const b = await newGroup(api, church2, { name: 'Beta', meeting_day: 'friday' });
      const c = await newGroup(api, church2, { name: 'Gamma', status: 'full' });
      const list = async (params: Record<string, string>) => {
        const res = await api.get<List<Group>>(`/v1/groups${qs(params)}`, as(church2));
        expect(res.status).toBe(200);
        return res.body;
      };
      expect((await list({})).data.map((g) => g.id)).toEqual([a.id, b.id, c.id]);
      expect((await list({})).total).toBe(3);
      expect((await list({ status: 'full' })).data.map((g) => g.id)).toEqual([c.id]);
      expect((await list({ 'status[ne]': 'full' })).data.map((g) => g.id)).toEqual([a.id, b.id]);
      expect((await list({ campus: 'south' })).data.map((g) => g.id)).toEqual([a.id]);
      expect((await list({ 'meeting_day[in]': 'monday,friday' })).data.map((g) => g.id)).toEqual([a.id, b.id]);
      expect((await list({ q: 'amm' })).data.map((g) => g.id)).toEqual([c.id]);
      expect((await list({ sort: '-name' })).data.map((g) => g.id)).toEqual([c.id, b.id, a.id]);
      expect((await list({ 'created_at[gt]': c.created_at })).data).toEqual([]);
      expect((await list({ 'created_at[lte]': c.created_at, 'updated_at[gte]': a.updated_at })).total).toBe(3);
      expect((await list({ parent_group_id: a.id })).data).toEqual([]);
      const first = await list({ limit: '2' });
      const second = await list({ limit: '2', cursor: first.next_cursor! });
      expect([...first.data, ...second.data].map((g) => g.id)).toEqual([a.id, b.id, c.id]);
      expect(second.next_cursor).toBeNull();
    });

    it('an unknown filter or sort, or a malformed parent_group_id, is 400', async () => {
      for (const params of [{ colour: 'red' }, { sort: 'capacity' }, { parent_group_id: 'nope' }] as Record<
        string,
        string
      >[]) {
        const res = await api.get<Problem>(`/v1/groups${qs(params)}`, as(church2));
        expect([res.status, res.body.code]).toEqual([400, 'invalid_parameter']);
      }
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('members of a group', () => {
    it('PUT adds a member (role member, joined_at) and answers the member as GET /v1/members/{id} shows it plus group_role and joined_at', async () => {
      const group = await newGroup(api, church);
      const [id] = await newMembers(api, church, [
        { first_name: 'Ana', last_name: 'Ortiz', campus: 'north', birthdate: '1990-05-01' },
      ]);
      // No body at all: joins as `member`.
      const added = await api.put<GroupMember>(`/v1/groups/${group.id}/members/${id}`, as(church));
      expect(added.status).toBe(200);
      const member = (await api.get<Member>(`/v1/members/${id}`, as(church))).body;
      expect(added.body).toEqual({ ...member, group_role: 'member', joined_at: expect.stringMatching(UTC_ISO) });
      expect((await api.get<Group>(`/v1/groups/${group.id}`, as(church))).body.member_count).toBe(1);

      // Again with another role: the role changes, joined_at stays.
      const leader = await joinGroup(api, church, group.id, id, { group_role: 'leader' });
      expect(leader).toEqual({ ...added.body, group_role: 'leader' });
      // Again without a role: nothing changes.
      expect(await joinGroup(api, church, group.id, id)).toEqual(leader);
      expect((await api.get<Group>(`/v1/groups/${group.id}`, as(church))).body.member_count).toBe(1);
    });

    it('GET /v1/groups/{id}/members: the member list envelope, every member once across pages, group_role filter, tags loaded', async () => {
      const group = await newGroup(api, church);
      const ids = await members(api, church, 7);
      const tag = await api.post<{ id: string; name: string }>(
        '/v1/tags',
        as(church, { body: { name: unique('tag') } }),
      );
      expect((await api.put(`/v1/members/${ids[0]}/tags/${tag.body.id}`, as(church))).status).toBe(200);
      for (const [i, id] of ids.entries())
        await joinGroup(api, church, group.id, id, { group_role: i < 2 ? 'leader' : undefined });

      const page = await api.get<List<GroupMember>>(`/v1/groups/${group.id}/members?limit=3`, as(church));
      expect(page.status).toBe(200);
      expect(page.body.total).toBe(7);
      expect(page.body.data).toHaveLength(3);
      expect(page.body.next_cursor).toEqual(expect.any(String));

      const all = await roster(api, church, group.id, {}, 3);
      expect(all.map((m) => m.id)).toEqual(ids);
      expect(all[0].tags).toEqual([{ id: tag.body.id, name: tag.body.name }]);
      const [one] = all;
      expect(one).toEqual({
        ...(await api.get<Member>(`/v1/members/${one.id}`, as(church))).body,
        group_role: 'leader',
        joined_at: expect.stringMatching(UTC_ISO),
      });
      expect((await roster(api, church, group.id, { group_role: 'leader' })).map((m) => m.id)).toEqual(ids.slice(0, 2));
      expect(
        await roster(api, church, group.id, { 'created_at[gt]': new Date(Date.now() + 60_000).toISOString() }),
      ).toEqual([]);
      const bad = await api.get<Problem>(`/v1/groups/${group.id}/members?sort=last_name`, as(church));
      expect(bad.status).toBe(400);
    });

    it('a 500-member group pages through every member once, in joined order, with the exact total', async () => {
      const group = await newGroup(api, church);
      const ids = await members(api, church, 500);
      // Joined a minute apart (set in SQL inside the church's transaction): the order is known.
      await inTenant(api, church.id, () =>
        TenantContext.current().manager.query(
          `INSERT INTO group_members (tenant_id, id, group_id, member_id, group_role, joined_at, created_at, updated_at)
           SELECT $1, gen_random_uuid(), $2, m.id, CASE WHEN m.n = 1 THEN 'leader' ELSE 'member' END,
                  timestamptz '2026-01-01T00:00:00Z' + make_interval(mins => m.n::int), now(), now()
             FROM unnest($3::uuid[]) WITH ORDINALITY AS m(id, n)`,
          [church.id, parsePublicId('grp', group.id), ids.map((id) => parsePublicId('mem', id))],
        ),
      );
      const first = await api.get<List<GroupMember>>(`/v1/groups/${group.id}/members?limit=250`, as(church));
      expect(first.status).toBe(200);
      expect(first.body.total).toBe(500);
      const all = await roster(api, church, group.id, {}, 250);
      expect(all.map((m) => m.id)).toEqual(ids);
      expect(all[0]).toMatchObject({ group_role: 'leader', joined_at: '2026-01-01T00:01:00.000Z' });
      expect(
        (await roster(api, church, group.id, { 'joined_at[gt]': '2026-01-01T08:00:00Z' })).map((m) => m.id),
      ).toEqual(ids.slice(480));
      expect((await api.get<Group>(`/v1/groups/${group.id}`, as(church))).body.member_count).toBe(500);
    });

    it("the roster's total and ETag are cached under the members list version: 304 while nothing changed; a join, a role change, a removal, a member's deletion or the group's deletion each change them", async () => {
      const group = await newGroup(api, church);
      const ids = await members(api, church, 4);
      for (const id of ids.slice(0, 3)) await joinGroup(api, church, group.id, id);
      const path = `/v1/groups/${group.id}/members?limit=1`;
      const read = async () => {
        const res = await api.get<List<GroupMember>>(path, as(church));
        expect(res.status).toBe(200);
        return { etag: String(res.headers.etag), total: res.body.total, first: res.body.data[0] };
      };
      const unchanged = async (etag: string) =>
        (await api.get(path, as(church, { headers: { 'If-None-Match': etag } }))).status;
      let seen = await read();
      expect([seen.total, await unchanged(seen.etag)]).toEqual([3, 304]);
      const changes: [string, () => Promise<unknown>, number][] = [
        ['join', () => joinGroup(api, church, group.id, ids[3]), 4],
        [
          'role change',
          () => api.put(`/v1/groups/${group.id}/members/${ids[0]}`, as(church, { body: { group_role: 'leader' } })),
          4,
        ],
        ['removal', () => api.delete(`/v1/groups/${group.id}/members/${ids[3]}`, as(church)), 3],
        ["a member's deletion", () => api.delete(`/v1/members/${ids[2]}`, as(church)), 2],
      ];
      for (const [what, change, total] of changes) {
        await change();
        const now = await read();
        expect([what, now.total, now.etag === seen.etag, await unchanged(seen.etag)]).toEqual([
          what,
          total,
          false,
          200,
        ]);
        seen = now;
      }
      expect(seen.first.group_role).toBe('leader');
      expect((await api.delete(`/v1/groups/${group.id}`, as(church))).status).toBe(204);
      expect(await unchanged(seen.etag)).toBe(404);
    });

    it('a deleted member leaves the roster and the count; DELETE takes a member out (204, then 404)', async () => {
      const group = await newGroup(api, church);
      const ids = await members(api, church, 3);
      for (const id of ids) await joinGroup(api, church, group.id, id);
      expect((await api.delete(`/v1/members/${ids[0]}`, as(church))).status).toBe(204);
      expect((await roster(api, church, group.id)).map((m) => m.id)).toEqual(ids.slice(1));
      expect((await api.get<Group>(`/v1/groups/${group.id}`, as(church))).body.member_count).toBe(2);
      expect((await api.delete(`/v1/groups/${group.id}/members/${ids[1]}`, as(church))).status).toBe(204);
      expect((await api.delete(`/v1/groups/${group.id}/members/${ids[1]}`, as(church))).status).toBe(404);
      expect((await roster(api, church, group.id)).map((m) => m.id)).toEqual([ids[2]]);
    });

    it("another church's member, or an unknown one, is 404 and nothing is added", async () => {
      const group = await newGroup(api, church);
      const [theirs] = await members(api, other, 1);
      const res = await api.put<Problem>(`/v1/groups/${group.id}/members/${theirs}`, as(church, { body: {} }));
      expect([res.status, res.body.code]).toEqual([404, 'resource_not_found']);
      expect(
        (await api.put(`/v1/groups/${group.id}/members/mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f`, as(church, { body: {} })))
          .status,
      ).toBe(404);
      expect(await roster(api, church, group.id)).toEqual([]);
      const role = await api.put<Problem>(
        `/v1/groups/${group.id}/members/${theirs}`,
        as(church, { body: { group_role: 'boss' } }),
      );
      expect(role.status).toBe(422);
    });

    it('capacity holds: a member past it is 409, and of 10 concurrent joins on 3 seats exactly 3 succeed', async () => {
      const small = await newGroup(api, church, { capacity: 1 });
      const [a, b] = await members(api, church, 2);
      await joinGroup(api, church, small.id, a);
      const full = await api.put<Problem>(`/v1/groups/${small.id}/members/${b}`, as(church, { body: {} }));
      expect([full.status, full.body.code]).toEqual([409, 'conflict']);

      const group = await newGroup(api, church, { capacity: 3 });
      const ids = await members(api, church, 10);
      const answers = await Promise.all(
        ids.map((id) => api.put(`/v1/groups/${group.id}/members/${id}`, as(church, { body: {} }))),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, ...Array(7).fill(409)]);
      expect((await roster(api, church, group.id)).length).toBe(3);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('POST /v1/groups/{id}/close', () => {
    it('closes: status closed, closed_at, group.closed; twice is 409; adding members, multiplying or changing status is 409', async () => {
      const group = await newGroup(api, church);
      const [a, b] = await members(api, church, 2);
      await joinGroup(api, church, group.id, a);
      const res = await api.post<Group>(`/v1/groups/${group.id}/close`, as(church));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: group.id,
        status: 'closed',
        closed_at: expect.stringMatching(UTC_ISO),
        member_count: 1,
      });
      expect((await api.get<Group>(`/v1/groups/${group.id}`, as(church))).body).toEqual(res.body);
      expect(await eventObjects(api, church, 'group.closed', group.id)).toEqual([res.body]);

      const again = await api.post<Problem>(`/v1/groups/${group.id}/close`, as(church));
      expect([again.status, again.body.code]).toEqual([409, 'conflict']);
      const add = await api.put<Problem>(`/v1/groups/${group.id}/members/${b}`, as(church, { body: {} }));
      expect([add.status, add.body.code]).toEqual([409, 'conflict']);
      const multiply = await api.post<Problem>(
        `/v1/groups/${group.id}/multiply`,
        as(church, { body: { name: 'x', member_ids: [a], leader_id: a } }),
      );
      expect([multiply.status, multiply.body.code]).toEqual([409, 'conflict']);
      const reopen = await api.patch<Problem>(`/v1/groups/${group.id}`, as(church, { body: { status: 'open' } }));
      expect([reopen.status, reopen.body.code]).toEqual([409, 'conflict']);
      expect(await eventObjects(api, church, 'group.closed', group.id)).toHaveLength(1);
      expect((await roster(api, church, group.id)).map((m) => m.id)).toEqual([a]);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('POST /v1/groups/{id}/multiply', () => {
    it('moves the members and the leader into a new group (201, Location, parent_group_id, campus), with group.created and group.multiplied', async () => {
      const source = await newGroup(api, church, { campus: 'north', meeting_day: 'tuesday' });
      const ids = await members(api, church, 6);
      for (const [i, id] of ids.entries())
        await joinGroup(api, church, source.id, id, { group_role: i === 0 ? 'leader' : undefined });
      const [, m1, m2, leader] = ids;
      const res = await api.post<Group>(
        `/v1/groups/${source.id}/multiply`,
        as(church, { body: { name: 'Células Norte 2', member_ids: [m1, m2], leader_id: leader } }),
      );
      expect(res.status).toBe(201);
      expect(res.body.id).toMatch(GROUP_ID);
      expect(res.headers.location).toBe(`/v1/groups/${res.body.id}`);
      expect(res.body).toMatchObject({
        name: 'Células Norte 2',
        parent_group_id: source.id,
        campus: north,
        status: 'open',
        member_count: 3,
        closed_at: null,
      });
      expect((await api.get<Group>(`/v1/groups/${res.body.id}`, as(church))).body).toEqual(res.body);

      const moved = await roster(api, church, res.body.id);
      expect(sorted(moved.map((m) => m.id))).toEqual(sorted([m1, m2, leader]));
      expect(moved.find((m) => m.id === leader)!.group_role).toBe('leader');
      expect(
        moved
          .filter((m) => m.group_role === 'member')
          .map((m) => m.id)
          .sort(),
      ).toEqual(sorted([m1, m2]));
      expect((await roster(api, church, source.id)).map((m) => m.id)).toEqual([ids[0], ids[4], ids[5]]);

      const after = (await api.get<Group>(`/v1/groups/${source.id}`, as(church))).body;
      expect(after.member_count).toBe(3);
      expect(await eventObjects(api, church, 'group.created', res.body.id)).toEqual([res.body]);
      expect(await eventObjects(api, church, 'group.multiplied', source.id, '{data,object,group,id}')).toEqual([
        { group: after, new_group: res.body },
      ]);
      const children = await api.get<List<Group>>(`/v1/groups${qs({ parent_group_id: source.id })}`, as(church));
      expect(children.body.data.map((g) => g.id)).toEqual([res.body.id]);
    });

    it('a member of another church, a member not in the group, or a leader not in it: 422 naming each, and nothing moves', async () => {
      const source = await newGroup(api, church);
      const ids = await members(api, church, 3);
      for (const id of ids) await joinGroup(api, church, source.id, id);
      const [outsider] = await members(api, church, 1);
      const [foreign] = await members(api, other, 1);
      const name = unique('Nunca');
      const res = await api.post<Problem>(
        `/v1/groups/${source.id}/multiply`,
        as(church, { body: { name, member_ids: [ids[0], foreign, outsider], leader_id: ids[1] } }),
      );
      expect([res.status, res.body.code]).toEqual([422, 'validation_failed']);
      expect(sortedIssuesOf(res.body)).toEqual([
        { field: 'member_ids[1]', issue: 'not_in_group' },
        { field: 'member_ids[2]', issue: 'not_in_group' },
      ]);
      const leaderOut = await api.post<Problem>(
        `/v1/groups/${source.id}/multiply`,
        as(church, { body: { name, member_ids: [ids[0]], leader_id: outsider } }),
      );
      expect(leaderOut.status).toBe(422);
      expect(sortedIssuesOf(leaderOut.body)).toEqual([{ field: 'leader_id', issue: 'not_in_group' }]);
      const noLeader = await api.post<Problem>(
        `/v1/groups/${source.id}/multiply`,
        as(church, { body: { name, member_ids: [ids[0]] } }),
      );
      expect(noLeader.status).toBe(422);
      expect(sortedIssuesOf(noLeader.body)).toEqual([{ field: 'leader_id', issue: 'required' }]);
      const empty = await api.post<Problem>(
        `/v1/groups/${source.id}/multiply`,
        as(church, { body: { name, member_ids: [], leader_id: ids[0] } }),
      );
      expect(empty.status).toBe(422);

      expect((await roster(api, church, source.id)).map((m) => m.id)).toEqual(ids);
      const made = await api.get<List<Group>>(`/v1/groups${qs({ q: name })}`, as(church));
      expect(made.body.data).toEqual([]);
      expect(await eventObjects(api, church, 'group.multiplied', source.id, '{data,object,group,id}')).toEqual([]);
    });

    it('a multiply retried with the same Idempotency-Key replays its 201 without a second group', async () => {
      const source = await newGroup(api, church);
      const ids = await members(api, church, 2);
      for (const id of ids) await joinGroup(api, church, source.id, id);
      const headers = { 'Idempotency-Key': randomUUID() };
      const body = { name: 'Reintento', member_ids: [ids[0]], leader_id: ids[0] };
      const first = await api.post<Group>(`/v1/groups/${source.id}/multiply`, as(church, { body, headers }));
      const again = await api.post<Group>(`/v1/groups/${source.id}/multiply`, as(church, { body, headers }));
      expect([first.status, again.status]).toEqual([201, 201]);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      const children = await api.get<List<Group>>(`/v1/groups${qs({ parent_group_id: source.id })}`, as(church));
      expect(children.body.data.map((g) => g.id)).toEqual([first.body.id]);
    });

    it('two multiplies of the same members at once: one 201, one 422, and each member ends in exactly one group', async () => {
      for (let round = 0; round < 3; round++) {
        const source = await newGroup(api, church);
        const ids = await members(api, church, 4);
        for (const id of ids) await joinGroup(api, church, source.id, id);
        const body = (name: string) => ({ name, member_ids: ids.slice(0, 3), leader_id: ids[0] });
        const answers = await Promise.all([
          api.post<Group>(`/v1/groups/${source.id}/multiply`, as(church, { body: body('Uno') })),
          api.post<Group>(`/v1/groups/${source.id}/multiply`, as(church, { body: body('Dos') })),
        ]);
        expect(answers.map((r) => r.status).sort()).toEqual([201, 422]);
        const winner = answers.find((r) => r.status === 201)!.body;
        const places = await groupsOf(api, church, ids);
        for (const id of ids.slice(0, 3)) expect(places.get(id)).toEqual([winner.id]);
        expect(places.get(ids[3])).toEqual([source.id]);
      }
    });
  });
});
