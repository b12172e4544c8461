import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { TenantContext } from '../../src/common/context/tenant-context';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import { JsonObject, TestApi } from '../support/api';
import { explainQueryOf, MEMBERS_PAGE, nodesOf, PlanNode, planSummary } from '../support/query-plan';
import { inTenant, newMember, newMembers, newTag, newTenant, newToken, TestTenant } from '../support/factories';
import { TEST_REDIS_URL } from '../support/test-env';
import { sleep } from '../support/wait';
import { as, issuesOf, itRefusesBadListParams, qs } from '../support/http';
import type { TagRef, TagResponse as Tag, MemberTagEvent } from '../../src/modules/tags/dto/tag.response';
import type { MemberResponse as Member } from '../../src/modules/members/dto/member.response';
import type { WebhookEventResponse } from '../../src/modules/webhook-endpoints/dto/webhook-event.response';

/** CONTRACT §10 Tags: /v1/tags, members' `tags` and `tag` filter, PUT/DELETE /v1/members/{id}/tags/{tag}, tag.added/tag.removed. */

type TagEvent = WebhookEventResponse & { data: { object: MemberTagEvent } };
const TAG_ID = /^tag_[0-9a-f]{32}$/;
const UTC_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const uuidOf = (publicId: string) =>
  publicId.slice(publicId.indexOf('_') + 1).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
const refOf = (tag: Tag): TagRef => ({ id: tag.id, name: tag.name });
const sorted = (values: string[]) => [...values].sort();
const idsOf = (list: List<Member>) => sorted(list.data.map((m) => m.id));

