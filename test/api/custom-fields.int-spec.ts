import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { TenantContext } from '../../src/common/context/tenant-context';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import { JsonObject, TestApi } from '../support/api';
import { explainQueryOf, MEMBERS_PAGE, nodesOf, PlanNode, planSummary } from '../support/query-plan';
import { inTenant, newCustomField, newMember, newMembers, newTenant, newToken, TestTenant } from '../support/factories';
import { sleep } from '../support/wait';
import { as, issuesOf, itRefusesBadListParams, qs } from '../support/http';
import type { CustomFieldResponse as CustomField } from '../../src/modules/custom-fields/dto/custom-field.response';
import type {
  BulkCreateMembersResponse as BulkResult,
  MemberResponse as Member,
} from '../../src/modules/members/dto/member.response';

/** CONTRACT §10 Custom fields: /v1/custom-fields, members' custom_fields checked against them, custom_fields.<key> filters. */

const FIELD_ID = /^cfd_[0-9a-f]{32}$/;
const UTC_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const byField = <T extends { field: string }>(issues: T[]) =>
  [...issues].sort((a, b) => a.field.localeCompare(b.field));
const uuidOf = (publicId: string) =>
  publicId.slice(publicId.indexOf('_') + 1).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

/** Fields of every type, as most tests use them. */
const FIELDS: JsonObject[] = [
  { key: 'baptized', label: 'Baptized', type: 'boolean' },
  { key: 'shirt_size', label: 'Shirt size', type: 'select', options: ['S', 'M', 'L'] },
  { key: 'visits', label: 'Visits', type: 'number' },
  { key: 'baptism_date', label: 'Baptism date', type: 'date' },
  { key: 'notes', label: 'Notes', type: 'text' },
];

