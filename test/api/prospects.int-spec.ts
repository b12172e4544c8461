import { randomBytes, randomUUID } from 'node:crypto';
import { TenantContext } from '../../src/common/context/tenant-context';
import { ID_PREFIX, parsePublicId, toPublicId } from '../../src/common/ids/id';
import { JsonObject, TestApi } from '../support/api';
import { campusRef, inTenant, newCampus, newProspect, newTenant, newToken, TestTenant } from '../support/factories';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import { sleep } from '../support/wait';
import { as, itRefusesBadListParams, qs, sortedIssuesOf } from '../support/http';
import type { CampusRef } from '../../src/modules/campuses/dto/campus.response';
import type { ProspectResponse as Prospect } from '../../src/modules/prospects/dto/prospect.response';
import type { MemberResponse as Member } from '../../src/modules/members/dto/member.response';
import { outboxObjects } from '../support/outbox';

// ---------------------------------------------------------------------------------------------
// Types and small helpers
// ---------------------------------------------------------------------------------------------

const PROSPECT_ID = /^prs_[0-9a-f]{32}$/;
const MEMBER_ID = /^mem_[0-9a-f]{32}$/;
const UTC_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const userId = (uuid: string) => toPublicId(ID_PREFIX.user, uuid);
const unique = (prefix: string) => `${prefix}${randomBytes(4).toString('hex')}`;