describe('tags', () => {
  let api: TestApi;

  async function tagMember(church: TestTenant, memberId: string, tag: string): Promise<Member> {
    const res = await api.put<Member>(`/v1/members/${memberId}/tags/${encodeURIComponent(tag)}`, as(church));
    if (res.status !== 200) throw new Error(`tag member failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function listTags(church: TestTenant, params: Record<string, string> = {}): Promise<List<Tag>> {
    const res = await api.get<List<Tag>>(`/v1/tags${qs(params)}`, as(church));
    if (res.status !== 200) throw new Error(`list tags failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function listMembers(church: TestTenant, params: Record<string, string> = {}): Promise<List<Member>> {
    const res = await api.get<List<Member>>(`/v1/members${qs(params)}`, as(church));
    if (res.status !== 200) throw new Error(`list members failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function eventsOf(church: TestTenant, type: 'tag.added' | 'tag.removed'): Promise<TagEvent[]> {
    const res = await api.get<List<TagEvent>>(`/v1/webhook-events?type=${type}&limit=250`, as(church));
    expect(res.status).toBe(200);
    return res.body.data;
  }

  const memberTagRows = async (church: TestTenant) =>
    (
      await api.db.platform.query<{ n: number }[]>('SELECT count(*)::int AS n FROM member_tags WHERE tenant_id = $1', [
        church.id,
      ])
    )[0].n;

  beforeAll(async () => {
    // Redis on: member lists then carry version ETags and cached totals, which tag changes must renew.
    api = await TestApi.start({ REDIS_URL: TEST_REDIS_URL });
  });
  afterAll(async () => {
    await api?.close();
    delete process.env.REDIS_URL;
  });

  // -------------------------------------------------------------------------------------------
  describe('POST /v1/tags', () => {
    let church: TestTenant;

    beforeAll(async () => {
      church = await newTenant(api);
    });

    it('creates a tag: 201, Location, tag_ id, name trimmed, color null by default', async () => {
      const res = await api.post<Tag>('/v1/tags', as(church, { body: { name: '  Youth  ' } }));
      expect(res.status).toBe(201);
      expect(res.body.id).toMatch(TAG_ID);
      expect(res.headers.location).toBe(`/v1/tags/${res.body.id}`);
      expect(res.body).toEqual({
        id: res.body.id,
        name: 'Youth',
        color: null,
        created_at: expect.stringMatching(UTC_ISO),
        updated_at: res.body.created_at,
      });

      const fetched = await api.get<Tag>(res.headers.location, as(church));
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(res.body);
      expect(fetched.headers.etag).toBeDefined();
      expect(
        (await api.get(res.headers.location, as(church, { headers: { 'If-None-Match': fetched.headers.etag } })))
          .status,
      ).toBe(304);
    });

    it('takes a color of the list', async () => {
      for (const color of ['blue', 'brown', 'green', 'grey', 'orange', 'pink', 'purple', 'red']) {
        expect((await newTag(api, church, { name: `Color ${color}`, color })).color).toBe(color);
      }
    });

    it('refuses a name the church already has, ignoring case: 409 conflict naming name', async () => {
      await newTag(api, church, { name: 'Volunteers' });
      for (const name of ['Volunteers', 'VOLUNTEERS', ' volunteers ']) {
        const res = await api.post<Problem>('/v1/tags', as(church, { body: { name } }));
        expect({ name, status: res.status, code: res.body.code, errors: issuesOf(res.body) }).toEqual({
          name,
          status: 409,
          code: 'conflict',
          errors: [{ field: 'name', issue: 'duplicate' }],
        });
      }
      expect((await listTags(church, { name: 'volunteers' })).total).toBe(1);
    });

    it('allows the same name in another church', async () => {
      const other = await newTenant(api);
      await newTag(api, church, { name: 'Shared' });
      expect((await api.post('/v1/tags', as(other, { body: { name: 'shared' } }))).status).toBe(201);
    });

    it('validates: name required, at most 50 characters, not blank, not shaped like a tag id; color of the list; no unknown fields', async () => {
      const cases: [JsonObject, { field: string; issue: string }[]][] = [
        [{}, [{ field: 'name', issue: 'required' }]],
        [{ name: 'x'.repeat(51) }, [{ field: 'name', issue: 'too_long' }]],
        [{ name: '   ' }, [{ field: 'name', issue: 'invalid_format' }]],
        [{ name: `tag_${'0'.repeat(32)}` }, [{ field: 'name', issue: 'invalid_format' }]],
        [{ name: 7 }, [{ field: 'name', issue: 'invalid_type' }]],
        [{ name: 'Ok', color: 'yellow' }, [{ field: 'color', issue: 'one_of' }]],
        [{ name: 'Ok', members: 3 }, [{ field: 'members', issue: 'unknown_field' }]],
      ];
      for (const [body, errors] of cases) {
        const res = await api.post<Problem>('/v1/tags', as(church, { body }));
        expect({ body, status: res.status, code: res.body.code, errors: issuesOf(res.body) }).toEqual({
          body,
          status: 422,
          code: 'validation_failed',
          errors,
        });
      }
      expect((await newTag(api, church, { name: 'x'.repeat(50) })).name).toHaveLength(50);
      expect((await newTag(api, church, { name: 'tag_team' })).name).toBe('tag_team');
    });

    it('20 concurrent creates of one name in different cases: one 201, nineteen 409 conflict, one row', async () => {
      const c = await newTenant(api);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          api.post<Tag & Problem>('/v1/tags', as(c, { body: { name: i % 2 ? 'Choir' : 'CHOIR', color: 'red' } })),
        ),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 409 && a.body.code === 'conflict')).toHaveLength(19);
      expect(await api.db.platform.query('SELECT lower(name) AS name FROM tags WHERE tenant_id = $1', [c.id])).toEqual([
        { name: 'choir' },
      ]);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('GET /v1/tags', () => {
    let church: TestTenant;
    const t: Record<string, Tag> = {};

    beforeAll(async () => {
      church = await newTenant(api);
      t.youth = await newTag(api, church, { name: 'Youth', color: 'blue' });
      await sleep(5);
      t.choir = await newTag(api, church, { name: 'Choir' });
      await sleep(5);
      t.band = await newTag(api, church, { name: 'Band', color: 'green' });
    });

    it('lists the church’s tags, oldest first by default', async () => {
      const list = await listTags(church);
      expect(list).toEqual({ data: [t.youth, t.choir, t.band], next_cursor: null, total: 3 });
    });

    it('filters by name (ignoring case) and name[in]', async () => {
      expect((await listTags(church, { name: 'YOUTH' })).data).toEqual([t.youth]);
      expect((await listTags(church, { 'name[in]': 'band,CHOIR' })).data.map((x) => x.name).sort()).toEqual([
        'Band',
        'Choir',
      ]);
      expect(await listTags(church, { name: 'nobody' })).toEqual({ data: [], next_cursor: null, total: 0 });
    });

    it('filters by created_at[…] and updated_at[…]', async () => {
      expect((await listTags(church, { 'created_at[gt]': t.youth.created_at })).data.map((x) => x.id)).toEqual([
        t.choir.id,
        t.band.id,
      ]);
      expect((await listTags(church, { 'created_at[lte]': t.choir.created_at })).data.map((x) => x.id)).toEqual([
        t.youth.id,
        t.choir.id,
      ]);
      expect((await listTags(church, { 'updated_at[gte]': t.band.updated_at })).data.map((x) => x.id)).toEqual([
        t.band.id,
      ]);
      expect((await listTags(church, { 'updated_at[lt]': t.youth.updated_at })).total).toBe(0);
    });

    it('sorts by name and -created_at, and pages with a cursor', async () => {
      expect((await listTags(church, { sort: 'name' })).data.map((x) => x.name)).toEqual(['Band', 'Choir', 'Youth']);
      expect((await listTags(church, { sort: '-name' })).data.map((x) => x.name)).toEqual(['Youth', 'Choir', 'Band']);
      expect((await listTags(church, { sort: '-created_at' })).data.map((x) => x.id)).toEqual([
        t.band.id,
        t.choir.id,
        t.youth.id,
      ]);
      const first = await listTags(church, { limit: '2' });
      expect(first.data).toHaveLength(2);
      const second = await listTags(church, { limit: '2', cursor: first.next_cursor! });
      expect(second).toEqual({ data: [t.band], next_cursor: null, total: 3 });
    });

    itRefusesBadListParams(
      () => api,
      '/v1/tags',
      () => as(church),
      [
        [{ color: 'blue' }, 'color'],
        [{ sort: 'color' }, 'sort'],
        [{ 'name[gt]': 'a' }, 'name[gt]'],
      ],
    );
  });

  // -------------------------------------------------------------------------------------------
  describe('PATCH and DELETE /v1/tags/{id}', () => {
    let church: TestTenant;

    beforeAll(async () => {
      church = await newTenant(api);
    });

    it('renames and recolors; members show the new name; updated_at advances', async () => {
      const tag = await newTag(api, church, { name: 'Old Name', color: 'red' });
      const member = await newMember(api, church);
      await tagMember(church, member.id, tag.id);
      await sleep(5);
      const res = await api.patch<Tag>(`/v1/tags/${tag.id}`, as(church, { body: { name: 'New Name', color: null } }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...tag, name: 'New Name', color: null, updated_at: res.body.updated_at });
      expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(tag.updated_at));
      expect((await api.get<Member>(`/v1/members/${member.id}`, as(church))).body.tags).toEqual([
        { id: tag.id, name: 'New Name' },
      ]);
      expect((await listMembers(church, { tag: 'new name' })).data.map((m) => m.tags)).toEqual([
        [{ id: tag.id, name: 'New Name' }],
      ]);
      expect((await listMembers(church, { tag: 'Old Name' })).total).toBe(0);
    });

    it('refuses a rename to a name taken ignoring case (409), accepts a change of case of its own name', async () => {
      await newTag(api, church, { name: 'Taken' });
      const tag = await newTag(api, church, { name: 'Mine' });
      const res = await api.patch<Problem>(`/v1/tags/${tag.id}`, as(church, { body: { name: 'TAKEN' } }));
      expect([res.status, res.body.code, issuesOf(res.body)]).toEqual([
        409,
        'conflict',
        [{ field: 'name', issue: 'duplicate' }],
      ]);
      expect((await api.get<Tag>(`/v1/tags/${tag.id}`, as(church))).body.name).toBe('Mine');
      const recased = await api.patch<Tag>(`/v1/tags/${tag.id}`, as(church, { body: { name: 'MINE' } }));
      expect([recased.status, recased.body.name]).toEqual([200, 'MINE']);
    });

    it('validates the body (422)', async () => {
      const tag = await newTag(api, church, { name: 'Valid' });
      for (const [body, error] of [
        [{ name: null }, { field: 'name', issue: 'required' }],
        [{ name: 'y'.repeat(51) }, { field: 'name', issue: 'too_long' }],
        [{ color: 'teal' }, { field: 'color', issue: 'one_of' }],
        [{ key: 'x' }, { field: 'key', issue: 'unknown_field' }],
      ] as [JsonObject, { field: string; issue: string }][]) {
        const res = await api.patch<Problem>(`/v1/tags/${tag.id}`, as(church, { body }));
        expect({ body, status: res.status, errors: issuesOf(res.body) }).toEqual({
          body,
          status: 422,
          errors: [error],
        });
      }
    });

    it('DELETE takes the tag off every member at once: 204, no tag.removed per member, members updated_at advances, name free again', async () => {
      const tag = await newTag(api, church, { name: 'Doomed' });
      const keep = await newTag(api, church, { name: 'Kept' });
      const ids = await newMembers(
        api,
        church,
        Array.from({ length: 5 }, (_, i) => ({ first_name: `D${i}`, last_name: 'Doom' })),
      );
      for (const id of ids) await tagMember(church, id, 'Doomed');
      await tagMember(church, ids[0], 'Kept');
      const before = await api.get<Member>(`/v1/members/${ids[0]}`, as(church));
      const removedBefore = (await eventsOf(church, 'tag.removed')).length;
      await sleep(5);

      const res = await api.delete(`/v1/tags/${tag.id}`, as(church));
      expect(res.status).toBe(204);
      expect((await api.get<Problem>(`/v1/tags/${tag.id}`, as(church))).status).toBe(404);
      expect((await listMembers(church, { tag: 'Doomed' })).total).toBe(0);
      const after = await api.get<Member>(`/v1/members/${ids[0]}`, as(church));
      expect(after.body.tags).toEqual([refOf(keep)]);
      expect(Date.parse(after.body.updated_at)).toBeGreaterThan(Date.parse(before.body.updated_at));
      expect(
        (await listMembers(church, { 'created_at[gte]': '2000-01-01', q: 'Doom' })).data.every((m) =>
          m.tags.every((t) => t.id !== tag.id),
        ),
      ).toBe(true);
      expect(
        await api.db.platform.query('SELECT count(*)::int AS n FROM member_tags WHERE tenant_id = $1 AND tag_id = $2', [
          church.id,
          uuidOf(tag.id),
        ]),
      ).toEqual([{ n: 0 }]);
      expect((await eventsOf(church, 'tag.removed')).length).toBe(removedBefore);

      expect((await api.delete(`/v1/tags/${tag.id}`, as(church))).status).toBe(404);
      expect((await api.post('/v1/tags', as(church, { body: { name: 'doomed' } }))).status).toBe(201);
    });

    it('answers 404 to unknown and malformed ids', async () => {
      for (const id of [`tag_${'0'.repeat(32)}`, 'tag_123', `mem_${'a'.repeat(32)}`, 'Youth']) {
        for (const method of ['GET', 'PATCH', 'DELETE']) {
          const res = await api.send<Problem>(
            method,
            `/v1/tags/${id}`,
            as(church, method === 'PATCH' ? { body: { color: 'red' } } : {}),
          );
          expect({ id, method, status: res.status, code: res.body.code }).toEqual({
            id,
            method,
            status: 404,
            code: 'resource_not_found',
          });
        }
      }
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('PUT and DELETE /v1/members/{id}/tags/{tag}', () => {
    let church: TestTenant;
    let youth: Tag;
    let band: Tag;

    beforeAll(async () => {
      church = await newTenant(api);
      youth = await newTag(api, church, { name: 'Youth', color: 'blue' });
      band = await newTag(api, church, { name: 'band' });
    });

    it('a new member has no tags', async () => {
      const member = await newMember(api, church);
      expect(member.tags).toEqual([]);
      expect((await api.get<Member>(`/v1/members/${member.id}`, as(church))).body.tags).toEqual([]);
    });

    it('PUT by id or by name (ignoring case): 200 with the member, tags by name, tag.added with {tag, member}', async () => {
      const member = await newMember(api, church, { first_name: 'María', last_name: 'González' });
      await sleep(5);
      const res = await api.put<Member>(`/v1/members/${member.id}/tags/${youth.id}`, as(church));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...member, tags: [refOf(youth)], updated_at: res.body.updated_at });
      expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(member.updated_at));

      const second = await api.put<Member>(`/v1/members/${member.id}/tags/BAND`, as(church));
      expect(second.status).toBe(200);
      expect(second.body.tags).toEqual([refOf(band), refOf(youth)]);
      expect((await api.get<Member>(`/v1/members/${member.id}`, as(church))).body).toEqual(second.body);

      const events = (await eventsOf(church, 'tag.added')).filter((e) => e.data.object.member.id === member.id);
      expect(events.map((e) => e.data.object).reverse()).toEqual([
        { tag: refOf(youth), member: { id: member.id, first_name: 'María', last_name: 'González' } },
        { tag: refOf(band), member: { id: member.id, first_name: 'María', last_name: 'González' } },
      ]);
    });

    it('a name with spaces and accents works percent-encoded', async () => {
      const tag = await newTag(api, church, { name: 'Jóvenes adultos' });
      const member = await newMember(api, church);
      expect((await tagMember(church, member.id, 'jóvenes ADULTOS')).tags).toEqual([refOf(tag)]);
    });

    it('PUT of a tag the member has changes nothing and raises nothing', async () => {
      const member = await newMember(api, church);
      const first = await tagMember(church, member.id, 'Youth');
      const added = (await eventsOf(church, 'tag.added')).length;
      const again = await api.put<Member>(`/v1/members/${member.id}/tags/${youth.id}`, as(church));
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first);
      expect((await eventsOf(church, 'tag.added')).length).toBe(added);
    });

    it('DELETE: 204 and tag.removed when the member had it; 204 and nothing when not', async () => {
      const member = await newMember(api, church, { first_name: 'Luis', last_name: 'Paz' });
      await tagMember(church, member.id, 'Youth');
      await tagMember(church, member.id, 'band');
      const removed = (await eventsOf(church, 'tag.removed')).length;

      const res = await api.delete(`/v1/members/${member.id}/tags/youth`, as(church));
      expect(res.status).toBe(204);
      expect((await api.get<Member>(`/v1/members/${member.id}`, as(church))).body.tags).toEqual([refOf(band)]);
      const events = await eventsOf(church, 'tag.removed');
      expect(events.length).toBe(removed + 1);
      expect(events[0].data.object).toEqual({
        tag: refOf(youth),
        member: { id: member.id, first_name: 'Luis', last_name: 'Paz' },
      });

      expect((await api.delete(`/v1/members/${member.id}/tags/${youth.id}`, as(church))).status).toBe(204);
      expect((await eventsOf(church, 'tag.removed')).length).toBe(removed + 1);
    });

    it('an unknown tag is a 404, and so is an unknown member; nothing changes', async () => {
      const member = await newMember(api, church);
      for (const tag of ['Nobody', `tag_${'0'.repeat(32)}`, 'x'.repeat(300), 'a%00b']) {
        for (const method of ['PUT', 'DELETE']) {
          const res = await api.send<Problem>(method, `/v1/members/${member.id}/tags/${tag}`, as(church));
          expect({ tag, method, status: res.status, code: res.body.code }).toEqual({
            tag,
            method,
            status: 404,
            code: 'resource_not_found',
          });
        }
      }
      for (const id of [`mem_${'0'.repeat(32)}`, 'mem_1', youth.id]) {
        const res = await api.put<Problem>(`/v1/members/${id}/tags/Youth`, as(church));
        expect({ id, status: res.status, code: res.body.code }).toEqual({
          id,
          status: 404,
          code: 'resource_not_found',
        });
      }
      const deleted = await newMember(api, church);
      expect((await api.delete(`/v1/members/${deleted.id}`, as(church))).status).toBe(204);
      expect((await api.put<Problem>(`/v1/members/${deleted.id}/tags/Youth`, as(church))).status).toBe(404);
      expect((await api.get<Member>(`/v1/members/${member.id}`, as(church))).body.tags).toEqual([]);
    });

    it('10 concurrent PUTs of one tag on one member: all 200, one row, one tag.added', async () => {
      const c = await newTenant(api);
      const tag = await newTag(api, c, { name: 'Race' });
      const member = await newMember(api, c);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          api.put<Member>(`/v1/members/${member.id}/tags/${i % 2 ? tag.id : 'race'}`, as(c)),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      expect(answers.every((a) => a.body.tags.length === 1)).toBe(true);
      expect(await memberTagRows(c)).toBe(1);
      expect(await eventsOf(c, 'tag.added')).toHaveLength(1);
    });

    it('a tag deleted while members are being tagged: no error but 404, and no row left for the deleted tag', async () => {
      const c = await newTenant(api);
      const tag = await newTag(api, c, { name: 'Fleeting' });
      const ids = await newMembers(
        api,
        c,
        Array.from({ length: 12 }, (_, i) => ({ first_name: `F${i}`, last_name: 'Race' })),
      );
      const answers = await Promise.all([
        ...ids.slice(0, 6).map((id) => api.put<Member>(`/v1/members/${id}/tags/${tag.id}`, as(c))),
        api.delete(`/v1/tags/${tag.id}`, as(c)),
        ...ids.slice(6).map((id) => api.put<Member>(`/v1/members/${id}/tags/${tag.id}`, as(c))),
      ]);
      expect(answers.filter((a) => ![200, 204, 404].includes(a.status)).map((a) => a.status)).toEqual([]);
      expect(answers[6].status).toBe(204);
      expect(await memberTagRows(c)).toBe(0);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('members lists: tags and the tag filter', () => {
    let church: TestTenant;
    let youth: Tag;
    let choir: Tag;
    let ids: string[];

    beforeAll(async () => {
      church = await newTenant(api);
      youth = await newTag(api, church, { name: 'Youth' });
      choir = await newTag(api, church, { name: 'Choir' });
      ids = await newMembers(
        api,
        church,
        Array.from({ length: 6 }, (_, i) => ({ first_name: `M${i}`, last_name: 'List' })),
      );
      await tagMember(church, ids[0], 'Youth');
      await tagMember(church, ids[1], 'Youth');
      await tagMember(church, ids[1], 'Choir');
      await tagMember(church, ids[2], 'Choir');
    });

    it('every member of a page carries its tags', async () => {
      const list = await listMembers(church);
      expect(Object.fromEntries(list.data.map((m) => [m.id, m.tags]))).toEqual({
        [ids[0]]: [refOf(youth)],
        [ids[1]]: [refOf(choir), refOf(youth)],
        [ids[2]]: [refOf(choir)],
        [ids[3]]: [],
        [ids[4]]: [],
        [ids[5]]: [],
      });
    });

    it('tag=<name or id> and tag[in]=a,b filter the list, with exact totals', async () => {
      expect(idsOf(await listMembers(church, { tag: 'Youth' }))).toEqual(sorted([ids[0], ids[1]]));
      expect((await listMembers(church, { tag: 'youth' })).total).toBe(2);
      expect(idsOf(await listMembers(church, { tag: choir.id }))).toEqual(sorted([ids[1], ids[2]]));
      const either = await listMembers(church, { 'tag[in]': `youth,${choir.id}` });
      expect([idsOf(either), either.total]).toEqual([sorted([ids[0], ids[1], ids[2]]), 3]);
      expect(await listMembers(church, { tag: 'Nobody' })).toEqual({ data: [], next_cursor: null, total: 0 });
      expect((await listMembers(church, { tag: 'Youth', sort: '-created_at', limit: '1' })).next_cursor).toEqual(
        expect.any(String),
      );
      const bad = await api.get<Problem>(`/v1/members${qs({ 'tag[gt]': 'a' })}`, as(church));
      expect([bad.status, bad.body.code]).toEqual([400, 'invalid_parameter']);
    });

    it('a tag change renews the cached list: new ETag, new total', async () => {
      const first = await api.get<List<Member>>(`/v1/members${qs({ tag: 'Choir' })}`, as(church));
      expect(first.body.total).toBe(2);
      expect(first.headers.etag).toMatch(/^"v/);
      expect(
        (
          await api.get(
            `/v1/members${qs({ tag: 'Choir' })}`,
            as(church, { headers: { 'If-None-Match': first.headers.etag } }),
          )
        ).status,
      ).toBe(304);
      await tagMember(church, ids[3], 'choir');
      const after = await api.get<List<Member>>(
        `/v1/members${qs({ tag: 'Choir' })}`,
        as(church, { headers: { 'If-None-Match': first.headers.etag } }),
      );
      expect(after.status).toBe(200);
      expect(after.body.total).toBe(3);
      expect(after.body.data.map((m) => m.id)).toContain(ids[3]);
      expect((await api.delete(`/v1/members/${ids[3]}/tags/choir`, as(church))).status).toBe(204);
      expect((await listMembers(church, { tag: 'Choir' })).total).toBe(2);
      expect((await api.get<Member>(`/v1/members/${ids[3]}`, as(church))).body.tags).toEqual([]);
    });

    it('loads the tags of a whole page in one query, never one per member', async () => {
      const c = await newTenant(api);
      const tag = await newTag(api, c, { name: 'Everyone' });
      const members = await newMembers(
        api,
        c,
        Array.from({ length: 40 }, (_, i) => ({ first_name: `P${i}`, last_name: 'Page' })),
      );
      await inTenant(api, c.id, () =>
        TenantContext.current().manager.query(
          `INSERT INTO member_tags (tenant_id, tag_id, member_id) SELECT $1, $2, unnest($3::uuid[])`,
          [c.id, uuidOf(tag.id), members.map(uuidOf)],
        ),
      );
      const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
      try {
        const page = await listMembers(c, { limit: '40' });
        expect(page.data.every((m) => m.tags.length === 1 && m.tags[0].id === tag.id)).toBe(true);
        const tagQueries = spy.mock.calls.map(([sql]) => sql).filter((sql) => /member_tags/.test(sql));
        expect(tagQueries).toHaveLength(1);
      } finally {
        spy.mockRestore();
      }
    });

    it("a page's tag ids come with its page query, their names from the church's tags kept under its list version", async () => {
      const c = await newTenant(api);
      const [first, second] = await newMembers(api, c, [
        { first_name: 'Two', last_name: 'Tags' },
        { first_name: 'No', last_name: 'Tags' },
      ]);
      const [zeta, alpha] = [await newTag(api, c, { name: 'zeta' }), await newTag(api, c, { name: 'Alpha' })];
      await tagMember(c, first, 'zeta');
      await tagMember(c, first, 'alpha');
      await listMembers(c);
      const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
      try {
        const page = await listMembers(c);
        expect(Object.fromEntries(page.data.map((m) => [m.id, m.tags]))).toEqual({
          [first]: [refOf(alpha), refOf(zeta)],
          [second]: [],
        });
        const sqls = spy.mock.calls.map(([sql]) => sql);
        expect(sqls.filter((sql) => /member_tags/.test(sql))).toHaveLength(1); // the page query itself
        expect(sqls.filter((sql) => /FROM "?tags"? /.test(sql))).toEqual([]);
        // A rename renews the list version: the next page reads the names again.
        expect((await api.patch<Tag>(`/v1/tags/${zeta.id}`, as(c, { body: { name: 'Beta' } }))).status).toBe(200);
        expect((await listMembers(c)).data.find((m) => m.id === first)?.tags).toEqual([
          refOf(alpha),
          { id: zeta.id, name: 'Beta' },
        ]);
      } finally {
        spy.mockRestore();
      }
    });

    it("does not see another church's tags or taggings", async () => {
      const other = await newTenant(api);
      const theirs = await newTag(api, other, { name: 'Youth' });
      const theirMember = await newMember(api, other);
      await tagMember(other, theirMember.id, 'youth');
      expect((await listMembers(church, { tag: theirs.id })).total).toBe(0);
      expect(idsOf(await listMembers(church, { tag: 'youth' }))).toEqual(sorted([ids[0], ids[1]]));
      expect((await listMembers(other, { tag: 'youth' })).data.map((m) => m.id)).toEqual([theirMember.id]);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('EXPLAIN: the tag filter is served by member_tags, never a Seq Scan on members', () => {
    const MEMBERS = 6_000;
    let church: TestTenant;

    beforeAll(async () => {
      church = await newTenant(api);
      const rare = await newTag(api, church, { name: 'Rare' });
      const common = await newTag(api, church, { name: 'Common' });
      await inTenant(api, church.id, async () => {
        const { manager } = TenantContext.current();
        await manager.query(
          `INSERT INTO members (tenant_id, id, first_name, last_name, status, active, custom_fields, created_at, updated_at)
           SELECT $1, gen_random_uuid(), 'F' || i, 'L' || (i % 97), 'member', true, '{}', now() - i * interval '1 minute', now()
             FROM generate_series(1, ${MEMBERS}) AS i`,
          [church.id],
        );
        await manager.query(
          `INSERT INTO member_tags (tenant_id, tag_id, member_id)
           SELECT $1, CASE WHEN n % 300 = 0 THEN $2::uuid ELSE $3::uuid END, id
             FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM members WHERE tenant_id = $1) m
            WHERE n % 300 = 0 OR n % 2 = 0`,
          [church.id, uuidOf(rare.id), uuidOf(common.id)],
        );
      });
      await api.db.platform.query('ANALYZE members');
      await api.db.platform.query('ANALYZE member_tags');
      await api.db.platform.query('ANALYZE tags');
    }, 60_000);

    /** The page query the API runs for GET /v1/members with `params`, EXPLAINed as the church's request ran it. */
    async function explain(params: Record<string, string>): Promise<{ plan: PlanNode; rows: number }> {
      const { plan, answer } = await explainQueryOf(api, church.id, () => listMembers(church, params), MEMBERS_PAGE);
      return { plan, rows: answer.data.length };
    }

    const summary = planSummary;

    it.each([
      // A rare tag: its few members are read through (tenant_id, tag_id, member_id).
      [
        'tag=Rare (20 of 6,000)',
        { tag: 'Rare', limit: '50' },
        20,
        /Index Only Scan using member_tags_pkey on member_tags/,
      ],
      // A common tag: along the sort's index, probing (tenant_id, member_id, tag_id), or from member_tags.
      ['tag=common (half)', { tag: 'common', limit: '50' }, 50, /member_tags_(pkey|tenant_member_idx) on member_tags/],
      [
        'tag[in]=rare,common sorted by last_name',
        { 'tag[in]': `rare,common`, sort: 'last_name', limit: '50' },
        50,
        /member_tags_(pkey|tenant_member_idx) on member_tags/,
      ],
    ])('%s', async (_label, params, expected, index) => {
      const { plan, rows } = await explain(params);
      expect(rows).toBe(expected);
      const scans = nodesOf(plan).filter(
        (n) => n['Relation Name'] === 'members' || n['Relation Name'] === 'member_tags',
      );
      expect({ plan: summary(plan), seqScans: scans.filter((n) => n['Node Type'] === 'Seq Scan').length }).toEqual({
        plan: summary(plan),
        seqScans: 0,
      });
      expect(summary(plan)).toMatch(index);
    });

    it('the API answers the same filter', async () => {
      const res = await listMembers(church, { tag: 'Rare', limit: '50' });
      expect(res.total).toBe(20);
      expect(res.data.every((m) => m.tags.some((t) => t.name === 'Rare'))).toBe(true);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('tenant isolation and scopes', () => {
    let a: TestTenant;
    let b: TestTenant;
    let aTag: Tag;
    let aMember: Member;
    let bMember: Member;

    beforeAll(async () => {
      a = await newTenant(api);
      b = await newTenant(api);
      aTag = await newTag(api, a, { name: 'Ours' });
      aMember = await newMember(api, a);
      bMember = await newMember(api, b);
      await newTag(api, b, { name: 'Theirs' });
    });

    it("answers 404 to another church's tag on every route, and to another church's member", async () => {
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const res = await api.send<Problem>(
          method,
          `/v1/tags/${aTag.id}`,
          as(b, method === 'PATCH' ? { body: { name: 'Hijack' } } : {}),
        );
        expect({ method, status: res.status, code: res.body.code }).toEqual({
          method,
          status: 404,
          code: 'resource_not_found',
        });
      }
      for (const method of ['PUT', 'DELETE']) {
        for (const path of [
          `/v1/members/${bMember.id}/tags/${aTag.id}`,
          `/v1/members/${bMember.id}/tags/Ours`,
          `/v1/members/${aMember.id}/tags/Theirs`,
        ]) {
          const res = await api.send<Problem>(method, path, as(b));
          expect({ method, path, status: res.status, code: res.body.code }).toEqual({
            method,
            path,
            status: 404,
            code: 'resource_not_found',
          });
        }
      }
      expect((await api.get<Tag>(`/v1/tags/${aTag.id}`, as(a))).body).toEqual(aTag);
      expect((await listTags(b)).data.map((t) => t.name)).toEqual(['Theirs']);
      expect(await memberTagRows(a)).toBe(0);
      expect(await memberTagRows(b)).toBe(0);
    });

    it('read:members reads tags; writing needs write:members (403 naming it)', async () => {
      const { token } = await newToken(api, a, ['read:members']);
      expect((await api.get(`/v1/tags`, { token, tenant: a.slug })).status).toBe(200);
      expect((await api.get(`/v1/tags/${aTag.id}`, { token, tenant: a.slug })).status).toBe(200);
      const writes: [string, string, JsonObject | undefined][] = [
        ['POST', '/v1/tags', { name: 'Nope' }],
        ['PATCH', `/v1/tags/${aTag.id}`, { name: 'Nope' }],
        ['DELETE', `/v1/tags/${aTag.id}`, undefined],
        ['PUT', `/v1/members/${aMember.id}/tags/Ours`, undefined],
        ['DELETE', `/v1/members/${aMember.id}/tags/Ours`, undefined],
      ];
      for (const [method, path, body] of writes) {
        const res = await api.send<Problem>(method, path, { token, tenant: a.slug, body });
        expect({
          method,
          path,
          status: res.status,
          code: res.body.code,
          detail: res.body.detail?.includes('write:members'),
        }).toEqual({
          method,
          path,
          status: 403,
          code: 'scope_insufficient',
          detail: true,
        });
      }
    });

    it('write:members alone cannot read tags; campuses scopes grant nothing here', async () => {
      const writer = await newToken(api, a, ['write:members']);
      const list = await api.get<Problem>('/v1/tags', { token: writer.token, tenant: a.slug });
      expect([list.status, list.body.code]).toEqual([403, 'scope_insufficient']);
      expect(
        (await api.put(`/v1/members/${aMember.id}/tags/Ours`, { token: writer.token, tenant: a.slug })).status,
      ).toBe(200);
      const campuses = await newToken(api, a, ['read:campuses', 'write:campuses']);
      expect((await api.get('/v1/tags', { token: campuses.token, tenant: a.slug })).status).toBe(403);
      expect((await api.post('/v1/tags', { token: campuses.token, tenant: a.slug, body: { name: 'X' } })).status).toBe(
        403,
      );
    });
  });
});