describe('custom fields', () => {
  let api: TestApi;

  async function churchWithFields(extra: JsonObject[] = []): Promise<TestTenant> {
    const church = await newTenant(api);
    for (const body of [...FIELDS, ...extra]) await newCustomField(api, church, body);
    return church;
  }

  async function listMembers(church: TestTenant, params: Record<string, string>): Promise<List<Member>> {
    const res = await api.get<List<Member>>(`/v1/members${qs(params)}`, as(church));
    if (res.status !== 200) throw new Error(`list members failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  const customFieldsRows = (church: TestTenant, key: string) =>
    api.db.platform.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM members WHERE tenant_id = $1 AND custom_fields ? $2`,
      [church.id, key],
    );

  beforeAll(async () => {
    // TypeORM logs each refused statement (a unique index settling a race) to console.log.
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
    api = await TestApi.start();
  });
  afterAll(async () => {
    await api?.close();
    jest.restoreAllMocks();
  });

  // -------------------------------------------------------------------------------------------
  describe('POST /v1/custom-fields', () => {
    let church: TestTenant;

    beforeAll(async () => {
      church = await newTenant(api);
    });

    it('defines a field: 201, Location, cfd_ id, required false and options null by default', async () => {
      const res = await api.post<CustomField>(
        '/v1/custom-fields',
        as(church, { body: { key: 'baptized', label: '  Baptized  ', type: 'boolean' } }),
      );
      expect(res.status).toBe(201);
      expect(res.body.id).toMatch(FIELD_ID);
      expect(res.headers.location).toBe(`/v1/custom-fields/${res.body.id}`);
      expect(res.body).toEqual({
        id: res.body.id,
        key: 'baptized',
        label: 'Baptized',
        type: 'boolean',
        options: null,
        required: false,
        created_at: expect.stringMatching(UTC_ISO),
        updated_at: res.body.created_at,
      });
      const fetched = await api.get<CustomField>(res.headers.location, as(church));
      expect([fetched.status, fetched.body]).toEqual([200, res.body]);
      expect(
        (await api.get(res.headers.location, as(church, { headers: { 'If-None-Match': fetched.headers.etag } })))
          .status,
      ).toBe(304);
    });

    it('defines a select field with its options, and a required field', async () => {
      const select = await newCustomField(api, church, {
        key: 'size',
        label: 'Size',
        type: 'select',
        options: ['S', 'M', 'L'],
        required: true,
      });
      expect(select).toMatchObject({ type: 'select', options: ['S', 'M', 'L'], required: true });
      for (const type of ['text', 'number', 'date'])
        expect((await newCustomField(api, church, { key: `a_${type}`, label: type, type })).type).toBe(type);
    });

    it('refuses a key the church already has (409 conflict naming key); another church may use it', async () => {
      await newCustomField(api, church, { key: 'dup', label: 'First', type: 'text' });
      const res = await api.post<Problem>(
        '/v1/custom-fields',
        as(church, { body: { key: 'dup', label: 'Second', type: 'number' } }),
      );
      expect([res.status, res.body.code, issuesOf(res.body)]).toEqual([
        409,
        'conflict',
        [{ field: 'key', issue: 'duplicate' }],
      ]);
      const other = await newTenant(api);
      expect(
        (await api.post('/v1/custom-fields', as(other, { body: { key: 'dup', label: 'Theirs', type: 'date' } })))
          .status,
      ).toBe(201);
    });

    it('validates every field (422 naming each)', async () => {
      const cases: [JsonObject, { field: string; issue: string }[]][] = [
        [
          {},
          [
            { field: 'key', issue: 'required' },
            { field: 'label', issue: 'required' },
            { field: 'type', issue: 'required' },
          ],
        ],
        [{ key: 'Shirt Size', label: 'x', type: 'text' }, [{ field: 'key', issue: 'invalid_format' }]],
        [{ key: 'shirt-size', label: 'x', type: 'text' }, [{ field: 'key', issue: 'invalid_format' }]],
        [{ key: '1st', label: 'x', type: 'text' }, [{ field: 'key', issue: 'invalid_format' }]],
        [{ key: 'k'.repeat(41), label: 'x', type: 'text' }, [{ field: 'key', issue: 'invalid_format' }]],
        [{ key: 7, label: 'x', type: 'text' }, [{ field: 'key', issue: 'invalid_type' }]],
        [{ key: 'ok', label: '', type: 'text' }, [{ field: 'label', issue: 'too_short' }]],
        [{ key: 'ok', label: 'l'.repeat(101), type: 'text' }, [{ field: 'label', issue: 'too_long' }]],
        [{ key: 'ok', label: 'x', type: 'list' }, [{ field: 'type', issue: 'one_of' }]],
        [{ key: 'ok', label: 'x', type: 'select' }, [{ field: 'options', issue: 'required' }]],
        [{ key: 'ok', label: 'x', type: 'select', options: [] }, [{ field: 'options', issue: 'required' }]],
        [{ key: 'ok', label: 'x', type: 'select', options: ['A', 'A'] }, [{ field: 'options', issue: 'duplicate' }]],
        [{ key: 'ok', label: 'x', type: 'select', options: ['A', 3] }, [{ field: 'options', issue: 'invalid_type' }]],
        [{ key: 'ok', label: 'x', type: 'select', options: 'A,B' }, [{ field: 'options', issue: 'invalid_type' }]],
        [{ key: 'ok', label: 'x', type: 'text', options: ['A'] }, [{ field: 'options', issue: 'not_allowed' }]],
        [{ key: 'ok', label: 'x', type: 'text', required: 'yes' }, [{ field: 'required', issue: 'invalid_type' }]],
        [{ key: 'ok', label: 'x', type: 'text', default: 'y' }, [{ field: 'default', issue: 'unknown_field' }]],
      ];
      for (const [body, errors] of cases) {
        const res = await api.post<Problem>('/v1/custom-fields', as(church, { body }));
        expect({ body, status: res.status, code: res.body.code, errors: byField(issuesOf(res.body)) }).toEqual({
          body,
          status: 422,
          code: 'validation_failed',
          errors,
        });
      }
      expect((await api.get<List<CustomField>>('/v1/custom-fields?key=ok', as(church))).body.total).toBe(0);
    });

    it('10 concurrent definitions of one key: one 201, nine 409, one row', async () => {
      const c = await newTenant(api);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          api.post<Problem>('/v1/custom-fields', as(c, { body: { key: 'raced', label: `L${i}`, type: 'text' } })),
        ),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 409 && a.body.code === 'conflict')).toHaveLength(9);
      expect(
        await api.db.platform.query('SELECT count(*)::int AS n FROM custom_field_definitions WHERE tenant_id = $1', [
          c.id,
        ]),
      ).toEqual([{ n: 1 }]);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('GET, PATCH and DELETE /v1/custom-fields', () => {
    let church: TestTenant;

    beforeAll(async () => {
      church = await churchWithFields();
    });

    it('lists the definitions, oldest first; filters type, required, key; sorts by key', async () => {
      const all = await api.get<List<CustomField>>('/v1/custom-fields', as(church));
      expect(all.status).toBe(200);
      expect(all.body.data.map((f) => f.key)).toEqual(['baptized', 'shirt_size', 'visits', 'baptism_date', 'notes']);
      expect(all.body.total).toBe(5);
      const get = async (params: Record<string, string>) =>
        (await api.get<List<CustomField>>(`/v1/custom-fields${qs(params)}`, as(church))).body.data.map((f) => f.key);
      expect(await get({ type: 'select' })).toEqual(['shirt_size']);
      expect(await get({ 'type[in]': 'date,number' })).toEqual(['visits', 'baptism_date']);
      expect(await get({ required: 'true' })).toEqual([]);
      expect(await get({ key: 'notes' })).toEqual(['notes']);
      expect(await get({ sort: 'key' })).toEqual(['baptism_date', 'baptized', 'notes', 'shirt_size', 'visits']);
      expect(await get({ 'created_at[gte]': all.body.data[4].created_at })).toEqual(['notes']);
      const bad = await api.get<Problem>('/v1/custom-fields?label=x', as(church));
      expect([bad.status, bad.body.code]).toEqual([400, 'invalid_parameter']);
    });

    it('PATCH changes label, options and required; key and type are fixed', async () => {
      const field = await newCustomField(api, church, {
        key: 'team',
        label: 'Team',
        type: 'select',
        options: ['Red', 'Blue'],
      });
      await sleep(5);
      const res = await api.patch<CustomField>(
        `/v1/custom-fields/${field.id}`,
        as(church, { body: { label: 'Equipo', options: ['Red', 'Blue', 'Green'], required: true } }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...field,
        label: 'Equipo',
        options: ['Red', 'Blue', 'Green'],
        required: true,
        updated_at: res.body.updated_at,
      });
      expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(field.updated_at));
      const cases: [JsonObject, { field: string; issue: string }][] = [
        [{ key: 'other' }, { field: 'key', issue: 'unknown_field' }],
        [{ type: 'text' }, { field: 'type', issue: 'unknown_field' }],
        [{ label: null }, { field: 'label', issue: 'required' }],
        [{ options: [] }, { field: 'options', issue: 'required' }],
        [{ options: null }, { field: 'options', issue: 'required' }],
      ];
      for (const [body, issue] of cases) {
        const bad = await api.patch<Problem>(`/v1/custom-fields/${field.id}`, as(church, { body }));
        expect({ body, status: bad.status, errors: issuesOf(bad.body) }).toEqual({
          body,
          status: 422,
          errors: [issue],
        });
      }
      const text = (await api.get<List<CustomField>>('/v1/custom-fields?key=notes', as(church))).body.data[0];
      const notAllowed = await api.patch<Problem>(
        `/v1/custom-fields/${text.id}`,
        as(church, { body: { options: ['A'] } }),
      );
      expect([notAllowed.status, issuesOf(notAllowed.body)]).toEqual([
        422,
        [{ field: 'options', issue: 'not_allowed' }],
      ]);
    });

    it('answers 404 to unknown and malformed ids', async () => {
      for (const id of [`cfd_${'0'.repeat(32)}`, 'cfd_1', `tag_${'0'.repeat(32)}`, 'baptized']) {
        for (const method of ['GET', 'PATCH', 'DELETE']) {
          const res = await api.send<Problem>(
            method,
            `/v1/custom-fields/${id}`,
            as(church, method === 'PATCH' ? { body: { label: 'x' } } : {}),
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

    it('DELETE removes the key from every member in one go: 204, no member.updated, updated_at advances, the key unknown again', async () => {
      const c = await churchWithFields();
      const keep = await newMember(api, c, { custom_fields: { notes: 'keep me', visits: 2 } });
      const ids = await newMembers(
        api,
        c,
        Array.from({ length: 5 }, (_, i) => ({ first_name: `V${i}`, last_name: 'Del', custom_fields: { visits: i } })),
      );
      const field = (await api.get<List<CustomField>>('/v1/custom-fields?key=visits', as(c))).body.data[0];
      const updatedBefore = (await api.get<List<unknown>>('/v1/webhook-events?type=member.updated', as(c))).body.total;
      await sleep(5);

      expect((await api.delete(`/v1/custom-fields/${field.id}`, as(c))).status).toBe(204);
      expect(await customFieldsRows(c, 'visits')).toEqual([{ n: 0 }]);
      const after = await api.get<Member>(`/v1/members/${keep.id}`, as(c));
      expect(after.body.custom_fields).toEqual({ notes: 'keep me' });
      expect(Date.parse(after.body.updated_at)).toBeGreaterThan(Date.parse(keep.updated_at));
      expect((await api.get<Member>(`/v1/members/${ids[3]}`, as(c))).body.custom_fields).toEqual({});
      expect((await api.get<List<unknown>>('/v1/webhook-events?type=member.updated', as(c))).body.total).toBe(
        updatedBefore,
      );

      expect((await api.get(`/v1/custom-fields/${field.id}`, as(c))).status).toBe(404);
      const unknown = await api.post<Problem>(
        '/v1/members',
        as(c, { body: { first_name: 'A', last_name: 'B', custom_fields: { visits: 1 } } }),
      );
      expect([unknown.status, issuesOf(unknown.body)]).toEqual([
        422,
        [{ field: 'custom_fields.visits', issue: 'unknown_field' }],
      ]);
      const filter = await api.get<Problem>('/v1/members?custom_fields.visits=1', as(c));
      expect([filter.status, filter.body.code]).toEqual([400, 'invalid_parameter']);
      expect(
        (await api.post('/v1/custom-fields', as(c, { body: { key: 'visits', label: 'Visits', type: 'text' } }))).status,
      ).toBe(201);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe("members' custom_fields are checked against the definitions", () => {
    let church: TestTenant;

    beforeAll(async () => {
      church = await churchWithFields();
    });

    it('accepts a value of the right type for each field, and null for no value', async () => {
      const values = { baptized: true, shirt_size: 'M', visits: 3.5, baptism_date: '2001-09-30', notes: 'Sings' };
      const member = await newMember(api, church, { custom_fields: values });
      expect(member.custom_fields).toEqual(values);
      expect((await api.get<Member>(`/v1/members/${member.id}`, as(church))).body.custom_fields).toEqual(values);
      expect((await newMember(api, church, { custom_fields: { notes: null, visits: -2 } })).custom_fields).toEqual({
        notes: null,
        visits: -2,
      });
    });

    it('refuses unknown keys and wrong types, naming every custom_fields.<key> in one 422; nothing is created', async () => {
      const res = await api.post<Problem>(
        '/v1/members',
        as(church, {
          body: {
            first_name: 'Bad',
            last_name: 'Values',
            custom_fields: {
              baptized: 'yes',
              shirt_size: 'XL',
              visits: '3',
              baptism_date: '2001-02-30',
              notes: 5,
              favourite_color: 'blue',
            },
          },
        }),
      );
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(byField(issuesOf(res.body))).toEqual([
        { field: 'custom_fields.baptism_date', issue: 'invalid_type' },
        { field: 'custom_fields.baptized', issue: 'invalid_type' },
        { field: 'custom_fields.favourite_color', issue: 'unknown_field' },
        { field: 'custom_fields.notes', issue: 'invalid_type' },
        { field: 'custom_fields.shirt_size', issue: 'not_in_options' },
        { field: 'custom_fields.visits', issue: 'invalid_type' },
      ]);
      expect(res.body.errors!.find((e) => e.field === 'custom_fields.shirt_size')!.message).toContain('S, M, L');
      const en = await api.post<Problem>(
        '/v1/members',
        as(church, { lang: 'en', body: { first_name: 'A', last_name: 'B', custom_fields: { shirt_size: 'XL' } } }),
      );
      expect(en.body.errors![0].message).toBe('Must be one of the field’s options: S, M, L.');
      expect((await listMembers(church, { q: 'Values' })).total).toBe(0);
    });

    it("another church's definitions do not count", async () => {
      const other = await newTenant(api);
      const res = await api.post<Problem>(
        '/v1/members',
        as(other, { body: { first_name: 'A', last_name: 'B', custom_fields: { baptized: true } } }),
      );
      expect([res.status, issuesOf(res.body)]).toEqual([
        422,
        [{ field: 'custom_fields.baptized', issue: 'unknown_field' }],
      ]);
    });

    describe('required fields', () => {
      let c: TestTenant;

      beforeAll(async () => {
        c = await churchWithFields([{ key: 'campus_group', label: 'Group', type: 'text', required: true }]);
      });

      it('are missing when left out or null on create', async () => {
        for (const custom_fields of [undefined, {}, { campus_group: null }, { notes: 'x' }]) {
          const res = await api.post<Problem>(
            '/v1/members',
            as(c, { body: { first_name: 'A', last_name: 'B', ...(custom_fields ? { custom_fields } : {}) } }),
          );
          expect({ custom_fields, status: res.status, errors: issuesOf(res.body) }).toEqual({
            custom_fields,
            status: 422,
            errors: [{ field: 'custom_fields.campus_group', issue: 'missing' }],
          });
        }
        expect((await newMember(api, c, { custom_fields: { campus_group: 'North' } })).custom_fields).toEqual({
          campus_group: 'North',
        });
      });

      it('are missing on PUT (which replaces custom_fields), not on a PATCH that leaves them out (PATCH merges)', async () => {
        const member = await newMember(api, c, {
          custom_fields: { campus_group: 'North', notes: 'n', baptized: true },
        });
        const put = await api.put<Problem>(
          `/v1/members/${member.id}`,
          as(c, { body: { first_name: 'A', last_name: 'B' } }),
        );
        expect([put.status, issuesOf(put.body)]).toEqual([
          422,
          [{ field: 'custom_fields.campus_group', issue: 'missing' }],
        ]);

        const patch = await api.patch<Member>(
          `/v1/members/${member.id}`,
          as(c, { body: { custom_fields: { notes: 'changed', visits: 4 } } }),
        );
        expect(patch.status).toBe(200);
        expect(patch.body.custom_fields).toEqual({
          campus_group: 'North',
          notes: 'changed',
          baptized: true,
          visits: 4,
        });
        expect((await api.patch(`/v1/members/${member.id}`, as(c, { body: { first_name: 'Only' } }))).status).toBe(200);

        const cleared = await api.patch<Problem>(
          `/v1/members/${member.id}`,
          as(c, { body: { custom_fields: { campus_group: null } } }),
        );
        expect([cleared.status, issuesOf(cleared.body)]).toEqual([
          422,
          [{ field: 'custom_fields.campus_group', issue: 'missing' }],
        ]);

        const replaced = await api.put<Member>(
          `/v1/members/${member.id}`,
          as(c, { body: { first_name: 'A', last_name: 'B', custom_fields: { campus_group: 'South' } } }),
        );
        expect([replaced.status, replaced.body.custom_fields]).toEqual([200, { campus_group: 'South' }]);
      });
    });

    it('PATCH checks the keys it sets and changes nothing when one is wrong', async () => {
      const member = await newMember(api, church, { custom_fields: { visits: 1 } });
      for (const [custom_fields, error] of [
        [{ visits: 'two' }, { field: 'custom_fields.visits', issue: 'invalid_type' }],
        [{ nickname: 'x' }, { field: 'custom_fields.nickname', issue: 'unknown_field' }],
        [{ shirt_size: 's' }, { field: 'custom_fields.shirt_size', issue: 'not_in_options' }],
      ] as [JsonObject, { field: string; issue: string }][]) {
        const res = await api.patch<Problem>(
          `/v1/members/${member.id}`,
          as(church, { body: { first_name: 'Changed', custom_fields } }),
        );
        expect({ custom_fields, status: res.status, errors: issuesOf(res.body) }).toEqual({
          custom_fields,
          status: 422,
          errors: [error],
        });
      }
      expect((await api.get<Member>(`/v1/members/${member.id}`, as(church))).body).toEqual(member);
    });

    it('bulk: rows with wrong custom fields fail with their errors, the others are created', async () => {
      const res = await api.post<BulkResult>(
        '/v1/members/bulk',
        as(church, {
          body: {
            members: [
              { first_name: 'Ok', last_name: 'One', custom_fields: { baptized: false, shirt_size: 'L' } },
              { first_name: 'Bad', last_name: 'Two', custom_fields: { shirt_size: 'XXL', height: 180 } },
              { first_name: 'Ok', last_name: 'Three' },
              { first_name: 'Bad', last_name: 'Four', custom_fields: { baptism_date: 'yesterday' } },
            ],
          },
        }),
      );
      expect(res.status).toBe(200);
      expect([res.body.created, res.body.failed]).toEqual([2, 2]);
      expect(
        res.body.results.map((r) =>
          r.error ? byField(r.error.errors.map(({ field, issue }) => ({ field, issue }))) : 'ok',
        ),
      ).toEqual([
        'ok',
        [
          { field: 'custom_fields.height', issue: 'unknown_field' },
          { field: 'custom_fields.shirt_size', issue: 'not_in_options' },
        ],
        'ok',
        [{ field: 'custom_fields.baptism_date', issue: 'invalid_type' }],
      ]);
      expect((await api.get<Member>(`/v1/members/${res.body.results[0].id}`, as(church))).body.custom_fields).toEqual({
        baptized: false,
        shirt_size: 'L',
      });
    });

    it('reads the definitions once per write, and not at all for a PATCH without custom_fields', async () => {
      const member = await newMember(api, church, { custom_fields: { visits: 1 } });
      const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
      const definitionQueries = () => spy.mock.calls.filter(([sql]) => /custom_field_definitions/.test(sql)).length;
      try {
        await newMember(api, church, { custom_fields: { visits: 2, notes: 'x', baptized: true } });
        expect(definitionQueries()).toBe(1);
        spy.mockClear();
        expect((await api.patch(`/v1/members/${member.id}`, as(church, { body: { first_name: 'Name' } }))).status).toBe(
          200,
        );
        expect(definitionQueries()).toBe(0);
        spy.mockClear();
        await newMembers(
          api,
          church,
          Array.from({ length: 50 }, (_, i) => ({
            first_name: `B${i}`,
            last_name: 'Bulk',
            custom_fields: { visits: i },
          })),
        );
        expect(definitionQueries()).toBe(1);
      } finally {
        spy.mockRestore();
      }
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('member list filters custom_fields.<key>', () => {
    let church: TestTenant;
    const m: Record<string, string> = {};

    beforeAll(async () => {
      church = await churchWithFields();
      m.ana = (
        await newMember(api, church, {
          custom_fields: {
            baptized: true,
            shirt_size: 'S',
            visits: 1,
            baptism_date: '1999-01-10',
            notes: 'choir',
          },
        })
      ).id;
      m.beto = (
        await newMember(api, church, {
          custom_fields: {
            baptized: false,
            shirt_size: 'M',
            visits: 5,
            baptism_date: '2010-06-01',
            notes: 'Choir',
          },
        })
      ).id;
      m.carla = (
        await newMember(api, church, {
          custom_fields: { baptized: true, shirt_size: 'M', visits: 12.5, baptism_date: '2020-12-31' },
        })
      ).id;
      m.dario = (await newMember(api, church, { custom_fields: {} })).id;
      // A value stored before its definition said otherwise (free-form custom_fields of old): never a match, never an error.
      await inTenant(api, church.id, () =>
        TenantContext.current().manager.query(
          `INSERT INTO members (tenant_id, id, first_name, last_name, status, active, custom_fields, created_at, updated_at)
           VALUES ($1, gen_random_uuid(), 'Legacy', 'Data', 'visitor', true, '{"visits": "many", "baptism_date": "soon", "baptized": "yes"}', now(), now())`,
          [church.id],
        ),
      );
    });

    const ids = async (params: Record<string, string>) =>
      (await listMembers(church, params)).data.map((x) => x.id).sort();
    const expectIds = (...names: string[]) => names.map((n) => m[n]).sort();

    it('equality on every type (typed by the definition)', async () => {
      expect(await ids({ 'custom_fields.baptized': 'true' })).toEqual(expectIds('ana', 'carla'));
      expect(await ids({ 'custom_fields.baptized': 'false' })).toEqual(expectIds('beto'));
      expect(await ids({ 'custom_fields.shirt_size': 'M' })).toEqual(expectIds('beto', 'carla'));
      expect(await ids({ 'custom_fields.visits': '5' })).toEqual(expectIds('beto'));
      expect(await ids({ 'custom_fields.visits': '12.5' })).toEqual(expectIds('carla'));
      expect(await ids({ 'custom_fields.baptism_date': '2010-06-01' })).toEqual(expectIds('beto'));
      expect(await ids({ 'custom_fields.notes': 'choir' })).toEqual(expectIds('ana'));
      expect(await ids({ 'custom_fields.shirt_size': 'M', 'custom_fields.baptized': 'true' })).toEqual(
        expectIds('carla'),
      );
      expect((await listMembers(church, { 'custom_fields.shirt_size': 'S' })).total).toBe(1);
    });

    it('[gt] [gte] [lt] [lte] on number and date fields', async () => {
      expect(await ids({ 'custom_fields.visits[gt]': '1' })).toEqual(expectIds('beto', 'carla'));
      expect(await ids({ 'custom_fields.visits[gte]': '5', 'custom_fields.visits[lt]': '12.5' })).toEqual(
        expectIds('beto'),
      );
      expect(await ids({ 'custom_fields.visits[lte]': '-1' })).toEqual([]);
      expect(await ids({ 'custom_fields.baptism_date[gte]': '2010-06-01' })).toEqual(expectIds('beto', 'carla'));
      expect(await ids({ 'custom_fields.baptism_date[lt]': '2010-06-01' })).toEqual(expectIds('ana'));
      expect(
        await ids({ 'custom_fields.baptism_date[gt]': '2000-01-01', 'custom_fields.baptism_date[lte]': '2020-12-30' }),
      ).toEqual(expectIds('beto'));
    });

    // An undefined key, an operator the type does not have, or a value of the wrong type.
    itRefusesBadListParams(
      () => api,
      '/v1/members',
      () => as(church),
      [
        [{ 'custom_fields.height': '1' }, 'custom_fields.height'],
        [{ 'custom_fields.visits.deep': '1' }, 'custom_fields.visits.deep'],
        [{ 'custom_fields.notes[gt]': 'a' }, 'custom_fields.notes[gt]'],
        [{ 'custom_fields.baptized[lt]': 'true' }, 'custom_fields.baptized[lt]'],
        [{ 'custom_fields.visits': 'five' }, 'custom_fields.visits'],
        [{ 'custom_fields.visits[gt]': '1e9' }, 'custom_fields.visits[gt]'],
        [{ 'custom_fields.baptism_date[gt]': '2020-02-30' }, 'custom_fields.baptism_date[gt]'],
        [{ 'custom_fields.baptized': 'yes' }, 'custom_fields.baptized'],
        [{ 'custom_fields.shirt_size': 'XL' }, 'custom_fields.shirt_size'],
        [{ 'custom_fields.': '1' }, 'custom_fields.'],
      ],
    );
  });

  // -------------------------------------------------------------------------------------------
  describe('EXPLAIN: custom_fields.<key>=value is served by the GIN index', () => {
    const MEMBERS = 6_000;
    let church: TestTenant;

    beforeAll(async () => {
      church = await churchWithFields();
      await inTenant(api, church.id, () =>
        TenantContext.current().manager.query(
          `INSERT INTO members (tenant_id, id, first_name, last_name, status, active, custom_fields, created_at, updated_at)
           SELECT $1, gen_random_uuid(), 'F' || i, 'L' || (i % 97), 'member', true,
                  jsonb_build_object('shirt_size', CASE WHEN i % 600 = 0 THEN 'L' WHEN i % 2 = 0 THEN 'S' ELSE 'M' END, 'visits', i % 50, 'baptized', i % 3 = 0),
                  now() - i * interval '1 minute', now()
             FROM generate_series(1, ${MEMBERS}) AS i`,
          [church.id],
        ),
      );
      // VACUUM as autovacuum would: it also merges the GIN index's pending list (fresh inserts), which the planner counts against the index.
      await api.db.platform.query('VACUUM ANALYZE members');
    }, 60_000);

    /** The page query the API runs for GET /v1/members with `params`, EXPLAINed as the church's request ran it. */
    async function explain(params: Record<string, string>): Promise<{ plan: PlanNode; total: number | null }> {
      const { plan, answer } = await explainQueryOf(api, church.id, () => listMembers(church, params), MEMBERS_PAGE);
      return { plan, total: answer.total };
    }

    const summary = planSummary;

    it('a rare value (10 of 6,000): a bitmap scan of members_custom_fields_idx, no Seq Scan', async () => {
      const { plan, total } = await explain({ 'custom_fields.shirt_size': 'L', limit: '50' });
      expect(total).toBe(10);
      expect(summary(plan)).toContain('Bitmap Index Scan using members_custom_fields_idx');
      expect(summary(plan)).not.toContain('Seq Scan');
    });

    it('a common value and a range: never a Seq Scan on members', async () => {
      for (const params of <Record<string, string>[]>[
        { 'custom_fields.shirt_size': 'S', limit: '50' },
        { 'custom_fields.baptized': 'true', 'custom_fields.visits[gte]': '40', sort: 'last_name', limit: '50' },
      ]) {
        const { plan } = await explain(params);
        expect({
          params,
          seqScans: nodesOf(plan)
            .filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'members')
            .map(() => summary(plan)),
        }).toEqual({
          params,
          seqScans: [],
        });
      }
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('a definition deleted while members are written', () => {
    it('no member keeps the key: writes that held the definition lose their value, later ones are 422', async () => {
      const c = await churchWithFields();
      const members = await newMembers(
        api,
        c,
        Array.from({ length: 12 }, (_, i) => ({ first_name: `R${i}`, last_name: 'Race' })),
      );
      const field = (await api.get<List<CustomField>>('/v1/custom-fields?key=notes', as(c))).body.data[0];
      const answers = await Promise.all([
        ...members
          .slice(0, 6)
          .map((id, i) => api.patch(`/v1/members/${id}`, as(c, { body: { custom_fields: { notes: `n${i}` } } }))),
        api.delete(`/v1/custom-fields/${field.id}`, as(c)),
        ...members
          .slice(6)
          .map((id, i) => api.patch(`/v1/members/${id}`, as(c, { body: { custom_fields: { notes: `m${i}` } } }))),
        api.post(
          '/v1/members',
          as(c, { body: { first_name: 'New', last_name: 'Race', custom_fields: { notes: 'new' } } }),
        ),
      ]);
      expect(answers.filter((a) => ![200, 201, 204, 422].includes(a.status)).map((a) => a.status)).toEqual([]);
      expect(answers[6].status).toBe(204);
      expect(await customFieldsRows(c, 'notes')).toEqual([{ n: 0 }]);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('tenant isolation and scopes', () => {
    let a: TestTenant;
    let b: TestTenant;
    let field: CustomField;

    beforeAll(async () => {
      a = await newTenant(api);
      b = await newTenant(api);
      field = await newCustomField(api, a, { key: 'ours', label: 'Ours', type: 'text' });
      await newCustomField(api, b, { key: 'theirs', label: 'Theirs', type: 'text' });
    });

    it("answers 404 to another church's definition on every route, and lists only the church's own", async () => {
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const res = await api.send<Problem>(
          method,
          `/v1/custom-fields/${field.id}`,
          as(b, method === 'PATCH' ? { body: { label: 'Hijack' } } : {}),
        );
        expect({ method, status: res.status, code: res.body.code }).toEqual({
          method,
          status: 404,
          code: 'resource_not_found',
        });
      }
      expect((await api.get<CustomField>(`/v1/custom-fields/${field.id}`, as(a))).body).toEqual(field);
      expect((await api.get<List<CustomField>>('/v1/custom-fields', as(b))).body.data.map((f) => f.key)).toEqual([
        'theirs',
      ]);
    });

    it('read:members reads the definitions; changing them needs admin:* (403 naming it), even with write:members', async () => {
      const reader = await newToken(api, a, ['read:members', 'write:members'], 'staff');
      expect((await api.get('/v1/custom-fields', { token: reader.token, tenant: a.slug })).status).toBe(200);
      expect((await api.get(`/v1/custom-fields/${field.id}`, { token: reader.token, tenant: a.slug })).status).toBe(
        200,
      );
      const writes: [string, string, JsonObject | undefined][] = [
        ['POST', '/v1/custom-fields', { key: 'nope', label: 'Nope', type: 'text' }],
        ['PATCH', `/v1/custom-fields/${field.id}`, { label: 'Nope' }],
        ['DELETE', `/v1/custom-fields/${field.id}`, undefined],
      ];
      for (const [method, path, body] of writes) {
        const res = await api.send<Problem>(method, path, { token: reader.token, tenant: a.slug, body });
        expect({
          method,
          status: res.status,
          code: res.body.code,
          admin: res.body.detail?.includes('admin:*'),
        }).toEqual({ method, status: 403, code: 'scope_insufficient', admin: true });
      }
      // write:members still writes members' values.
      const member = await api.post<Member>('/v1/members', {
        token: reader.token,
        tenant: a.slug,
        body: { first_name: 'A', last_name: 'B', custom_fields: { ours: 'x' } },
      });
      expect([member.status, member.body.custom_fields]).toEqual([201, { ours: 'x' }]);
      const campuses = await newToken(api, a, ['read:campuses']);
      expect((await api.get('/v1/custom-fields', { token: campuses.token, tenant: a.slug })).status).toBe(403);
      expect(
        await api.db.platform.query('SELECT count(*)::int AS n FROM custom_field_definitions WHERE tenant_id = $1', [
          a.id,
        ]),
      ).toEqual([{ n: 1 }]);
      expect(uuidOf(field.id)).toMatch(/^[0-9a-f-]{36}$/);
    });
  });
});