async function listProspects(
  api: TestApi,
  church: TestTenant,
  params: Record<string, string> = {},
): Promise<List<Prospect>> {
  const res = await api.get<List<Prospect>>(`/v1/prospects${qs(params)}`, as(church));
  if (res.status !== 200) throw new Error(`list failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The `data.object` of every outbox event of `type` in the church whose object has this id (oldest first). */
async function eventObjects<T>(api: TestApi, church: TestTenant, type: string, objectId: string): Promise<T[]> {
  return outboxObjects<T>(api, church, type, objectId);
}

/** Live members of the church with this last name, counted in PostgreSQL. */
async function membersNamed(api: TestApi, church: TestTenant, lastName: string): Promise<number> {
  const rows: { n: number }[] = await api.db.platform.query(
    `SELECT count(*)::int AS n FROM members WHERE tenant_id = $1 AND last_name = $2 AND deleted_at IS NULL`,
    [church.id, lastName],
  );
  return rows[0].n;
}

/** Sets a prospect's created_at directly (inside the church's RLS transaction), for deterministic time filters. */
async function backdate(api: TestApi, church: TestTenant, prospectId: string, createdAt: string): Promise<void> {
  await inTenant(api, church.id, () =>
    TenantContext.current().manager.query(
      'UPDATE prospects SET created_at = $1, updated_at = $1 WHERE tenant_id = $2 AND id = $3',
      [createdAt, church.id, parsePublicId('prs', prospectId)],
    ),
  );
}

const idsOf = (list: List<Prospect>) => list.data.map((p) => p.id);

// ---------------------------------------------------------------------------------------------

describe('prospects', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api.close());

  // -------------------------------------------------------------------------------------------
  describe('POST /v1/prospects', () => {
    let church: TestTenant;
    let north: CampusRef;

    beforeAll(async () => {
      church = await newTenant(api);
      north = await newCampus(api, church, { key: 'north', name: 'North Campus' }).then(campusRef);
    });

    it('creates a prospect: 201, Location, prs_ id, every field echoed, prospect.created in the outbox', async () => {
      const staff = await newToken(api, church, ['read:members'], 'staff');
      const body = {
        first_name: ' Lucía ',
        last_name: 'Ramírez',
        email: 'lucia@example.org',
        phone: '+5213398765432',
        campus: 'north',
        source: 'visit',
        stage: 'contacted',
        assigned_to: userId(staff.user.id),
        follow_up_on: '2026-02-01',
        notes: 'Came with the Ortiz family.',
      };
      const res = await api.post<Prospect>('/v1/prospects', as(church, { body }));

      expect(res.status).toBe(201);
      expect(res.body.id).toMatch(PROSPECT_ID);
      expect(res.headers.location).toBe(`/v1/prospects/${res.body.id}`);
      expect(res.body).toEqual({
        ...body,
        first_name: 'Lucía',
        id: res.body.id,
        campus: north,
        converted_at: null,
        member_id: null,
        created_at: expect.stringMatching(UTC_ISO),
        updated_at: res.body.created_at,
      });

      const fetched = await api.get<Prospect>(res.headers.location, as(church));
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(res.body);
      expect(await eventObjects(api, church, 'prospect.created', res.body.id)).toEqual([res.body]);
    });

    it('defaults: stage new, everything else null; the campus by its cmp_ id', async () => {
      const res = await newProspect(api, church, { first_name: 'Ana', last_name: 'Ruiz', campus: north.id });
      expect(res).toMatchObject({
        stage: 'new',
        email: null,
        phone: null,
        source: null,
        assigned_to: null,
        follow_up_on: null,
        notes: null,
        campus: north,
      });
    });

    it('refuses bad input with 422 validation_failed naming every field, and creates nothing', async () => {
      const res = await api.post<Problem>(
        '/v1/prospects',
        as(church, {
          body: {
            last_name: '',
            email: 'not-an-email',
            phone: '3312345678',
            source: 'billboard',
            stage: 'converted',
            follow_up_on: '2026-02-30',
            notes: 'x'.repeat(4001),
            assigned_to: 'x'.repeat(65),
            member_id: `mem_${'0'.repeat(32)}`,
          },
        }),
      );
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(sortedIssuesOf(res.body)).toEqual([
        { field: 'assigned_to', issue: 'too_long' },
        { field: 'email', issue: 'invalid_format' },
        { field: 'first_name', issue: 'required' },
        { field: 'follow_up_on', issue: 'invalid_format' },
        { field: 'last_name', issue: 'too_short' },
        { field: 'member_id', issue: 'unknown_field' },
        { field: 'notes', issue: 'too_long' },
        { field: 'phone', issue: 'invalid_format' },
        { field: 'source', issue: 'one_of' },
        { field: 'stage', issue: 'one_of' },
      ]);
      expect((await listProspects(api, church, { q: 'not-an-email' })).total).toBe(0);
    });

    it('refuses an unknown campus and an assigned_to that is not a staff user of the church (422 not_found)', async () => {
      const other = await newTenant(api);
      for (const assigned_to of [
        userId(other.admin.id),
        `usr_${'0'.repeat(32)}`,
        'usr_123',
        toPublicId(ID_PREFIX.member, church.admin.id),
      ]) {
        const res = await api.post<Problem>(
          '/v1/prospects',
          as(church, { body: { first_name: 'A', last_name: 'B', campus: 'nowhere', assigned_to } }),
        );
        expect({ assigned_to, status: res.status, code: res.body.code, errors: sortedIssuesOf(res.body) }).toEqual({
          assigned_to,
          status: 422,
          code: 'validation_failed',
          errors: [
            { field: 'assigned_to', issue: 'not_found' },
            { field: 'campus', issue: 'not_found' },
          ],
        });
      }
      const ok = await newProspect(api, church, {
        first_name: 'A',
        last_name: 'B',
        assigned_to: userId(church.admin.id),
      });
      expect(ok.assigned_to).toBe(userId(church.admin.id));
    });

    it('honours Idempotency-Key: a retry replays the answer without a second prospect', async () => {
      const key = randomUUID();
      const last = unique('Idem');
      const first = await api.post<Prospect>(
        '/v1/prospects',
        as(church, { body: { first_name: 'I', last_name: last }, headers: { 'Idempotency-Key': key } }),
      );
      const again = await api.post<Prospect>(
        '/v1/prospects',
        as(church, { body: { first_name: 'I', last_name: last }, headers: { 'Idempotency-Key': key } }),
      );
      expect([first.status, again.status]).toEqual([201, 201]);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect((await listProspects(api, church, { q: last })).total).toBe(1);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('GET /v1/prospects/{id}', () => {
    let church: TestTenant;
    let prospect: Prospect;

    beforeAll(async () => {
      church = await newTenant(api);
      prospect = await newProspect(api, church, { first_name: 'Eva', last_name: 'Luna' });
    });

    it('returns the prospect with an ETag; If-None-Match answers 304 until it changes', async () => {
      const res = await api.get<Prospect>(`/v1/prospects/${prospect.id}`, as(church));
      expect(res.status).toBe(200);
      expect(res.body).toEqual(prospect);
      expect(res.headers['cache-control']).toContain('private');
      const again = await api.get(
        `/v1/prospects/${prospect.id}`,
        as(church, { headers: { 'If-None-Match': res.headers.etag } }),
      );
      expect(again.status).toBe(304);

      await api.patch(`/v1/prospects/${prospect.id}`, as(church, { body: { notes: 'changed' } }));
      const after = await api.get<Prospect>(
        `/v1/prospects/${prospect.id}`,
        as(church, { headers: { 'If-None-Match': res.headers.etag } }),
      );
      expect(after.status).toBe(200);
      expect(after.body.notes).toBe('changed');
    });

    it('answers malformed and unknown ids with 404 resource_not_found on every {id} route', async () => {
      const hex = prospect.id.slice(4);
      for (const id of ['prs_123', `mem_${hex}`, `prs_${hex.toUpperCase()}`, `prs_${'0'.repeat(32)}`]) {
        for (const [method, path, body] of [
          ['get', `/v1/prospects/${id}`, undefined],
          ['patch', `/v1/prospects/${id}`, { notes: 'x' }],
          ['delete', `/v1/prospects/${id}`, undefined],
          ['post', `/v1/prospects/${id}/convert`, undefined],
        ] as const) {
          const res = await api[method]<Problem>(path, as(church, { body }));
          expect({ method, path, status: res.status, code: res.body.code }).toEqual({
            method,
            path,
            status: 404,
            code: 'resource_not_found',
          });
        }
      }
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('PATCH /v1/prospects/{id}', () => {
    let church: TestTenant;

    beforeAll(async () => {
      church = await newTenant(api);
      await newCampus(api, church, { key: 'east', name: 'East Campus' }).then(campusRef);
    });

    it('moves a prospect through the pipeline stages, raising no event', async () => {
      const prospect = await newProspect(api, church, { first_name: 'Pipe', last_name: 'Line' });
      for (const stage of ['contacted', 'visited', 'connecting', 'lost', 'new', 'connecting']) {
        const res = await api.patch<Prospect>(`/v1/prospects/${prospect.id}`, as(church, { body: { stage } }));
        expect({ stage, status: res.status, now: res.body.stage }).toEqual({ stage, status: 200, now: stage });
      }
      expect((await api.get<Prospect>(`/v1/prospects/${prospect.id}`, as(church))).body.stage).toBe('connecting');
      expect(await eventObjects(api, church, 'prospect.converted', prospect.id)).toEqual([]);
    });

    it('changes the fields sent, clears optional ones with null, advances updated_at', async () => {
      const staff = await newToken(api, church, ['read:members'], 'staff');
      const prospect = await newProspect(api, church, {
        first_name: 'Al',
        last_name: 'Vaz',
        email: 'al@example.org',
        source: 'online',
        notes: 'n',
      });
      await sleep(5);
      const res = await api.patch<Prospect>(
        `/v1/prospects/${prospect.id}`,
        as(church, {
          body: {
            first_name: 'Alberto',
            email: null,
            source: null,
            campus: 'east',
            assigned_to: userId(staff.user.id),
            follow_up_on: '2026-03-15',
          },
        }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...prospect,
        first_name: 'Alberto',
        email: null,
        source: null,
        campus: expect.objectContaining({ key: 'east', name: 'East Campus' }),
        assigned_to: userId(staff.user.id),
        follow_up_on: '2026-03-15',
        updated_at: res.body.updated_at,
      });
      expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(prospect.updated_at));
      expect((await api.get<Prospect>(`/v1/prospects/${prospect.id}`, as(church))).body).toEqual(res.body);

      const cleared = await api.patch<Prospect>(
        `/v1/prospects/${prospect.id}`,
        as(church, { body: { campus: null, assigned_to: null, follow_up_on: null } }),
      );
      expect(cleared.body).toMatchObject({
        campus: null,
        assigned_to: null,
        follow_up_on: null,
        first_name: 'Alberto',
      });
    });

    it('refuses stage converted (422 on stage: only convert sets it), cleared required fields and bad references', async () => {
      const prospect = await newProspect(api, church, { first_name: 'No', last_name: 'Shortcut' });
      const cases: [JsonObject, { field: string; issue: string }[]][] = [
        [{ stage: 'converted' }, [{ field: 'stage', issue: 'one_of' }]],
        [{ stage: null }, [{ field: 'stage', issue: 'required' }]],
        [
          { first_name: null, last_name: null },
          [
            { field: 'first_name', issue: 'required' },
            { field: 'last_name', issue: 'required' },
          ],
        ],
        [
          { campus: 'nowhere', assigned_to: `usr_${'f'.repeat(32)}` },
          [
            { field: 'assigned_to', issue: 'not_found' },
            { field: 'campus', issue: 'not_found' },
          ],
        ],
        [{ member_id: `mem_${'0'.repeat(32)}` }, [{ field: 'member_id', issue: 'unknown_field' }]],
      ];
      for (const [body, issues] of cases) {
        const res = await api.patch<Problem>(`/v1/prospects/${prospect.id}`, as(church, { body }));
        expect({ body, status: res.status, code: res.body.code, errors: sortedIssuesOf(res.body) }).toEqual({
          body,
          status: 422,
          code: 'validation_failed',
          errors: issues,
        });
      }
      expect((await api.get<Prospect>(`/v1/prospects/${prospect.id}`, as(church))).body).toEqual(prospect);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('DELETE /v1/prospects/{id}', () => {
    it('soft-deletes: 204, then 404 everywhere and gone from lists; the row stays in PostgreSQL', async () => {
      const church = await newTenant(api);
      const keep = await newProspect(api, church, { first_name: 'Keep', last_name: 'Me' });
      const gone = await newProspect(api, church, { first_name: 'Gone', last_name: 'Soon' });
      const res = await api.delete(`/v1/prospects/${gone.id}`, as(church));
      expect(res.status).toBe(204);
      expect(res.text ?? '').toBe('');

      for (const [method, path, body] of [
        ['get', `/v1/prospects/${gone.id}`, undefined],
        ['patch', `/v1/prospects/${gone.id}`, { notes: 'x' }],
        ['delete', `/v1/prospects/${gone.id}`, undefined],
        ['post', `/v1/prospects/${gone.id}/convert`, undefined],
      ] as const) {
        const again = await api[method]<Problem>(path, as(church, { body }));
        expect({ method, status: again.status, code: again.body.code }).toEqual({
          method,
          status: 404,
          code: 'resource_not_found',
        });
      }
      expect(idsOf(await listProspects(api, church))).toEqual([keep.id]);
      const rows: { deleted: boolean }[] = await api.db.platform.query(
        'SELECT deleted_at IS NOT NULL AS deleted FROM prospects WHERE tenant_id = $1 AND id = $2',
        [church.id, parsePublicId('prs', gone.id)],
      );
      expect(rows).toEqual([{ deleted: true }]);
      expect(await membersNamed(api, church, 'Soon')).toBe(0);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('POST /v1/prospects/{id}/convert', () => {
    let church: TestTenant;
    let north: CampusRef;
    let south: CampusRef;

    beforeAll(async () => {
      church = await newTenant(api);
      north = await newCampus(api, church, { key: 'north', name: 'North Campus' }).then(campusRef);
      south = await newCampus(api, church, { key: 'south', name: 'South Campus' }).then(campusRef);
      // Member custom_fields only take keys the church defined.
      expect(
        (
          await api.post(
            '/v1/custom-fields',
            as(church, { body: { key: 'baptized', label: 'Baptized', type: 'boolean' } }),
          )
        ).status,
      ).toBe(201);
    });

    it("creates the member from the prospect's fields, marks it converted, raises member.created and prospect.converted", async () => {
      const last = unique('Conv');
      const prospect = await newProspect(api, church, {
        first_name: 'Rosa',
        last_name: last,
        email: 'rosa@example.org',
        phone: '+5213311112222',
        campus: 'north',
        source: 'event',
        stage: 'connecting',
        notes: 'ready',
      });
      const before = Date.now();
      const res = await api.post<Prospect>(`/v1/prospects/${prospect.id}/convert`, as(church));

      expect(res.status).toBe(200);
      expect(res.body.member_id).toMatch(MEMBER_ID);
      expect(res.body).toEqual({
        ...prospect,
        stage: 'converted',
        converted_at: expect.stringMatching(UTC_ISO),
        member_id: res.body.member_id,
        updated_at: res.body.converted_at,
      });
      expect(Date.parse(res.body.converted_at!)).toBeGreaterThanOrEqual(before - 1000);
      expect((await api.get<Prospect>(`/v1/prospects/${prospect.id}`, as(church))).body).toEqual(res.body);

      const member = await api.get<Member>(`/v1/members/${res.body.member_id}`, as(church));
      expect(member.status).toBe(200);
      expect(member.body).toMatchObject({
        first_name: 'Rosa',
        last_name: last,
        email: 'rosa@example.org',
        phone: '+5213311112222',
        status: 'visitor',
        campus: north,
      });
      expect(await membersNamed(api, church, last)).toBe(1);

      // Both events, each with its object as its GET returns it.
      expect(await eventObjects(api, church, 'prospect.converted', prospect.id)).toEqual([res.body]);
      expect(await eventObjects(api, church, 'member.created', member.body.id)).toEqual([member.body]);
    });

    it('lets a body of member fields override the prospect; the prospect keeps its own fields', async () => {
      const last = unique('Over');
      const prospect = await newProspect(api, church, {
        first_name: 'Tomás',
        last_name: last,
        email: 'tomas@old.example.org',
        phone: '+5213300000001',
        campus: 'north',
      });
      const res = await api.post<Prospect>(
        `/v1/prospects/${prospect.id}/convert`,
        as(church, {
          body: {
            email: 'tomas@example.org',
            phone: null,
            campus: south.id,
            status: 'regular',
            birthdate: '1990-05-06',
            custom_fields: { baptized: false },
          },
        }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        email: 'tomas@old.example.org',
        phone: '+5213300000001',
        campus: north,
        stage: 'converted',
      });

      const member = await api.get<Member & { custom_fields: unknown }>(
        `/v1/members/${res.body.member_id}`,
        as(church),
      );
      expect(member.body).toMatchObject({
        first_name: 'Tomás',
        last_name: last,
        email: 'tomas@example.org',
        phone: null,
        campus: south,
        status: 'regular',
        birthdate: '1990-05-06',
        custom_fields: { baptized: false },
      });
    });

    it('refuses a second convert with 409 conflict: still one member and one prospect.converted event', async () => {
      const last = unique('Twice');
      const prospect = await newProspect(api, church, { first_name: 'Dos', last_name: last });
      const first = await api.post<Prospect>(`/v1/prospects/${prospect.id}/convert`, as(church));
      expect(first.status).toBe(200);
      const second = await api.post<Problem>(
        `/v1/prospects/${prospect.id}/convert`,
        as(church, { body: { first_name: 'Otra' } }),
      );
      expect([second.status, second.body.code]).toEqual([409, 'conflict']);
      expect(second.body.detail).toContain(first.body.member_id);
      expect(await membersNamed(api, church, last)).toBe(1);
      expect(await eventObjects(api, church, 'prospect.converted', prospect.id)).toHaveLength(1);
      expect((await api.get<Prospect>(`/v1/prospects/${prospect.id}`, as(church))).body).toEqual(first.body);
    });

    it('races two converts of one prospect: exactly one member, one 200 and one 409', async () => {
      const last = unique('Race');
      const prospect = await newProspect(api, church, { first_name: 'Carrera', last_name: last });
      const answers = await Promise.all(
        [0, 1].map(() => api.post<Prospect | Problem>(`/v1/prospects/${prospect.id}/convert`, as(church))),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const winner = answers.find((a) => a.status === 200)!.body as Prospect;

      expect(await membersNamed(api, church, last)).toBe(1);
      const rows: { id: string }[] = await api.db.platform.query(
        'SELECT id FROM members WHERE tenant_id = $1 AND last_name = $2',
        [church.id, last],
      );
      expect(toPublicId(ID_PREFIX.member, rows[0].id)).toBe(winner.member_id);
      expect(await eventObjects(api, church, 'prospect.converted', prospect.id)).toEqual([winner]);
      expect(await eventObjects(api, church, 'member.created', winner.member_id!)).toHaveLength(1);
    });

    it('refuses a bad body with 422 naming every field, and converts nothing', async () => {
      const last = unique('Bad');
      const prospect = await newProspect(api, church, { first_name: 'Mala', last_name: last });
      const cases: [unknown, { field: string; issue: string }[]][] = [
        [
          { email: 'nope', gender: 'other', birthdate: '2999-01-01', nickname: 'x' },
          [
            { field: 'birthdate', issue: 'in_future' },
            { field: 'email', issue: 'invalid_format' },
            { field: 'gender', issue: 'one_of' },
            { field: 'nickname', issue: 'unknown_field' },
          ],
        ],
        [
          { first_name: null, status: null },
          [
            { field: 'first_name', issue: 'required' },
            { field: 'status', issue: 'required' },
          ],
        ],
        [{ campus: 'nowhere' }, [{ field: 'campus', issue: 'not_found' }]],
        [[{ first_name: 'A' }], [{ field: '(body)', issue: 'invalid_type' }]],
      ];
      for (const [body, issues] of cases) {
        const res = await api.post<Problem>(
          `/v1/prospects/${prospect.id}/convert`,
          as(church, { body: body as JsonObject }),
        );
        expect({ body, status: res.status, code: res.body.code, errors: sortedIssuesOf(res.body) }).toEqual({
          body,
          status: 422,
          code: 'validation_failed',
          errors: issues,
        });
      }
      expect(await membersNamed(api, church, last)).toBe(0);
      expect((await api.get<Prospect>(`/v1/prospects/${prospect.id}`, as(church))).body).toEqual(prospect);
      expect(await eventObjects(api, church, 'prospect.converted', prospect.id)).toEqual([]);
    });

    it("keeps a converted prospect's stage: PATCH of the stage is 409, other fields still change", async () => {
      const prospect = await newProspect(api, church, { first_name: 'Fija', last_name: unique('Stage') });
      const converted = (await api.post<Prospect>(`/v1/prospects/${prospect.id}/convert`, as(church))).body;
      for (const stage of ['new', 'lost', 'connecting']) {
        const res = await api.patch<Problem>(`/v1/prospects/${prospect.id}`, as(church, { body: { stage } }));
        expect({ stage, status: res.status, code: res.body.code }).toEqual({ stage, status: 409, code: 'conflict' });
      }
      const toConverted = await api.patch<Problem>(
        `/v1/prospects/${prospect.id}`,
        as(church, { body: { stage: 'converted' } }),
      );
      expect([toConverted.status, toConverted.body.code]).toEqual([422, 'validation_failed']);

      const notes = await api.patch<Prospect>(
        `/v1/prospects/${prospect.id}`,
        as(church, { body: { notes: 'now a member' } }),
      );
      expect(notes.status).toBe(200);
      expect(notes.body).toMatchObject({
        stage: 'converted',
        member_id: converted.member_id,
        converted_at: converted.converted_at,
        notes: 'now a member',
      });
    });

    it('replays a convert retried with the same Idempotency-Key (200, not 409)', async () => {
      const last = unique('Retry');
      const prospect = await newProspect(api, church, { first_name: 'Otra', last_name: last });
      const headers = { 'Idempotency-Key': randomUUID() };
      const first = await api.post<Prospect>(`/v1/prospects/${prospect.id}/convert`, as(church, { headers }));
      const again = await api.post<Prospect>(`/v1/prospects/${prospect.id}/convert`, as(church, { headers }));
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(await membersNamed(api, church, last)).toBe(1);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('GET /v1/prospects (filters and sorts)', () => {
    let church: TestTenant;
    let north: CampusRef;
    let staffId: string;
    const p: Record<string, Prospect> = {};

    beforeAll(async () => {
      church = await newTenant(api);
      north = await newCampus(api, church, { key: 'north', name: 'North Campus' }).then(campusRef);
      await newCampus(api, church, { key: 'south', name: 'South Campus' }).then(campusRef);
      staffId = userId((await newToken(api, church, ['read:members'], 'staff')).user.id);
      p.a = await newProspect(api, church, {
        first_name: 'Ana',
        last_name: 'Zamora',
        email: 'ana@example.org',
        campus: 'north',
        source: 'visit',
        follow_up_on: '2026-03-01',
        assigned_to: staffId,
      });
      p.b = await newProspect(api, church, {
        first_name: 'Beto',
        last_name: 'Aguilar',
        campus: 'south',
        source: 'online',
        stage: 'contacted',
        follow_up_on: '2026-01-15',
      });
      p.c = await newProspect(api, church, {
        first_name: 'Caro',
        last_name: 'Molina',
        email: 'caro@mail.example.net',
        source: 'referral',
        stage: 'lost',
        assigned_to: staffId,
      });
      p.d = await newProspect(api, church, {
        first_name: 'Dani',
        last_name: 'Bravo',
        campus: 'north',
        stage: 'contacted',
        follow_up_on: '2026-02-10',
      });
      await backdate(api, church, p.a.id, '2026-01-01T10:00:00Z');
      await backdate(api, church, p.b.id, '2026-01-02T10:00:00Z');
      await backdate(api, church, p.c.id, '2026-01-03T10:00:00Z');
      await backdate(api, church, p.d.id, '2026-01-04T10:00:00Z');
      const converted = await api.post<Prospect>(`/v1/prospects/${p.d.id}/convert`, as(church));
      p.d = converted.body;
    });

    const list = (params: Record<string, string>) => listProspects(api, church, params);

    it('lists oldest first by default, with the total', async () => {
      const all = await list({});
      expect(idsOf(all)).toEqual([p.a.id, p.b.id, p.c.id, p.d.id]);
      expect(all.total).toBe(4);
      expect(all.data[3]).toEqual(p.d);
    });

    it('filters by stage, campus, assigned_to, source', async () => {
      expect(idsOf(await list({ stage: 'contacted' }))).toEqual([p.b.id]);
      expect(idsOf(await list({ stage: 'converted' }))).toEqual([p.d.id]);
      expect(idsOf(await list({ 'stage[in]': 'new,lost' }))).toEqual([p.a.id, p.c.id]);
      expect(idsOf(await list({ 'stage[ne]': 'new' }))).toEqual([p.b.id, p.c.id, p.d.id]);
      expect(idsOf(await list({ campus: 'north' }))).toEqual([p.a.id, p.d.id]);
      expect(idsOf(await list({ campus: north.id }))).toEqual([p.a.id, p.d.id]);
      expect(idsOf(await list({ 'campus[in]': 'south,nowhere' }))).toEqual([p.b.id]);
      expect(idsOf(await list({ assigned_to: staffId }))).toEqual([p.a.id, p.c.id]);
      expect((await list({ assigned_to: 'usr_nope' })).total).toBe(0);
      expect(idsOf(await list({ source: 'online' }))).toEqual([p.b.id]);
      expect(idsOf(await list({ 'source[in]': 'visit,referral' }))).toEqual([p.a.id, p.c.id]);
    });

    it('filters by follow_up_on with date operators, q, created_at and updated_at', async () => {
      expect(idsOf(await list({ follow_up_on: '2026-01-15' }))).toEqual([p.b.id]);
      expect(idsOf(await list({ 'follow_up_on[lte]': '2026-02-10' }))).toEqual([p.b.id, p.d.id]);
      expect(idsOf(await list({ 'follow_up_on[gt]': '2026-02-10' }))).toEqual([p.a.id]);
      expect(idsOf(await list({ 'follow_up_on[gte]': '2026-01-15', 'follow_up_on[lt]': '2026-03-01' }))).toEqual([
        p.b.id,
        p.d.id,
      ]);
      expect(idsOf(await list({ q: 'car' }))).toEqual([p.c.id]);
      expect(idsOf(await list({ q: 'ZAMORA' }))).toEqual([p.a.id]);
      expect(idsOf(await list({ q: 'example.net' }))).toEqual([p.c.id]);
      expect(idsOf(await list({ q: '100%_' }))).toEqual([]);
      expect(idsOf(await list({ 'created_at[gte]': '2026-01-02T10:00:00Z', 'created_at[lt]': '2026-01-04' }))).toEqual([
        p.b.id,
        p.c.id,
      ]);
      // The convert changed d's updated_at; the others still carry their backdated time.
      expect(idsOf(await list({ 'updated_at[gt]': '2026-01-05T00:00:00Z' }))).toEqual([p.d.id]);
    });

    it('sorts by follow_up_on (no date last), -follow_up_on, last_name, -created_at; pages with the cursor', async () => {
      expect(idsOf(await list({ sort: 'follow_up_on' }))).toEqual([p.b.id, p.d.id, p.a.id, p.c.id]);
      expect(idsOf(await list({ sort: '-follow_up_on' }))).toEqual([p.c.id, p.a.id, p.d.id, p.b.id]);
      expect(idsOf(await list({ sort: 'last_name' }))).toEqual([p.b.id, p.d.id, p.c.id, p.a.id]);
      expect(idsOf(await list({ sort: '-created_at' }))).toEqual([p.d.id, p.c.id, p.b.id, p.a.id]);

      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: List<Prospect> = await list({ sort: 'follow_up_on', limit: '1', ...(cursor ? { cursor } : {}) });
        seen.push(...idsOf(page));
        cursor = page.next_cursor;
      } while (cursor);
      expect(seen).toEqual([p.b.id, p.d.id, p.a.id, p.c.id]);
    });

    itRefusesBadListParams(
      () => api,
      '/v1/prospects',
      () => as(church),
      [
        [{ first_name: 'Ana' }, 'first_name'],
        [{ sort: 'first_name' }, 'sort'],
        [{ 'stage[gt]': 'new' }, 'stage[gt]'],
        [{ stage: 'won' }, 'stage'],
        [{ 'follow_up_on[lte]': '2026-02-30' }, 'follow_up_on[lte]'],
        [{ member_id: () => p.d.member_id! }, 'member_id'],
      ],
    );
  });

  // -------------------------------------------------------------------------------------------
  describe('tenant isolation', () => {
    it("answers 404 to another church's prospect on every {id} route, and does not list it", async () => {
      const a = await newTenant(api);
      const b = await newTenant(api);
      const theirs = await newProspect(api, a, { first_name: 'Solo', last_name: 'De A' });
      for (const [method, path, body] of [
        ['get', `/v1/prospects/${theirs.id}`, undefined],
        ['patch', `/v1/prospects/${theirs.id}`, { stage: 'lost' }],
        ['delete', `/v1/prospects/${theirs.id}`, undefined],
        ['post', `/v1/prospects/${theirs.id}/convert`, undefined],
      ] as const) {
        const res = await api[method]<Problem>(path, as(b, { body }));
        expect({ method, status: res.status, code: res.body.code }).toEqual({
          method,
          status: 404,
          code: 'resource_not_found',
        });
      }
      expect((await listProspects(api, b)).total).toBe(0);
      expect((await api.get<Prospect>(`/v1/prospects/${theirs.id}`, as(a))).body).toEqual(theirs);
      expect(await membersNamed(api, b, 'De A')).toBe(0);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('scopes', () => {
    let church: TestTenant;
    let prospect: Prospect;

    beforeAll(async () => {
      church = await newTenant(api);
      prospect = await newProspect(api, church, { first_name: 'Scoped', last_name: 'Prospect' });
    });

    it('read:members reads but does not write (403 naming write:members)', async () => {
      const { token } = await newToken(api, church, ['read:members']);
      expect((await api.get('/v1/prospects', { token, tenant: church.slug })).status).toBe(200);
      expect((await api.get(`/v1/prospects/${prospect.id}`, { token, tenant: church.slug })).status).toBe(200);
      for (const [method, path, body] of [
        ['post', '/v1/prospects', { first_name: 'X', last_name: 'Y' }],
        ['patch', `/v1/prospects/${prospect.id}`, { stage: 'lost' }],
        ['delete', `/v1/prospects/${prospect.id}`, undefined],
        ['post', `/v1/prospects/${prospect.id}/convert`, undefined],
      ] as const) {
        const res = await api[method]<Problem>(path, { token, tenant: church.slug, body });
        expect({
          method,
          path,
          status: res.status,
          code: res.body.code,
          scope: res.headers['www-authenticate'],
        }).toEqual({
          method,
          path,
          status: 403,
          code: 'scope_insufficient',
          scope: expect.stringContaining('scope="write:members"'),
        });
      }
      expect((await api.get<Prospect>(`/v1/prospects/${prospect.id}`, as(church))).body).toEqual(prospect);
    });

    it('write:members writes but does not read; campuses scopes reach nothing', async () => {
      const writer = await newToken(api, church, ['write:members']);
      expect(
        (
          await api.post('/v1/prospects', {
            token: writer.token,
            tenant: church.slug,
            body: { first_name: 'W', last_name: 'O' },
          })
        ).status,
      ).toBe(201);
      const read = await api.get<Problem>(`/v1/prospects/${prospect.id}`, { token: writer.token, tenant: church.slug });
      expect([read.status, read.body.code]).toEqual([403, 'scope_insufficient']);
      expect(read.headers['www-authenticate']).toContain('scope="read:members"');

      const campuses = await newToken(api, church, ['read:campuses', 'write:campuses']);
      const list = await api.get<Problem>('/v1/prospects', { token: campuses.token, tenant: church.slug });
      expect([list.status, list.body.code]).toEqual([403, 'scope_insufficient']);
    });
  });
});
