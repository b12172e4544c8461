import { randomUUID } from 'node:crypto';
import { TenantContext } from '../../src/common/context/tenant-context';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import { ID_PREFIX, parsePublicId, toPublicId } from '../../src/common/ids/id';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import { TokensService } from '../../src/platform/auth/tokens.service';
import type { UserEntity } from '../../src/platform/users/user.entity';
import { JsonObject, TestApi } from '../support/api';
import {
  cancelPendingDeliveries,
  inTenant,
  newMember,
  newPrayerRequest,
  newTenant,
  newToken,
  TestTenant,
} from '../support/factories';
import { sleep } from '../support/wait';
import { as, itRefusesBadListParams, qs, sortedIssuesOf } from '../support/http';
import type { PrayerRequestResponse as PrayerRequest } from '../../src/modules/prayer-requests/dto/prayer-request.response';
import type { WebhookEventResponse } from '../../src/modules/webhook-endpoints/dto/webhook-event.response';
import { newCampus } from '../support/factories';

// ---------------------------------------------------------------------------------------------
// Types and small helpers
// ---------------------------------------------------------------------------------------------

type WebhookEvent = WebhookEventResponse & { data: { object: PrayerRequest } };
interface Staff {
  token: string;
  user: UserEntity;
}

const PRQ_ID = /^prq_[0-9a-f]{32}$/;
const UTC_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PRAYER_SCOPES = ['read:prayer_requests', 'write:prayer_requests'] as const;

const ids = (list: List<PrayerRequest>) => list.data.map((p) => p.id);

async function list(
  api: TestApi,
  church: TestTenant,
  token: string,
  params: Record<string, string> = {},
): Promise<List<PrayerRequest>> {
  const res = await api.get<List<PrayerRequest>>(`/v1/prayer-requests${qs(params)}`, as(token, church));
  if (res.status !== 200) throw new Error(`list failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Every page of a list, `limit` rows at a time. */
async function listAll(
  api: TestApi,
  church: TestTenant,
  token: string,
  params: Record<string, string>,
  limit: number,
): Promise<{ pages: List<PrayerRequest>[]; ids: string[] }> {
  const pages: List<PrayerRequest>[] = [];
  let cursor: string | null = null;
  do {
    const page = await list(api, church, token, { ...params, limit: String(limit), ...(cursor ? { cursor } : {}) });
    pages.push(page);
    cursor = page.next_cursor;
  } while (cursor && pages.length < 50);
  return { pages, ids: pages.flatMap(ids) };
}

/** A staff user of `role` with a PAT holding the prayer scopes. */
async function staff(api: TestApi, church: TestTenant, role: 'staff' | 'org_admin' = 'staff'): Promise<Staff> {
  const { token, user } = await newToken(api, church, [...PRAYER_SCOPES], role);
  return { token, user };
}

async function eventsOf(api: TestApi, church: TestTenant, type: string, id: string): Promise<WebhookEvent[]> {
  const res = await api.get<List<WebhookEvent>>(`/v1/webhook-events?type=${type}&limit=250`, as(church.token, church));
  expect(res.status).toBe(200);
  return res.body.data.filter((e) => e.data.object.id === id);
}

/** The stored row, read inside the church's RLS transaction. */
async function storedRow(api: TestApi, church: TestTenant, id: string) {
  const rows = await inTenant(api, church.id, () =>
    TenantContext.current().manager.query<
      { answer: string | null; answered_at: Date | null; deleted_at: Date | null; visibility: string }[]
    >('SELECT answer, answered_at, deleted_at, visibility FROM prayer_requests WHERE tenant_id = $1 AND id = $2', [
      church.id,
      parsePublicId(ID_PREFIX.prayerRequest, id),
    ]),
  );
  return rows[0];
}

// ---------------------------------------------------------------------------------------------

describe('prayer requests', () => {
  let api: TestApi;
  const churches: TestTenant[] = [];
  const newChurch = async () => {
    const church = await newTenant(api);
    churches.push(church);
    return church;
  };

  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(async () => {
    await cancelPendingDeliveries(
      api,
      churches.map((c) => c.id),
    );
    await api.close();
  });

  // -------------------------------------------------------------------------------------------
  describe('create and read', () => {
    let church: TestTenant;
    let author: Staff;

    beforeAll(async () => {
      church = await newChurch();
      author = await staff(api, church);
      const campus = await api.post(
        '/v1/campuses',
        as(church.token, church, { body: { key: 'north', name: 'North Campus' } }),
      );
      expect(campus.status).toBe(201);
    });

    it('creates a request by name: 201, Location, prq_ id, defaults, created_by the token user; GET returns it with an ETag', async () => {
      const before = Date.now();
      const res = await api.post<PrayerRequest>(
        '/v1/prayer-requests',
        as(author.token, church, { body: { request: '  For my job interview on Monday.  ', name: 'Ana' } }),
      );

      expect(res.status).toBe(201);
      expect(res.body.id).toMatch(PRQ_ID);
      expect(res.headers.location).toBe(`/v1/prayer-requests/${res.body.id}`);
      expect(res.body).toEqual({
        id: res.body.id,
        request: 'For my job interview on Monday.',
        member: null,
        name: 'Ana',
        visibility: 'staff',
        urgent: false,
        campus: null,
        answered_at: null,
        answer: null,
        created_by: toPublicId(ID_PREFIX.user, author.user.id),
        created_at: expect.stringMatching(UTC_ISO),
        updated_at: res.body.created_at,
      });
      expect(Date.parse(res.body.created_at)).toBeGreaterThanOrEqual(before - 1000);

      const fetched = await api.get<PrayerRequest>(res.headers.location, as(author.token, church));
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(res.body);
      expect(fetched.headers.etag).toBeDefined();
      const again = await api.get(
        res.headers.location,
        as(author.token, church, { headers: { 'If-None-Match': fetched.headers.etag } }),
      );
      expect(again.status).toBe(304);
    });

    it('creates a request for a member, urgent, public, on a campus (by key or cmp_ id): member and campus as references', async () => {
      const memberId = await newMember(api, church, { first_name: 'María', last_name: 'González' }).then((m) => m.id);
      const created = await newPrayerRequest(
        api,
        church,
        {
          request: 'Healing',
          member_id: memberId,
          urgent: true,
          visibility: 'public',
          campus: 'north',
        },
        { token: author.token },
      );
      expect(created).toMatchObject({
        member: { id: memberId, first_name: 'María', last_name: 'González' },
        name: null,
        urgent: true,
        visibility: 'public',
        campus: { id: expect.stringMatching(/^cmp_/), key: 'north', name: 'North Campus' },
      });
      const byId = await newPrayerRequest(
        api,
        church,
        {
          request: 'Peace',
          member_id: memberId,
          name: 'María G.',
          campus: created.campus!.id,
        },
        { token: author.token },
      );
      expect(byId.campus).toEqual(created.campus);
      expect(byId.name).toBe('María G.');
      expect(
        (await api.get<PrayerRequest>(`/v1/prayer-requests/${created.id}`, as(author.token, church))).body,
      ).toEqual(created);
    });

    it('honours Idempotency-Key: a replay returns the same request and creates nothing more', async () => {
      const key = randomUUID();
      const first = await api.post<PrayerRequest>(
        '/v1/prayer-requests',
        as(author.token, church, { body: { request: 'Once', name: 'Idem' }, headers: { 'Idempotency-Key': key } }),
      );
      const second = await api.post<PrayerRequest>(
        '/v1/prayer-requests',
        as(author.token, church, { body: { request: 'Once', name: 'Idem' }, headers: { 'Idempotency-Key': key } }),
      );
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.body.id).toBe(first.body.id);
      expect((await eventsOf(api, church, 'prayer_request.created', first.body.id)).length).toBe(1);
    });

    it('answers unknown and malformed ids with 404 resource_not_found', async () => {
      const created = await newPrayerRequest(api, church, { request: 'Ids', name: 'X' }, { token: author.token });
      const hex = created.id.slice(4);
      for (const id of [`prq_${'0'.repeat(32)}`, 'prq_123', `mem_${hex}`, `prq_${hex.toUpperCase()}`]) {
        const res = await api.get<Problem>(`/v1/prayer-requests/${id}`, as(author.token, church));
        expect({ id, status: res.status, code: res.body.code }).toEqual({
          id,
          status: 404,
          code: 'resource_not_found',
        });
      }
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('validation', () => {
    let church: TestTenant;
    let author: Staff;
    let memberId: string;

    beforeAll(async () => {
      church = await newChurch();
      author = await staff(api, church);
      memberId = await newMember(api, church, { first_name: 'Val', last_name: 'Idation' }).then((m) => m.id);
    });

    const refuses = async (body: JsonObject, expected: { field: string; issue: string }[]) => {
      const res = await api.post<Problem>('/v1/prayer-requests', as(author.token, church, { body }));
      expect({ body, status: res.status, code: res.body.code, errors: sortedIssuesOf(res.body) }).toEqual({
        body,
        status: 422,
        code: 'validation_failed',
        errors: expected,
      });
    };

    it('names every bad field: missing request, too long, neither member_id nor name, bad visibility', async () => {
      await refuses({ name: 'A' }, [{ field: 'request', issue: 'required' }]);
      await refuses({ request: 'x'.repeat(4001), name: 'A' }, [{ field: 'request', issue: 'too_long' }]);
      await refuses({ request: 'Alone' }, [
        { field: 'member_id', issue: 'required' },
        { field: 'name', issue: 'required' },
      ]);
      await refuses({ request: 'Hidden', name: 'A', visibility: 'secret' }, [{ field: 'visibility', issue: 'one_of' }]);
      await refuses({ visibility: 'everyone', urgent: 'yes', answer: 'Done' }, [
        { field: 'answer', issue: 'unknown_field' },
        { field: 'request', issue: 'required' },
        { field: 'urgent', issue: 'invalid_type' },
        { field: 'visibility', issue: 'one_of' },
      ]);
      await refuses({ request: 7, name: ['A'], member_id: 5, campus: false }, [
        { field: 'campus', issue: 'invalid_type' },
        { field: 'member_id', issue: 'invalid_type' },
        { field: 'name', issue: 'invalid_type' },
        { field: 'request', issue: 'invalid_type' },
      ]);
      await refuses({ request: '   ', name: '   ' }, [
        { field: 'member_id', issue: 'required' },
        { field: 'name', issue: 'required' },
        { field: 'request', issue: 'required' },
      ]);
      expect((await list(api, church, author.token)).total).toBe(0);

      const longest = await newPrayerRequest(
        api,
        church,
        { request: 'x'.repeat(4000), name: 'A' },
        { token: author.token },
      );
      expect(longest.request.length).toBe(4000);
    });

    it('refuses a member_id that is not a live member of the church (422 not_found on member_id) and an unknown campus', async () => {
      const other = await newChurch();
      const theirs = await newMember(api, other, { first_name: 'Their', last_name: 'Member' }).then((m) => m.id);
      const deleted = await newMember(api, church, { first_name: 'Gone', last_name: 'Member' }).then((m) => m.id);
      expect((await api.delete(`/v1/members/${deleted}`, as(church.token, church))).status).toBe(204);
      for (const member_id of [theirs, deleted, `mem_${'0'.repeat(32)}`, 'mem_123', `prq_${memberId.slice(4)}`]) {
        await refuses({ request: 'Who?', member_id }, [{ field: 'member_id', issue: 'not_found' }]);
      }
      await refuses({ request: 'Where?', member_id: memberId, campus: 'nowhere' }, [
        { field: 'campus', issue: 'not_found' },
      ]);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('PATCH and DELETE', () => {
    let church: TestTenant;
    let author: Staff;

    beforeAll(async () => {
      church = await newChurch();
      author = await staff(api, church);
      await newCampus(api, church, { key: 'south', name: 'South' });
    });

    it('changes request, name, member_id, visibility, urgent and campus; advances updated_at', async () => {
      const memberId = await newMember(api, church, { first_name: 'Pat', last_name: 'Ch' }).then((m) => m.id);
      const created = await newPrayerRequest(
        api,
        church,
        { request: 'First', name: 'Someone' },
        { token: author.token },
      );
      await sleep(15);
      const res = await api.patch<PrayerRequest>(
        `/v1/prayer-requests/${created.id}`,
        as(author.token, church, {
          body: {
            request: 'Second',
            member_id: memberId,
            name: null,
            visibility: 'public',
            urgent: true,
            campus: 'south',
          },
        }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...created,
        request: 'Second',
        member: { id: memberId, first_name: 'Pat', last_name: 'Ch' },
        name: null,
        visibility: 'public',
        urgent: true,
        campus: { id: expect.stringMatching(/^cmp_/), key: 'south', name: 'South' },
        updated_at: res.body.updated_at,
      });
      expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));
      expect(
        (await api.get<PrayerRequest>(`/v1/prayer-requests/${created.id}`, as(author.token, church))).body,
      ).toEqual(res.body);

      const cleared = await api.patch<PrayerRequest>(
        `/v1/prayer-requests/${created.id}`,
        as(author.token, church, { body: { campus: null } }),
      );
      expect(cleared.body.campus).toBeNull();
    });

    it('refuses answer fields, cleared required fields, an unknown member and leaving neither member_id nor name (and changes nothing)', async () => {
      const created = await newPrayerRequest(
        api,
        church,
        { request: 'Keep', name: 'Only name' },
        { token: author.token },
      );
      const cases: [JsonObject, { field: string; issue: string }[]][] = [
        [{ answer: 'Sneaky' }, [{ field: 'answer', issue: 'unknown_field' }]],
        [{ answered_at: '2026-01-01T00:00:00Z' }, [{ field: 'answered_at', issue: 'unknown_field' }]],
        [{ request: null }, [{ field: 'request', issue: 'required' }]],
        [
          { visibility: null, urgent: null },
          [
            { field: 'urgent', issue: 'required' },
            { field: 'visibility', issue: 'required' },
          ],
        ],
        [{ visibility: 'everyone' }, [{ field: 'visibility', issue: 'one_of' }]],
        [{ request: 'y'.repeat(4001) }, [{ field: 'request', issue: 'too_long' }]],
        [
          { name: null },
          [
            { field: 'member_id', issue: 'required' },
            { field: 'name', issue: 'required' },
          ],
        ],
        [{ member_id: `mem_${'0'.repeat(32)}` }, [{ field: 'member_id', issue: 'not_found' }]],
      ];
      for (const [body, errors] of cases) {
        const res = await api.patch<Problem>(`/v1/prayer-requests/${created.id}`, as(author.token, church, { body }));
        expect({ body, status: res.status, code: res.body.code, errors: sortedIssuesOf(res.body) }).toEqual({
          body,
          status: 422,
          code: 'validation_failed',
          errors,
        });
      }
      expect(
        (await api.get<PrayerRequest>(`/v1/prayer-requests/${created.id}`, as(author.token, church))).body,
      ).toEqual(created);
    });

    it('soft-deletes: 204, then 404 everywhere and gone from the list; the row stays with deleted_at', async () => {
      const created = await newPrayerRequest(api, church, { request: 'Delete me', name: 'D' }, { token: author.token });
      const path = `/v1/prayer-requests/${created.id}`;
      expect((await api.delete(path, as(author.token, church))).status).toBe(204);
      const after = [
        await api.get<Problem>(path, as(author.token, church)),
        await api.patch<Problem>(path, as(author.token, church, { body: { urgent: true } })),
        await api.post<Problem>(`${path}/answer`, as(author.token, church, { body: { answer: 'Late' } })),
        await api.delete<Problem>(path, as(author.token, church)),
      ];
      expect(after.map((r) => [r.status, r.body.code])).toEqual(Array(4).fill([404, 'resource_not_found']));
      expect(ids(await list(api, church, author.token))).not.toContain(created.id);
      expect((await storedRow(api, church, created.id)).deleted_at).toBeInstanceOf(Date);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('visibility', () => {
    let church: TestTenant;
    let author: Staff;
    let authorSecondToken: string;
    let otherStaff: Staff;
    let orgAdmin: Staff;
    let secret: PrayerRequest;
    let shared: PrayerRequest[];
    let othersSecret: PrayerRequest;

    beforeAll(async () => {
      church = await newChurch();
      author = await staff(api, church);
      otherStaff = await staff(api, church);
      orgAdmin = await staff(api, church, 'org_admin');
      // A second token of the same staff user (an OAuth access token is another): "whatever token they use".
      authorSecondToken = (
        await inTenant(api, church.id, () =>
          api.app
            .get(TokensService)
            .issue({ type: 'pat', name: 'author second', scopes: [...PRAYER_SCOPES], creator: author.user }),
        )
      ).value;
      shared = [];
      shared.push(await newPrayerRequest(api, church, { request: 'Shared 1', name: 'S1' }, { token: author.token }));
      secret = await newPrayerRequest(
        api,
        church,
        { request: 'Only me', name: 'P', visibility: 'private' },
        { token: author.token },
      );
      shared.push(
        await newPrayerRequest(
          api,
          church,
          { request: 'Shared 2', name: 'S2', visibility: 'public' },
          { token: otherStaff.token },
        ),
      );
      othersSecret = await newPrayerRequest(
        api,
        church,
        {
          request: 'Other secret',
          name: 'Q',
          visibility: 'private',
        },
        { token: otherStaff.token },
      );
      shared.push(
        await newPrayerRequest(api, church, { request: 'Shared 3', name: 'S3', urgent: true }, { token: author.token }),
      );
    });

    it("the author sees their private request with any of their tokens; another staff user's private one is 404 to them", async () => {
      for (const token of [author.token, authorSecondToken]) {
        const res = await api.get<PrayerRequest>(`/v1/prayer-requests/${secret.id}`, as(token, church));
        expect(res.status).toBe(200);
        expect(res.body).toEqual(secret);
      }
      const hidden = await api.get<Problem>(`/v1/prayer-requests/${othersSecret.id}`, as(author.token, church));
      expect([hidden.status, hidden.body.code]).toEqual([404, 'resource_not_found']);
    });

    it('another staff user gets 404 on every route of a private request, and changes nothing', async () => {
      const path = `/v1/prayer-requests/${secret.id}`;
      const answers = [
        await api.get<Problem>(path, as(otherStaff.token, church)),
        await api.patch<Problem>(path, as(otherStaff.token, church, { body: { visibility: 'staff' } })),
        await api.post<Problem>(`${path}/answer`, as(otherStaff.token, church, { body: { answer: 'Peeked' } })),
        await api.delete<Problem>(path, as(otherStaff.token, church)),
      ];
      expect(answers.map((r) => [r.status, r.body.code])).toEqual(Array(4).fill([404, 'resource_not_found']));
      expect(await storedRow(api, church, secret.id)).toEqual({
        answer: null,
        answered_at: null,
        deleted_at: null,
        visibility: 'private',
      });
    });

    it('an org_admin sees every private request, by id and in lists', async () => {
      for (const p of [secret, othersSecret])
        expect((await api.get<PrayerRequest>(`/v1/prayer-requests/${p.id}`, as(orgAdmin.token, church))).body).toEqual(
          p,
        );
      const all = await list(api, church, orgAdmin.token);
      expect(ids(all)).toEqual([shared[0].id, secret.id, shared[1].id, othersSecret.id, shared[2].id]);
      expect(all.total).toBe(5);
    });

    it('lists and totals hold only what the caller may see, also page by page (the rule is in the WHERE clause)', async () => {
      const expectations: [string, string[]][] = [
        [author.token, [shared[0].id, secret.id, shared[1].id, shared[2].id]],
        [authorSecondToken, [shared[0].id, secret.id, shared[1].id, shared[2].id]],
        [otherStaff.token, [shared[0].id, shared[1].id, othersSecret.id, shared[2].id]],
      ];
      for (const [token, expected] of expectations) {
        const whole = await list(api, church, token);
        expect(ids(whole)).toEqual(expected);
        expect(whole.total).toBe(4);
        const paged = await listAll(api, church, token, {}, 1);
        expect(paged.ids).toEqual(expected);
        // A post-filter would leave empty pages or short totals; every page has one row and the same total.
        expect(paged.pages.map((p) => [p.data.length, p.total])).toEqual(expected.map(() => [1, 4]));
        const descending = await listAll(api, church, token, { sort: '-created_at' }, 2);
        expect(descending.ids).toEqual([...expected].reverse());
      }
      const privateOnly = await list(api, church, otherStaff.token, { visibility: 'private' });
      expect([ids(privateOnly), privateOnly.total]).toEqual([[othersSecret.id], 1]);
      const notPrivate = await list(api, church, otherStaff.token, { 'visibility[ne]': 'private' });
      expect(notPrivate.total).toBe(3);
    });

    it('a private request made visible to staff by its author appears for the others', async () => {
      const made = await newPrayerRequest(
        api,
        church,
        {
          request: 'Later shared',
          name: 'L',
          visibility: 'private',
        },
        { token: author.token },
      );
      expect((await api.get(`/v1/prayer-requests/${made.id}`, as(otherStaff.token, church))).status).toBe(404);
      const patched = await api.patch<PrayerRequest>(
        `/v1/prayer-requests/${made.id}`,
        as(author.token, church, { body: { visibility: 'staff' } }),
      );
      expect(patched.status).toBe(200);
      expect(
        (await api.get<PrayerRequest>(`/v1/prayer-requests/${made.id}`, as(otherStaff.token, church))).body,
      ).toEqual(patched.body);
      expect(await api.delete(`/v1/prayer-requests/${made.id}`, as(author.token, church))).toMatchObject({
        status: 204,
      });
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('answer', () => {
    let church: TestTenant;
    let author: Staff;

    beforeAll(async () => {
      church = await newChurch();
      author = await staff(api, church);
    });

    it('sets answer and answered_at (200 with the request); a second answer is 409 conflict and changes nothing', async () => {
      const created = await newPrayerRequest(api, church, { request: 'Rain', name: 'Farmer' }, { token: author.token });
      const res = await api.post<PrayerRequest>(
        `/v1/prayer-requests/${created.id}/answer`,
        as(author.token, church, { body: { answer: 'It rained.' } }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...created,
        answer: 'It rained.',
        answered_at: expect.stringMatching(UTC_ISO),
        updated_at: res.body.answered_at,
      });
      expect(
        (await api.get<PrayerRequest>(`/v1/prayer-requests/${created.id}`, as(author.token, church))).body,
      ).toEqual(res.body);

      const again = await api.post<Problem>(
        `/v1/prayer-requests/${created.id}/answer`,
        as(author.token, church, { body: { answer: 'Again' } }),
      );
      expect([again.status, again.body.code]).toEqual([409, 'conflict']);
      expect(
        (await api.get<PrayerRequest>(`/v1/prayer-requests/${created.id}`, as(author.token, church))).body,
      ).toEqual(res.body);
      expect((await eventsOf(api, church, 'prayer_request.answered', created.id)).length).toBe(1);
    });

    it('validates the answer body (422 naming answer)', async () => {
      const created = await newPrayerRequest(api, church, { request: 'Body', name: 'B' }, { token: author.token });
      const cases: [JsonObject, { field: string; issue: string }[]][] = [
        [{}, [{ field: 'answer', issue: 'required' }]],
        [{ answer: '  ' }, [{ field: 'answer', issue: 'required' }]],
        [{ answer: 'z'.repeat(4001) }, [{ field: 'answer', issue: 'too_long' }]],
        [{ answer: 7 }, [{ field: 'answer', issue: 'invalid_type' }]],
      ];
      for (const [body, errors] of cases) {
        const res = await api.post<Problem>(
          `/v1/prayer-requests/${created.id}/answer`,
          as(author.token, church, { body }),
        );
        expect({ body, status: res.status, errors: sortedIssuesOf(res.body) }).toEqual({ body, status: 422, errors });
      }
      expect((await storedRow(api, church, created.id)).answered_at).toBeNull();
    });

    it('of two answers racing, exactly one wins (200) and the other is 409; one answer stored, one event', async () => {
      for (let round = 0; round < 3; round++) {
        const created = await newPrayerRequest(
          api,
          church,
          { request: `Race ${round}`, name: 'R' },
          { token: author.token },
        );
        const answers = ['First answer', 'Second answer'];
        const results = await Promise.all(
          answers.map((answer) =>
            api.post<PrayerRequest | Problem>(
              `/v1/prayer-requests/${created.id}/answer`,
              as(author.token, church, { body: { answer } }),
            ),
          ),
        );
        expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
        const winner = results.findIndex((r) => r.status === 200);
        expect((results[1 - winner].body as Problem).code).toBe('conflict');
        const row = await storedRow(api, church, created.id);
        expect(row.answer).toBe(answers[winner]);
        expect((results[winner].body as PrayerRequest).answer).toBe(answers[winner]);
        const events = await eventsOf(api, church, 'prayer_request.answered', created.id);
        expect(events.map((e) => e.data.object.answer)).toEqual([answers[winner]]);
      }
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('events', () => {
    it('writes prayer_request.created and prayer_request.answered to the outbox with the request as GET returns it', async () => {
      const church = await newChurch();
      const author = await staff(api, church);
      const memberId = await newMember(api, church, { first_name: 'Eve', last_name: 'Nt' }).then((m) => m.id);
      const created = await newPrayerRequest(
        api,
        church,
        { request: 'Events', member_id: memberId, urgent: true },
        { token: author.token },
      );

      const createdEvents = await eventsOf(api, church, 'prayer_request.created', created.id);
      expect(createdEvents.length).toBe(1);
      expect(createdEvents[0].data.object).toEqual(created);

      const answered = await api.post<PrayerRequest>(
        `/v1/prayer-requests/${created.id}/answer`,
        as(author.token, church, { body: { answer: 'Yes' } }),
      );
      const answeredEvents = await eventsOf(api, church, 'prayer_request.answered', created.id);
      expect(answeredEvents.length).toBe(1);
      expect(answeredEvents[0].data.object).toEqual(answered.body);
      expect(answeredEvents[0].data.object).toEqual(
        (await api.get<PrayerRequest>(`/v1/prayer-requests/${created.id}`, as(author.token, church))).body,
      );

      // PATCH and DELETE raise nothing (CONTRACT names no such events); a refused create raises nothing.
      await api.patch(`/v1/prayer-requests/${created.id}`, as(author.token, church, { body: { urgent: false } }));
      await api.post('/v1/prayer-requests', as(author.token, church, { body: { request: 'Nobody' } }));
      const all = await api.get<List<WebhookEvent>>(
        '/v1/webhook-events?type[in]=prayer_request.created,prayer_request.answered',
        as(church.token, church),
      );
      expect(all.body.data.map((e) => e.type).sort()).toEqual(['prayer_request.answered', 'prayer_request.created']);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('filters and sort', () => {
    let church: TestTenant;
    let author: Staff;
    let member1: string;
    let member2: string;
    const p: Record<string, PrayerRequest> = {};

    beforeAll(async () => {
      church = await newChurch();
      author = await staff(api, church);
      await newCampus(api, church, { key: 'east', name: 'East' });
      await newCampus(api, church, { key: 'west', name: 'West' });
      member1 = await newMember(api, church, { first_name: 'One', last_name: 'M' }).then((m) => m.id);
      member2 = await newMember(api, church, { first_name: 'Two', last_name: 'M' }).then((m) => m.id);
      p.a = await newPrayerRequest(
        api,
        church,
        { request: 'A', member_id: member1, campus: 'east', urgent: true },
        { token: author.token },
      );
      p.b = await newPrayerRequest(
        api,
        church,
        {
          request: 'B',
          member_id: member2,
          campus: 'west',
          visibility: 'public',
        },
        { token: author.token },
      );
      p.c = await newPrayerRequest(
        api,
        church,
        { request: 'C', name: 'Guest', visibility: 'private' },
        { token: author.token },
      );
      p.d = await newPrayerRequest(
        api,
        church,
        { request: 'D', member_id: member1, urgent: true },
        { token: author.token },
      );
      const answered = await api.post<PrayerRequest>(
        `/v1/prayer-requests/${p.b.id}/answer`,
        as(author.token, church, { body: { answer: 'Done' } }),
      );
      p.b = answered.body;
    });

    const expectIds = async (params: Record<string, string>, expected: PrayerRequest[]) => {
      const res = await list(api, church, author.token, params);
      expect({ params, ids: ids(res), total: res.total }).toEqual({
        params,
        ids: expected.map((x) => x.id),
        total: expected.length,
      });
    };

    it('filters by answered, visibility, urgent, member_id, campus', async () => {
      await expectIds({ answered: 'true' }, [p.b]);
      await expectIds({ answered: 'false' }, [p.a, p.c, p.d]);
      await expectIds({ visibility: 'private' }, [p.c]);
      await expectIds({ 'visibility[in]': 'public,private' }, [p.b, p.c]);
      await expectIds({ urgent: 'true' }, [p.a, p.d]);
      await expectIds({ urgent: 'false', answered: 'false' }, [p.c]);
      await expectIds({ member_id: member1 }, [p.a, p.d]);
      await expectIds({ 'member_id[in]': `${member1},${member2}` }, [p.a, p.b, p.d]);
      await expectIds({ campus: 'east' }, [p.a]);
      await expectIds({ campus: p.b.campus!.id }, [p.b]);
      await expectIds({ 'campus[in]': 'east,west' }, [p.a, p.b]);
      await expectIds({ campus: 'north' }, []);
      expect((await list(api, church, author.token, { member_id: member1 })).data[0].member).toEqual({
        id: member1,
        first_name: 'One',
        last_name: 'M',
      });
    });

    it('filters by created_at[…] and updated_at[…]; sorts by -created_at', async () => {
      await expectIds({ 'created_at[gte]': p.c.created_at }, [p.c, p.d]);
      await expectIds({ 'created_at[lt]': p.b.created_at }, [p.a]);
      await expectIds({ 'updated_at[gt]': p.d.updated_at }, [p.b]);
      await expectIds({ sort: '-created_at' }, [p.d, p.c, p.b, p.a]);
    });

    itRefusesBadListParams(
      () => api,
      '/v1/prayer-requests',
      () => as(author.token, church),
      [
        [{ name: 'Guest' }, 'name'],
        [{ sort: 'request' }, 'sort'],
        [{ answered: 'maybe' }, 'answered'],
        [{ visibility: 'everyone' }, 'visibility'],
        [{ member_id: 'mem_nope' }, 'member_id'],
        [{ 'member_id[in]': () => `${member1},prq_x` }, 'member_id[in]'],
        [{ 'urgent[gt]': 'true' }, 'urgent[gt]'],
      ],
    );
  });

  // -------------------------------------------------------------------------------------------
  describe('tenant isolation and scopes', () => {
    let a: TestTenant;
    let b: TestTenant;
    let ours: PrayerRequest;

    beforeAll(async () => {
      a = await newChurch();
      b = await newChurch();
      ours = await newPrayerRequest(api, a, { request: 'Church A only', name: 'A' }, { token: a.token });
      await newPrayerRequest(api, b, { request: 'Church B only', name: 'B' }, { token: b.token });
    });

    it("answers 404 to another church's id on every route, and lists only the church's own", async () => {
      const path = `/v1/prayer-requests/${ours.id}`;
      const answers = [
        await api.get<Problem>(path, as(b.token, b)),
        await api.patch<Problem>(path, as(b.token, b, { body: { request: 'Hijack' } })),
        await api.post<Problem>(`${path}/answer`, as(b.token, b, { body: { answer: 'Hijack' } })),
        await api.delete<Problem>(path, as(b.token, b)),
      ];
      expect(answers.map((r) => [r.status, r.body.code])).toEqual(Array(4).fill([404, 'resource_not_found']));
      expect((await api.get<PrayerRequest>(path, as(a.token, a))).body).toEqual(ours);
      const theirs = await list(api, b, b.token);
      expect(theirs.data.map((x) => x.request)).toEqual(['Church B only']);
      expect(theirs.total).toBe(1);
    });

    it('read:prayer_requests reads but cannot write (403 scope_insufficient naming write:prayer_requests)', async () => {
      const { token } = await newToken(api, a, ['read:prayer_requests'], 'staff');
      expect((await api.get(`/v1/prayer-requests/${ours.id}`, as(token, a))).status).toBe(200);
      expect((await list(api, a, token)).total).toBe(1);
      const writes = [
        await api.post<Problem>('/v1/prayer-requests', as(token, a, { body: { request: 'No', name: 'No' } })),
        await api.patch<Problem>(`/v1/prayer-requests/${ours.id}`, as(token, a, { body: { urgent: true } })),
        await api.post<Problem>(`/v1/prayer-requests/${ours.id}/answer`, as(token, a, { body: { answer: 'No' } })),
        await api.delete<Problem>(`/v1/prayer-requests/${ours.id}`, as(token, a)),
      ];
      for (const res of writes) {
        expect([res.status, res.body.code]).toEqual([403, 'scope_insufficient']);
        expect(res.body.detail).toContain('write:prayer_requests');
        expect(res.headers['www-authenticate']).toContain('scope="write:prayer_requests"');
      }
      expect((await api.get<PrayerRequest>(`/v1/prayer-requests/${ours.id}`, as(a.token, a))).body).toEqual(ours);
    });

    it('write:prayer_requests alone cannot read; members scopes and kiosk keys grant nothing here', async () => {
      const writer = await newToken(api, a, ['write:prayer_requests'], 'staff');
      const created = await api.post<PrayerRequest>(
        '/v1/prayer-requests',
        as(writer.token, a, { body: { request: 'Writer', name: 'W' } }),
      );
      expect(created.status).toBe(201);
      const read = await api.get<Problem>('/v1/prayer-requests', as(writer.token, a));
      expect([read.status, read.body.code]).toEqual([403, 'scope_insufficient']);
      expect(read.headers['www-authenticate']).toContain('scope="read:prayer_requests"');

      const members = await newToken(api, a, ['read:members', 'write:members'], 'staff');
      const kiosk = await newToken(api, a, ['read:events', 'read:members', 'write:attendance'], 'org_admin', 'kiosk');
      for (const token of [members.token, kiosk.token]) {
        const res = await api.get<Problem>(`/v1/prayer-requests/${ours.id}`, as(token, a));
        expect([res.status, res.body.code]).toEqual([403, 'scope_insufficient']);
      }
    });
  });
});
