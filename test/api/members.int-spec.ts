import { TenantContext } from '../../src/common/context/tenant-context';
import { parsePublicId } from '../../src/common/ids/id';
import { BearerStrategy } from '../../src/platform/auth/bearer.strategy';
import { JsonObject, JsonValue, TestApi } from '../support/api';
import {
  campusRef,
  inTenant,
  newCampus,
  newCustomField,
  newMember,
  newMembers,
  newTenant,
  newToken,
  TestTenant,
} from '../support/factories';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import { sleep } from '../support/wait';
import { outboxObjects } from '../support/outbox';
import { as, issuesOf, itRefusesBadListParams, qs } from '../support/http';
import type { CampusRef } from '../../src/modules/campuses/dto/campus.response';
import type {
  BulkCreateMembersResponse as BulkResult,
  BulkRowResult as BulkRow,
  MemberResponse as Member,
} from '../../src/modules/members/dto/member.response';

// ---------------------------------------------------------------------------------------------
// Types and small helpers
// ---------------------------------------------------------------------------------------------

const MEMBER_ID = /^mem_[0-9a-f]{32}$/;
const CAMPUS_ID = /^cmp_[0-9a-f]{32}$/;
const UTC_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const fieldsOf = (body: Problem) => (body.errors ?? []).map((e) => e.field);

/** Today's UTC date, YYYY-MM-DD. */
function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/** A UTC calendar date `years` years and `days` days from today (negative: in the past). */
function utcDate({ years = 0, days = 0 }: { years?: number; days?: number }): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear() + years, now.getUTCMonth(), now.getUTCDate() + days))
    .toISOString()
    .slice(0, 10);
}

/** Whole years between a YYYY-MM-DD birthdate and today (UTC), computed independently of the API. */
function expectedAge(birthdate: string, today = todayUtc()): number {
  const [by, bm, bd] = birthdate.split('-').map(Number);
  const [ty, tm, td] = today.split('-').map(Number);
  const birthdayPassed = tm > bm || (tm === bm && td >= bd);
  return ty - by - (birthdayPassed ? 0 : 1);
}

function varyOf(header: string | undefined): string[] {
  return (header ?? '').split(',').map((v) => v.trim().toLowerCase());
}

/** Custom-field definitions (custom_fields only takes keys the church defined). */
async function defineCustomFields(api: TestApi, church: TestTenant, fields: Record<string, string>): Promise<void> {
  for (const [key, type] of Object.entries(fields)) await newCustomField(api, church, { key, label: key, type });
}

async function listMembers(
  api: TestApi,
  church: TestTenant,
  params: Record<string, string> = {},
): Promise<List<Member>> {
  const res = await api.get<List<Member>>(`/v1/members${qs(params)}`, as(church));
  if (res.status !== 200) throw new Error(`list failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Sets a member's created_at directly (inside the tenant's RLS transaction) to test time filters deterministically. */
async function backdate(api: TestApi, church: TestTenant, memberId: string, createdAt: string): Promise<void> {
  await inTenant(api, church.id, () =>
    TenantContext.current().manager.query('UPDATE members SET created_at = $1 WHERE tenant_id = $2 AND id = $3', [
      createdAt,
      church.id,
      parsePublicId('mem', memberId),
    ]),
  );
}

const ids = (list: List<Member>) => list.data.map((m) => m.id);
const sorted = (values: string[]) => [...values].sort();

// ---------------------------------------------------------------------------------------------

describe('members', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api.close());

  // -------------------------------------------------------------------------------------------
  describe('POST /v1/members', () => {
    let church: TestTenant;
    let north: CampusRef;

    beforeAll(async () => {
      church = await newTenant(api);
      north = await newCampus(api, church, { key: 'north', name: 'North Campus' }).then(campusRef);
      await defineCustomFields(api, church, {
        baptized: 'boolean',
        shirt_size: 'text',
        visits: 'number',
        notes: 'text',
      });
    });

    it('creates a member: 201, Location, mem_ id, every field echoed', async () => {
      const body = {
        first_name: 'María',
        last_name: 'González',
        email: 'maria@example.org',
        phone: '+5213312345678',
        birthdate: '1988-04-17',
        gender: 'female',
        status: 'member',
        campus: 'north',
        active: false,
        address: {
          line1: 'Av. Juárez 100',
          line2: 'Piso 2',
          city: 'Guadalajara',
          region: 'Jalisco',
          postal_code: '44100',
          country: 'MX',
        },
        custom_fields: { baptized: true, shirt_size: 'M', visits: 3, notes: null },
      };
      const res = await api.post<Member>('/v1/members', as(church, { body }));

      expect(res.status).toBe(201);
      expect(res.body.id).toMatch(MEMBER_ID);
      expect(res.headers.location).toBe(`/v1/members/${res.body.id}`);
      expect(res.body).toEqual({
        id: res.body.id,
        first_name: 'María',
        last_name: 'González',
        email: 'maria@example.org',
        phone: '+5213312345678',
        birthdate: '1988-04-17',
        age: expectedAge('1988-04-17'),
        gender: 'female',
        gender_label: 'Femenino',
        status: 'member',
        status_label: 'Miembro',
        campus: north,
        active: false,
        household_id: null,
        household_role: null,
        address: body.address,
        custom_fields: body.custom_fields,
        tags: [],
        created_at: res.body.created_at,
        updated_at: res.body.updated_at,
      });

      // The Location resolves to the same record.
      const fetched = await api.get<Member>(res.headers.location, as(church));
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(res.body);
    });

    it('applies defaults: status visitor, active true, custom_fields {}, optional fields null', async () => {
      const res = await api.post<Member>('/v1/members', as(church, { body: { first_name: 'Ana', last_name: 'Ruiz' } }));

      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(MEMBER_ID),
        first_name: 'Ana',
        last_name: 'Ruiz',
        email: null,
        phone: null,
        birthdate: null,
        age: null,
        gender: null,
        gender_label: null,
        status: 'visitor',
        status_label: 'Visitante',
        campus: null,
        active: true,
        household_id: null,
        household_role: null,
        address: null,
        custom_fields: {},
        tags: [],
        created_at: expect.stringMatching(UTC_ISO),
        updated_at: expect.stringMatching(UTC_ISO),
      });
    });

    it('resolves the campus given by key and by cmp_ id to {id, key, name}', async () => {
      expect(north.id).toMatch(CAMPUS_ID);
      const byKey = await newMember(api, church, { first_name: 'K', last_name: 'ByKey', campus: 'north' });
      const byId = await newMember(api, church, { first_name: 'I', last_name: 'ById', campus: north.id });

      expect(byKey.campus).toEqual({ id: north.id, key: 'north', name: 'North Campus' });
      expect(byId.campus).toEqual({ id: north.id, key: 'north', name: 'North Campus' });
      expect((await api.get<Member>(`/v1/members/${byId.id}`, as(church))).body.campus).toEqual(north);
    });

    it('refuses an unknown campus (key or id) with 422 campus not_found', async () => {
      for (const campus of ['nowhere', `cmp_${'0'.repeat(32)}`]) {
        const res = await api.post<Problem>(
          '/v1/members',
          as(church, { body: { first_name: 'A', last_name: 'B', campus } }),
        );
        expect(res.status).toBe(422);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.body.code).toBe('validation_failed');
        expect(issuesOf(res.body)).toEqual([{ field: 'campus', issue: 'not_found' }]);
      }
    });

    it('does not resolve a campus of another church', async () => {
      const other = await newTenant(api);
      const theirs = await newCampus(api, other, { key: 'theirs', name: 'Their Campus' }).then(campusRef);
      for (const campus of ['theirs', theirs.id]) {
        const res = await api.post<Problem>(
          '/v1/members',
          as(church, { body: { first_name: 'A', last_name: 'B', campus } }),
        );
        expect(res.status).toBe(422);
        expect(issuesOf(res.body)).toEqual([{ field: 'campus', issue: 'not_found' }]);
      }
    });

    it('computes age from the birthdate in whole years (UTC today); null without birthdate', async () => {
      const thirtyToday = utcDate({ years: -30 }); // birthday today: already 30
      const thirtyTomorrow = utcDate({ years: -30, days: 1 }); // birthday tomorrow: still 29
      const fixed = '1990-06-15';
      const a = await newMember(api, church, { first_name: 'A', last_name: 'Today', birthdate: thirtyToday });
      const b = await newMember(api, church, { first_name: 'B', last_name: 'Tomorrow', birthdate: thirtyTomorrow });
      const c = await newMember(api, church, { first_name: 'C', last_name: 'Fixed', birthdate: fixed });
      const d = await newMember(api, church, { first_name: 'D', last_name: 'Unknown' });

      expect(a.age).toBe(expectedAge(thirtyToday));
      expect(b.age).toBe(29);
      expect(c.age).toBe(expectedAge(fixed));
      expect(d.age).toBeNull();
      if (!thirtyToday.endsWith('-03-01')) expect(a.age).toBe(30); // (29 Feb today normalizes to 1 Mar in a common year)
    });

    it('localizes gender_label and status_label by Accept-Language (default es)', async () => {
      const body = { first_name: 'Lucía', last_name: 'Pérez', gender: 'female' };
      const es = await newMember(api, church, body);
      expect([es.gender_label, es.status_label]).toEqual(['Femenino', 'Visitante']);

      const en = await newMember(api, church, body, { lang: 'en' });
      expect([en.gender_label, en.status_label]).toEqual(['Female', 'Visitor']);

      const pt = await api.get<Member>(`/v1/members/${es.id}`, as(church, { lang: 'pt-BR' }));
      expect([pt.body.gender_label, pt.body.status_label]).toEqual(['Feminino', 'Visitante']);

      const enGet = await api.get<Member>(`/v1/members/${es.id}`, as(church, { lang: 'en-US,en;q=0.9' }));
      expect([enGet.body.gender_label, enGet.body.status_label]).toEqual(['Female', 'Visitor']);

      const leader = await newMember(
        api,
        church,
        { first_name: 'L', last_name: 'Leader', gender: 'male', status: 'leader' },
        { lang: 'en' },
      );
      expect([leader.gender_label, leader.status_label]).toEqual(['Male', 'Leader']);
    });

    it('writes timestamps in UTC ISO 8601 with Z, at the time of the request', async () => {
      const before = Date.now();
      const m = await newMember(api, church, { first_name: 'T', last_name: 'Stamp' });
      const after = Date.now();
      expect(m.created_at).toMatch(UTC_ISO);
      expect(m.updated_at).toMatch(UTC_ISO);
      expect(m.updated_at).toBe(m.created_at);
      expect(Date.parse(m.created_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(m.created_at)).toBeLessThanOrEqual(after + 1000);
    });

    it('lists every invalid field in one 422', async () => {
      const res = await api.post<Problem>(
        '/v1/members',
        as(church, {
          body: {
            first_name: 'Ana',
            last_name: 'Ruiz',
            email: 'not-an-email',
            phone: '33-1234-5678',
            birthdate: utcDate({ days: 2 }),
            gender: 'other',
            favourite_color: 'blue',
            address: { city: 'Guadalajara', country: 'Mexico' },
            custom_fields: { tags: ['a', 'b'] },
          },
        }),
      );

      expect(res.status).toBe(422);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.type).toBe('https://docs.example.org/errors/validation_failed');
      expect(res.body.request_id).toMatch(/^req_/);
      expect(res.body.request_id).toBe(res.headers['x-request-id']);
      expect(sortIssues(issuesOf(res.body))).toEqual(
        sortIssues([
          { field: 'email', issue: 'invalid_format' },
          { field: 'phone', issue: 'invalid_format' },
          { field: 'birthdate', issue: 'in_future' },
          { field: 'gender', issue: 'one_of' },
          { field: 'favourite_color', issue: 'unknown_field' },
          { field: 'address.country', issue: 'invalid_format' },
          { field: 'custom_fields', issue: 'invalid_format' },
        ]),
      );
      for (const error of res.body.errors!) expect(error.message.length).toBeGreaterThan(0);
      expect((await listMembers(api, church, { q: 'Ruiz' })).data.filter((m) => m.email === 'not-an-email')).toEqual(
        [],
      );
    });

    it('requires first_name and last_name', async () => {
      const res = await api.post<Problem>('/v1/members', as(church, { body: { email: 'x@example.org' } }));
      expect(res.status).toBe(422);
      expect(sortIssues(issuesOf(res.body))).toEqual(
        sortIssues([
          { field: 'first_name', issue: 'required' },
          { field: 'last_name', issue: 'required' },
        ]),
      );
    });

    it('refuses impossible dates and a non-object body', async () => {
      const dates = await api.post<Problem>(
        '/v1/members',
        as(church, { body: { first_name: 'A', last_name: 'B', birthdate: '1990-02-30' } }),
      );
      expect(dates.status).toBe(422);
      expect(issuesOf(dates.body)).toEqual([{ field: 'birthdate', issue: 'invalid_format' }]);

      const array = await api.post<Problem>('/v1/members', as(church, { body: [{ first_name: 'A', last_name: 'B' }] }));
      expect(array.status).toBe(422);
      expect(array.body.code).toBe('validation_failed');
    });

    it('answers malformed JSON with 400 invalid_json', async () => {
      const res = await api.post<Problem>(
        '/v1/members',
        as(church, { body: '{"first_name": "A",', raw: { contentType: 'application/json' } }),
      );
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_json');
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('GET /v1/members/{id}', () => {
    let church: TestTenant;
    let member: Member;

    beforeAll(async () => {
      church = await newTenant(api);
      member = await newMember(api, church, {
        first_name: 'Eva',
        last_name: 'Luna',
        gender: 'female',
        email: 'eva@example.org',
      });
    });

    it('returns the member with ETag, Cache-Control private and Vary', async () => {
      const res = await api.get<Member>(`/v1/members/${member.id}`, as(church));
      expect(res.status).toBe(200);
      expect(res.body).toEqual(member);
      expect(res.headers.etag).toMatch(/^(W\/)?"[^"]+"$/);
      expect(res.headers['cache-control']).toContain('private');
      expect(varyOf(res.headers.vary)).toEqual(
        expect.arrayContaining(['authorization', 'x-tenant', 'accept-language']),
      );
      expect(res.headers['x-request-id']).toMatch(/^req_/);
    });

    it('answers If-None-Match with 304 and an empty body while unchanged', async () => {
      const first = await api.get<Member>(`/v1/members/${member.id}`, as(church));
      const etag = first.headers.etag;
      const again = await api.get(`/v1/members/${member.id}`, as(church, { headers: { 'If-None-Match': etag } }));
      expect(again.status).toBe(304);
      expect(again.text ?? '').toBe('');
      expect(again.headers.etag).toBe(etag);

      // A different tag is not a match.
      const other = await api.get<Member>(
        `/v1/members/${member.id}`,
        as(church, { headers: { 'If-None-Match': '"something-else"' } }),
      );
      expect(other.status).toBe(200);
      expect(other.body.id).toBe(member.id);
    });

    it('answers the old ETag with 200 and a new ETag after a PATCH', async () => {
      const m = await newMember(api, church, { first_name: 'Old', last_name: 'Tag' });
      const before = await api.get<Member>(`/v1/members/${m.id}`, as(church));
      const patched = await api.patch<Member>(`/v1/members/${m.id}`, as(church, { body: { first_name: 'New' } }));
      expect(patched.status).toBe(200);

      const after = await api.get<Member>(
        `/v1/members/${m.id}`,
        as(church, { headers: { 'If-None-Match': before.headers.etag } }),
      );
      expect(after.status).toBe(200);
      expect(after.body.first_name).toBe('New');
      expect(after.headers.etag).toBeDefined();
      expect(after.headers.etag).not.toBe(before.headers.etag);

      const now = await api.get(
        `/v1/members/${m.id}`,
        as(church, { headers: { 'If-None-Match': after.headers.etag } }),
      );
      expect(now.status).toBe(304);
    });

    it('gives a different ETag per Accept-Language, and an es ETag does not match an en request', async () => {
      const es = await api.get<Member>(`/v1/members/${member.id}`, as(church, { lang: 'es' }));
      const en = await api.get<Member>(`/v1/members/${member.id}`, as(church, { lang: 'en' }));
      expect(es.body.gender_label).toBe('Femenino');
      expect(en.body.gender_label).toBe('Female');
      expect(es.headers.etag).not.toBe(en.headers.etag);

      const cross = await api.get<Member>(
        `/v1/members/${member.id}`,
        as(church, { lang: 'en', headers: { 'If-None-Match': es.headers.etag } }),
      );
      expect(cross.status).toBe(200);
      expect(cross.body.gender_label).toBe('Female');
    });

    it('answers malformed and unknown ids with 404 resource_not_found, never 500', async () => {
      const hex = member.id.slice(4);
      const bad = [
        'mem_123',
        `cmp_${hex}`,
        `mem_${hex.toUpperCase()}`,
        `mem_${hex}0`,
        `${hex}`,
        'mem_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz',
        `mem_${'0'.repeat(32)}`,
        encodeURIComponent("mem_' OR 1=1 --"),
      ];
      for (const id of bad) {
        for (const method of ['get', 'patch', 'delete'] as const) {
          const res = await api[method]<Problem>(
            `/v1/members/${id}`,
            as(church, method === 'patch' ? { body: { first_name: 'X' } } : {}),
          );
          expect({ id, method, status: res.status, code: res.body.code }).toEqual({
            id,
            method,
            status: 404,
            code: 'resource_not_found',
          });
        }
      }
      // The real member is untouched.
      expect((await api.get<Member>(`/v1/members/${member.id}`, as(church))).body.first_name).toBe('Eva');
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('PATCH /v1/members/{id}', () => {
    let church: TestTenant;
    let campus: CampusRef;

    beforeAll(async () => {
      church = await newTenant(api);
      campus = await newCampus(api, church, { key: 'east', name: 'East Campus' }).then(campusRef);
      await defineCustomFields(api, church, { baptized: 'boolean' });
    });

    const full = () => ({
      first_name: 'Pedro',
      last_name: 'Páramo',
      email: 'pedro@example.org',
      phone: '+5215512345678',
      birthdate: '1970-01-31',
      gender: 'male',
      status: 'regular',
      campus: 'east',
      custom_fields: { baptized: false },
    });

    it('changes only the given fields and advances updated_at', async () => {
      const original = await newMember(api, church, full());
      await sleep(15);
      const res = await api.patch<Member>(
        `/v1/members/${original.id}`,
        as(church, { body: { phone: '+5215599998888', status: 'member' } }),
      );

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...original,
        phone: '+5215599998888',
        status: 'member',
        status_label: 'Miembro',
        updated_at: res.body.updated_at,
      });
      expect(res.body.updated_at).toMatch(UTC_ISO);
      expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(original.updated_at));
      expect(res.body.created_at).toBe(original.created_at);

      const fetched = await api.get<Member>(`/v1/members/${original.id}`, as(church));
      expect(fetched.body).toEqual(res.body);
    });

    it('clears an optional field with null', async () => {
      const original = await newMember(api, church, full());
      const res = await api.patch<Member>(
        `/v1/members/${original.id}`,
        as(church, { body: { email: null, campus: null, birthdate: null } }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        email: null,
        campus: null,
        birthdate: null,
        age: null,
        phone: original.phone,
        first_name: 'Pedro',
      });
      const fetched = await api.get<Member>(`/v1/members/${original.id}`, as(church));
      expect(fetched.body).toMatchObject({ email: null, campus: null, birthdate: null, age: null });
    });

    it('sets and clears the address', async () => {
      const m = await newMember(api, church, { first_name: 'Ad', last_name: 'Dress' });
      const address = {
        line1: 'Calle 1',
        line2: null,
        city: 'Comala',
        region: 'Colima',
        postal_code: '28450',
        country: 'MX',
      };
      const set = await api.patch<Member>(`/v1/members/${m.id}`, as(church, { body: { address } }));
      expect(set.status).toBe(200);
      expect(set.body.address).toEqual(address);
      expect((await api.get<Member>(`/v1/members/${m.id}`, as(church))).body.address).toEqual(address);

      const cleared = await api.patch<Member>(`/v1/members/${m.id}`, as(church, { body: { address: null } }));
      expect(cleared.body.address).toBeNull();
      expect((await api.get<Member>(`/v1/members/${m.id}`, as(church))).body.address).toBeNull();
    });

    it('sets a campus by id and by key', async () => {
      const m = await newMember(api, church, { first_name: 'C', last_name: 'Ampus' });
      const byId = await api.patch<Member>(`/v1/members/${m.id}`, as(church, { body: { campus: campus.id } }));
      expect(byId.body.campus).toEqual(campus);
      const cleared = await api.patch<Member>(`/v1/members/${m.id}`, as(church, { body: { campus: null } }));
      expect(cleared.body.campus).toBeNull();
      const byKey = await api.patch<Member>(`/v1/members/${m.id}`, as(church, { body: { campus: 'east' } }));
      expect(byKey.body.campus).toEqual(campus);
    });

    it('refuses null on a required field with 422 required, and changes nothing', async () => {
      const original = await newMember(api, church, full());
      const res = await api.patch<Problem>(
        `/v1/members/${original.id}`,
        as(church, { body: { first_name: null, email: 'changed@example.org' } }),
      );
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(issuesOf(res.body)).toEqual([{ field: 'first_name', issue: 'required' }]);
      expect((await api.get<Member>(`/v1/members/${original.id}`, as(church))).body).toEqual(original);
    });

    it('validates the fields it is given (422) and unknown campus', async () => {
      const original = await newMember(api, church, full());
      const res = await api.patch<Problem>(
        `/v1/members/${original.id}`,
        as(church, { body: { email: 'nope', status: 'boss', campus: 'west' } }),
      );
      expect(res.status).toBe(422);
      expect(sortIssues(issuesOf(res.body))).toEqual(
        sortIssues([
          { field: 'email', issue: 'invalid_format' },
          { field: 'status', issue: 'one_of' },
        ]),
      );

      const campusRes = await api.patch<Problem>(
        `/v1/members/${original.id}`,
        as(church, { body: { campus: 'west' } }),
      );
      expect(campusRes.status).toBe(422);
      expect(issuesOf(campusRes.body)).toEqual([{ field: 'campus', issue: 'not_found' }]);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('PUT /v1/members/{id}', () => {
    let church: TestTenant;

    beforeAll(async () => {
      church = await newTenant(api);
      await newCampus(api, church, { key: 'west', name: 'West Campus' }).then(campusRef);
      await defineCustomFields(api, church, { baptized: 'boolean', k: 'number' });
    });

    it('replaces the member: omitted optional fields become null or their defaults', async () => {
      const original = await newMember(api, church, {
        first_name: 'Rosa',
        last_name: 'Mística',
        email: 'rosa@example.org',
        phone: '+5213300000000',
        birthdate: '1980-05-05',
        gender: 'female',
        status: 'leader',
        campus: 'west',
        active: false,
        custom_fields: { baptized: true },
      });
      await sleep(15);
      const res = await api.put<Member>(
        `/v1/members/${original.id}`,
        as(church, { body: { first_name: 'Rosa María', last_name: 'Mística' } }),
      );

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: original.id,
        first_name: 'Rosa María',
        last_name: 'Mística',
        email: null,
        phone: null,
        birthdate: null,
        age: null,
        gender: null,
        gender_label: null,
        status: 'visitor',
        status_label: 'Visitante',
        campus: null,
        active: true,
        household_id: null,
        household_role: null,
        address: null,
        custom_fields: {},
        tags: [],
        created_at: original.created_at,
        updated_at: res.body.updated_at,
      });
      expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(original.updated_at));
      expect((await api.get<Member>(`/v1/members/${original.id}`, as(church))).body).toEqual(res.body);
    });

    it('sets every given field', async () => {
      const original = await newMember(api, church, { first_name: 'A', last_name: 'B' });
      const body = {
        first_name: 'Full',
        last_name: 'Body',
        email: 'full@example.org',
        gender: 'male',
        status: 'member',
        campus: 'west',
        active: false,
        custom_fields: { k: 1 },
      };
      const res = await api.put<Member>(`/v1/members/${original.id}`, as(church, { body }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        ...body,
        campus: { key: 'west', name: 'West Campus' },
        gender_label: 'Masculino',
        status_label: 'Miembro',
      });
    });

    it('requires last_name (422) and leaves the member unchanged', async () => {
      const original = await newMember(api, church, {
        first_name: 'Keep',
        last_name: 'Me',
        email: 'keep@example.org',
      });
      const res = await api.put<Problem>(`/v1/members/${original.id}`, as(church, { body: { first_name: 'Lost' } }));
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(issuesOf(res.body)).toEqual([{ field: 'last_name', issue: 'required' }]);
      expect((await api.get<Member>(`/v1/members/${original.id}`, as(church))).body).toEqual(original);
    });

    it('answers 404 for an unknown member', async () => {
      const res = await api.put<Problem>(
        `/v1/members/mem_${'a'.repeat(32)}`,
        as(church, { body: { first_name: 'A', last_name: 'B' } }),
      );
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('resource_not_found');
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('DELETE /v1/members/{id}', () => {
    let church: TestTenant;

    beforeAll(async () => {
      church = await newTenant(api);
    });

    it('deletes: 204, then 404 on GET/PATCH/DELETE, and the member leaves the list and its total', async () => {
      const [keep, gone] = await newMembers(api, church, [
        { first_name: 'Keep', last_name: 'Here' },
        { first_name: 'Gone', last_name: 'Away' },
      ]);
      expect((await listMembers(api, church)).total).toBe(2);

      const res = await api.delete(`/v1/members/${gone}`, as(church));
      expect(res.status).toBe(204);
      expect(res.text ?? '').toBe('');

      const get = await api.get<Problem>(`/v1/members/${gone}`, as(church));
      expect(get.status).toBe(404);
      expect(get.body.code).toBe('resource_not_found');

      const patch = await api.patch<Problem>(`/v1/members/${gone}`, as(church, { body: { first_name: 'Back' } }));
      expect(patch.status).toBe(404);
      expect(patch.body.code).toBe('resource_not_found');

      const again = await api.delete<Problem>(`/v1/members/${gone}`, as(church));
      expect(again.status).toBe(404);
      expect(again.body.code).toBe('resource_not_found');

      const list = await listMembers(api, church);
      expect(ids(list)).toEqual([keep]);
      expect(list.total).toBe(1);
      expect((await listMembers(api, church, { q: 'Gone' })).total).toBe(0);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('POST /v1/members/bulk', () => {
    let church: TestTenant;

    beforeAll(async () => {
      church = await newTenant(api);
      await newCampus(api, church, { key: 'south', name: 'South Campus' }).then(campusRef);
    });

    it('creates the valid rows and reports the invalid ones, in index order', async () => {
      const rows: JsonValue[] = [
        { first_name: 'Row', last_name: 'Zero', email: 'zero@example.org' },
        { first_name: 'Row' },
        { first_name: 'Row', last_name: 'Two', campus: 'south', status: 'leader' },
        { first_name: 'Row', last_name: 'Three', email: 'bad-email', phone: '12' },
        'not an object',
        { first_name: 'Row', last_name: 'Five', campus: 'atlantis' },
        { first_name: 'Row', last_name: 'Six', shoe_size: 42 },
        { first_name: 'Row', last_name: 'Seven' },
      ];
      const res = await api.post<BulkResult>('/v1/members/bulk', as(church, { body: { members: rows } }));

      expect(res.status).toBe(200);
      expect(res.body.created).toBe(3);
      expect(res.body.failed).toBe(5);
      expect(res.body.results.map((r: BulkRow) => r.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);

      const [r0, r1, r2, r3, r4, r5, r6, r7] = res.body.results;
      for (const ok of [r0, r2, r7]) {
        expect(ok.id).toMatch(MEMBER_ID);
        expect(ok.error).toBeUndefined();
      }
      for (const bad of [r1, r3, r4, r5, r6]) {
        expect(bad.id).toBeUndefined();
        expect(bad.error!.code).toBe('validation_failed');
        for (const e of bad.error!.errors) expect(e.message.length).toBeGreaterThan(0);
      }
      expect(issuesOf(r1.error as Problem)).toEqual([{ field: 'last_name', issue: 'required' }]);
      expect(sortIssues(issuesOf(r3.error as Problem))).toEqual(
        sortIssues([
          { field: 'email', issue: 'invalid_format' },
          { field: 'phone', issue: 'invalid_format' },
        ]),
      );
      expect(r4.error!.errors.map((e) => e.issue)).toEqual(['invalid_type']);
      expect(issuesOf(r5.error as Problem)).toEqual([{ field: 'campus', issue: 'not_found' }]);
      expect(issuesOf(r6.error as Problem)).toEqual([{ field: 'shoe_size', issue: 'unknown_field' }]);

      const zero = await api.get<Member>(`/v1/members/${r0.id}`, as(church));
      expect(zero.status).toBe(200);
      expect(zero.body).toMatchObject({
        first_name: 'Row',
        last_name: 'Zero',
        email: 'zero@example.org',
        status: 'visitor',
        active: true,
      });
      const two = await api.get<Member>(`/v1/members/${r2.id}`, as(church));
      expect(two.body).toMatchObject({
        last_name: 'Two',
        status: 'leader',
        campus: { key: 'south', name: 'South Campus' },
      });
      const seven = await api.get<Member>(`/v1/members/${r7.id}`, as(church));
      expect(seven.body.last_name).toBe('Seven');

      const list = await listMembers(api, church, { q: 'Row ', limit: '250' });
      expect(sorted(ids(list))).toEqual(sorted([r0.id!, r2.id!, r7.id!]));
      expect(list.total).toBe(3);
    });

    it('records one member.created per row, its object the member as GET shows it, control characters included', async () => {
      // The outbox sends a batch's payloads as one text separated by U+001E: text holding it must survive.
      const rows = [
        { first_name: 'Re\u001ecord', last_name: 'One', address: { line1: 'a\u001e\u001fb', city: '\u001e' } },
        { first_name: 'Plain', last_name: 'Two', campus: 'south', email: 'two@example.org' },
        { first_name: 'Tab\tNew\nline', last_name: '"Three"\\', address: null },
      ];
      const res = await api.post<BulkResult>('/v1/members/bulk', as(church, { body: { members: rows } }));
      expect([res.status, res.body.created]).toEqual([200, 3]);

      for (const [i, { id }] of res.body.results.entries()) {
        const shown = await api.get<Member>(`/v1/members/${id}`, as(church));
        expect(shown.body.first_name).toBe(rows[i].first_name);
        expect(await outboxObjects<Member>(api, church, 'member.created', id)).toEqual([shown.body]);
      }
    });

    it('refuses 501 rows with 413 payload_too_large and creates nothing', async () => {
      const fresh = await newTenant(api);
      const before = (await listMembers(api, fresh)).total;
      const rows = Array.from({ length: 501 }, (_, i) => ({ first_name: 'Bulk', last_name: `N${i}` }));
      const res = await api.post<Problem>('/v1/members/bulk', as(fresh, { body: { members: rows } }));

      expect(res.status).toBe(413);
      expect(res.body.code).toBe('payload_too_large');
      expect((await listMembers(api, fresh)).total).toBe(before);
      expect(before).toBe(0);
    });

    it('accepts exactly 500 rows', async () => {
      const fresh = await newTenant(api);
      const rows = Array.from({ length: 500 }, (_, i) => ({
        first_name: 'Bulk',
        last_name: `N${String(i).padStart(3, '0')}`,
      }));
      const res = await api.post<BulkResult>('/v1/members/bulk', as(fresh, { body: { members: rows } }));
      expect(res.status).toBe(200);
      expect([res.body.created, res.body.failed, res.body.results.length]).toEqual([500, 0, 500]);
      expect(new Set(res.body.results.map((r: BulkRow) => r.id)).size).toBe(500);
      expect((await listMembers(api, fresh, { limit: '1' })).total).toBe(500);
    });

    it('refuses an empty array and a non-array with 422', async () => {
      const empty = await api.post<Problem>('/v1/members/bulk', as(church, { body: { members: [] } }));
      expect(empty.status).toBe(422);
      expect(empty.body.code).toBe('validation_failed');
      expect(fieldsOf(empty.body)).toEqual(['members']);

      for (const members of [{ first_name: 'A', last_name: 'B' }, 'x', null]) {
        const res = await api.post<Problem>('/v1/members/bulk', as(church, { body: { members } }));
        expect(res.status).toBe(422);
        expect(res.body.code).toBe('validation_failed');
        expect(fieldsOf(res.body)).toEqual(['members']);
      }

      const missing = await api.post<Problem>('/v1/members/bulk', as(church, { body: {} }));
      expect(missing.status).toBe(422);
      expect(issuesOf(missing.body)).toEqual([{ field: 'members', issue: 'required' }]);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('GET /v1/members (filters)', () => {
    let church: TestTenant;
    let north: CampusRef;
    let south: CampusRef;
    const m: Record<string, string> = {};

    beforeAll(async () => {
      church = await newTenant(api);
      north = await newCampus(api, church, { key: 'north', name: 'North Campus' }).then(campusRef);
      south = await newCampus(api, church, { key: 'south', name: 'South Campus' }).then(campusRef);
      const rows: [string, JsonObject][] = [
        [
          'ana',
          {
            first_name: 'Ana',
            last_name: 'Ruiz',
            email: 'ana.ruiz@example.org',
            campus: 'north',
            status: 'member',
            birthdate: utcDate({ years: -30 }),
          },
        ],
        [
          'beto',
          {
            first_name: 'Beto',
            last_name: 'Soto',
            email: 'beto@mail.example.net',
            campus: 'north',
            status: 'leader',
            birthdate: utcDate({ years: -30, days: 1 }),
          },
        ],
        [
          'carla',
          {
            first_name: 'Carla',
            last_name: 'Núñez',
            email: 'carla@example.org',
            campus: 'south',
            status: 'visitor',
            active: false,
            birthdate: utcDate({ years: -40, days: 1 }),
          },
        ],
        [
          'dario',
          {
            first_name: 'Darío',
            last_name: 'Ruizo',
            campus: 'south',
            status: 'regular',
            active: false,
            birthdate: utcDate({ years: -40 }),
          },
        ],
        ['elena', { first_name: 'Elena', last_name: 'Vega', email: 'Elena.Vega@Example.org', status: 'member' }],
      ];
      for (const [name, body] of rows) m[name] = (await newMember(api, church, body)).id;
    });

    async function expectFilter(params: Record<string, string>, expected: string[]) {
      const list = await listMembers(api, church, params);
      expect({ params, ids: sorted(ids(list)), total: list.total }).toEqual({
        params,
        ids: sorted(expected),
        total: expected.length,
      });
    }

    it('lists everything without filters', async () => {
      await expectFilter({}, Object.values(m));
    });

    it('shows each member its own campus as {id, key, name}, and null without one', async () => {
      const list = await listMembers(api, church);
      expect(Object.fromEntries(list.data.map((member) => [member.id, member.campus]))).toEqual({
        [m.ana]: north,
        [m.beto]: north,
        [m.carla]: south,
        [m.dario]: south,
        [m.elena]: null,
      });
    });

    it('filters by campus key (and cmp_ id)', async () => {
      await expectFilter({ campus: 'north' }, [m.ana, m.beto]);
      await expectFilter({ campus: 'south' }, [m.carla, m.dario]);
      await expectFilter({ campus: north.id }, [m.ana, m.beto]);
      await expectFilter({ campus: 'nowhere' }, []);
      const list = await listMembers(api, church, { campus: 'north' });
      for (const member of list.data) expect(member.campus).toEqual(north);
    });

    it('filters by active', async () => {
      await expectFilter({ active: 'false' }, [m.carla, m.dario]);
      await expectFilter({ active: 'true' }, [m.ana, m.beto, m.elena]);
    });

    it('filters by status, status[in] and status[ne]', async () => {
      await expectFilter({ status: 'member' }, [m.ana, m.elena]);
      await expectFilter({ 'status[in]': 'member,leader' }, [m.ana, m.beto, m.elena]);
      await expectFilter({ 'status[ne]': 'member' }, [m.beto, m.carla, m.dario]);
    });

    it('answers a list of values of each length in turn (the page SQL is made once per shape, then reused)', async () => {
      await expectFilter({ 'status[in]': 'leader' }, [m.beto]);
      await expectFilter({ 'status[in]': 'leader,visitor' }, [m.beto, m.carla]);
      await expectFilter({ 'status[in]': 'leader,visitor,regular' }, [m.beto, m.carla, m.dario]);
      await expectFilter({ 'status[in]': 'visitor' }, [m.carla]);
    });

    it('filters by age; members without birthdate never match', async () => {
      const withAge = (pred: (age: number) => boolean) =>
        (['ana', 'beto', 'carla', 'dario'] as const).filter((k) => pred(expectedAge(birthdateOf[k]))).map((k) => m[k]);
      const birthdateOf = {
        ana: utcDate({ years: -30 }),
        beto: utcDate({ years: -30, days: 1 }),
        carla: utcDate({ years: -40, days: 1 }),
        dario: utcDate({ years: -40 }),
      };
      await expectFilter(
        { 'age[gte]': '30', 'age[lt]': '40' },
        withAge((a) => a >= 30 && a < 40),
      );
      await expectFilter(
        { 'age[gt]': '29', 'age[lte]': '39' },
        withAge((a) => a > 29 && a <= 39),
      );
      await expectFilter(
        { age: '29' },
        withAge((a) => a === 29),
      );
      await expectFilter(
        { 'age[ne]': '29' },
        withAge((a) => a !== 29),
      );
      await expectFilter(
        { 'age[lt]': '200' },
        withAge(() => true),
      );
      if (!utcDate({ years: -30 }).endsWith('-03-01') && !utcDate({ years: -40 }).endsWith('-03-01')) {
        // Exact boundaries (birthday today counts, birthday tomorrow does not).
        await expectFilter({ 'age[gte]': '30', 'age[lt]': '40' }, [m.ana, m.carla]);
        await expectFilter({ age: '40' }, [m.dario]);
      }
    });

    it('filters by q: case-insensitive substring of the name or the e-mail', async () => {
      await expectFilter({ q: 'ruiz' }, [m.ana, m.dario]);
      await expectFilter({ q: 'NA RU' }, [m.ana]);
      await expectFilter({ q: 'EXAMPLE.NET' }, [m.beto]);
      await expectFilter({ q: 'elena.vega@example' }, [m.elena]);
      await expectFilter({ q: 'zzz' }, []);
      await expectFilter({ q: '%' }, []);
      await expectFilter({ q: '_' }, []);
    });

    it('filters by exact e-mail (case-insensitive), not substring', async () => {
      await expectFilter({ email: 'carla@example.org' }, [m.carla]);
      await expectFilter({ email: 'elena.vega@example.org' }, [m.elena]);
      await expectFilter({ email: 'carla@example' }, []);
    });

    it('combines filters (AND)', async () => {
      await expectFilter({ campus: 'north', status: 'leader' }, [m.beto]);
      await expectFilter({ campus: 'south', active: 'false', q: 'ruiz' }, [m.dario]);
    });

    itRefusesBadListParams(
      () => api,
      '/v1/members',
      () => as(church),
      [
        [{ color: 'blue' }, { field: 'color', issue: 'not_filterable' }],
        [{ first_name: 'Ana' }, { field: 'first_name', issue: 'not_filterable' }],
        [{ 'age[foo]': '3' }, { field: 'age[foo]', issue: 'unknown_operator' }],
        [{ 'active[gt]': 'true' }, { field: 'active[gt]', issue: 'unknown_operator' }],
        [{ 'q[in]': 'a,b' }, { field: 'q[in]', issue: 'unknown_operator' }],
        [{ age: 'abc' }, { field: 'age', issue: 'invalid_format' }],
        [{ 'age[gte]': '3.5' }, { field: 'age[gte]', issue: 'invalid_format' }],
        [{ active: 'yes' }, { field: 'active', issue: 'invalid_format' }],
        [{ status: 'boss' }, { field: 'status', issue: 'one_of' }],
        [{ 'created_at[gte]': 'yesterday' }, { field: 'created_at[gte]', issue: 'invalid_format' }],
        [{ created_after: '2020-02-30' }, { field: 'created_after', issue: 'invalid_format' }],
        [{ limit: '0' }, { field: 'limit', issue: 'out_of_range' }],
        [{ limit: '251' }, { field: 'limit', issue: 'out_of_range' }],
      ],
    );
  });

  // -------------------------------------------------------------------------------------------
  describe('GET /v1/members (time filters)', () => {
    let church: TestTenant;
    const m: Record<string, string> = {};

    beforeAll(async () => {
      church = await newTenant(api);
      const stamps: Record<string, string> = {
        dec31: '2019-12-31T23:00:00.000Z',
        early: '2020-01-01T05:59:59.999Z', // 2019-12-31 23:59:59.999 at -06:00
        onTime: '2020-01-01T06:00:00.000Z', // 2020-01-01 00:00 at -06:00
        jan2: '2020-01-02T00:00:00.000Z',
      };
      for (const [name, at] of Object.entries(stamps)) {
        m[name] = (await newMember(api, church, { first_name: name, last_name: 'Time' })).id;
        await backdate(api, church, m[name], at);
      }
      m.now = (await newMember(api, church, { first_name: 'now', last_name: 'Time' })).id;
    });

    async function expectFilter(params: Record<string, string>, expected: string[]) {
      const list = await listMembers(api, church, params);
      expect({ params, ids: sorted(ids(list)), total: list.total }).toEqual({
        params,
        ids: sorted(expected),
        total: expected.length,
      });
    }

    it('honours the offset of a created_at timestamp', async () => {
      await expectFilter({ 'created_at[gte]': '2020-01-01T00:00:00-06:00' }, [m.onTime, m.jan2, m.now]);
      await expectFilter({ 'created_at[lt]': '2020-01-01T00:00:00-06:00' }, [m.dec31, m.early]);
      await expectFilter(
        { 'created_at[gte]': '2020-01-01T07:00:00+01:00', 'created_at[lte]': '2020-01-01T06:00:00Z' },
        [m.onTime],
      );
      await expectFilter({ 'created_at[gt]': '2020-01-01T05:59:59.999Z' }, [m.onTime, m.jan2, m.now]);
    });

    it('reads created_at list output in UTC with Z', async () => {
      const list = await listMembers(api, church, { sort: 'created_at' });
      expect(list.data.map((x) => x.created_at).slice(0, 4)).toEqual([
        '2019-12-31T23:00:00.000Z',
        '2020-01-01T05:59:59.999Z',
        '2020-01-01T06:00:00.000Z',
        '2020-01-02T00:00:00.000Z',
      ]);
    });

    it('filters by created_after / created_before as UTC dates', async () => {
      await expectFilter({ created_after: '2020-01-01' }, [m.early, m.onTime, m.jan2, m.now]);
      await expectFilter({ created_before: '2020-01-01' }, [m.dec31]);
      await expectFilter({ created_after: '2020-01-01', created_before: '2020-01-02' }, [m.early, m.onTime]);
      await expectFilter({ created_after: '2020-01-03', created_before: '2020-01-02' }, []);
    });

    it('reads created_after / created_before as UTC even when the database session time zone is not UTC', async () => {
      const url = new URL(process.env.DATABASE_URL!);
      url.searchParams.set('options', '-c TimeZone=America/Mexico_City');
      const previous = process.env.DATABASE_URL!;
      const shifted = await TestApi.start({ DATABASE_URL: url.toString() });
      try {
        const probe = await inTenant(shifted, church.id, () =>
          TenantContext.current().manager.query<{ TimeZone: string }[]>('SHOW TimeZone'),
        );
        expect(probe[0].TimeZone).toBe('America/Mexico_City');
        for (const [params, expected] of [
          [{ created_after: '2020-01-01' }, [m.early, m.onTime, m.jan2, m.now]],
          [{ created_before: '2020-01-01' }, [m.dec31]],
        ] as [Record<string, string>, string[]][]) {
          const res = await shifted.get<List<Member>>(`/v1/members${qs(params)}`, as(church));
          expect({ params, ids: sorted(ids(res.body)) }).toEqual({ params, ids: sorted(expected) });
        }
      } finally {
        await shifted.close();
        process.env.DATABASE_URL = previous;
        // Passport keeps one strategy per name per process: hand "bearer" back to the main app.
        const strategy = api.app.get<
          BearerStrategy,
          BearerStrategy & { getPassportInstance(): { use(name: string, strategy: unknown): void } }
        >(BearerStrategy);
        strategy.getPassportInstance().use('bearer', strategy);
      }
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('GET /v1/members (sorting and pages)', () => {
    let church: TestTenant;
    const m: Record<string, string> = {};

    beforeAll(async () => {
      church = await newTenant(api);
      // Created in this order (ids ascend in this order); last names in another order.
      for (const last of ['Miller', 'Adams', 'Young', 'Baker', 'Cole']) {
        m[last] = (await newMember(api, church, { first_name: `F${last}`, last_name: last })).id;
      }
      // Miller, Adams, Young share one created_at: only last_name can order them, not the id.
      for (const last of ['Miller', 'Adams', 'Young']) await backdate(api, church, m[last], '2021-06-01T12:00:00.000Z');
      await backdate(api, church, m.Baker, '2021-06-02T12:00:00.000Z');
      await backdate(api, church, m.Cole, '2021-05-01T12:00:00.000Z');
    });

    const lastNames = (list: List<Member>) => list.data.map((x) => x.last_name);

    it('sorts by last_name ascending and descending', async () => {
      expect(lastNames(await listMembers(api, church, { sort: 'last_name' }))).toEqual([
        'Adams',
        'Baker',
        'Cole',
        'Miller',
        'Young',
      ]);
      expect(lastNames(await listMembers(api, church, { sort: '-last_name' }))).toEqual([
        'Young',
        'Miller',
        'Cole',
        'Baker',
        'Adams',
      ]);
    });

    it('sorts by -created_at then last_name', async () => {
      expect(lastNames(await listMembers(api, church, { sort: '-created_at,last_name' }))).toEqual([
        'Baker',
        'Adams',
        'Miller',
        'Young',
        'Cole',
      ]);
      expect(lastNames(await listMembers(api, church, { sort: 'created_at,-last_name' }))).toEqual([
        'Cole',
        'Young',
        'Miller',
        'Adams',
        'Baker',
      ]);
    });

    it('defaults to created_at ascending', async () => {
      const list = await listMembers(api, church);
      expect(list.data[0].last_name).toBe('Cole');
      expect(list.data[4].last_name).toBe('Baker');
    });

    it('walks the same order page by page with the cursor', async () => {
      for (const sort of ['-created_at,last_name', 'last_name', '-last_name', 'created_at']) {
        const all = lastNames(await listMembers(api, church, { sort }));
        const walked: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const page: List<Member> = await listMembers(api, church, {
            sort,
            limit: '2',
            ...(cursor ? { cursor } : {}),
          });
          expect(page.total).toBe(5);
          walked.push(...lastNames(page));
          cursor = page.next_cursor;
          pages++;
        } while (cursor && pages < 10);
        expect({ sort, walked }).toEqual({ sort, walked: all });
        expect(pages).toBe(3);
      }
    });

    itRefusesBadListParams(
      () => api,
      '/v1/members',
      () => as(church),
      [
        [{ sort: 'email' }, 'sort'],
        [{ sort: '-favourite_color' }, 'sort'],
        [{ sort: 'last_name,nope' }, 'sort'],
      ],
    );
  });

  // -------------------------------------------------------------------------------------------
  describe('tenant isolation', () => {
    let a: TestTenant;
    let b: TestTenant;
    let aMember: Member;

    beforeAll(async () => {
      a = await newTenant(api);
      b = await newTenant(api);
      aMember = await newMember(api, a, { first_name: 'Only', last_name: 'InA', email: 'only@a.example.org' });
      await newMember(api, b, { first_name: 'Only', last_name: 'InB' });
    });

    it("hides church A's member from church B (404 on GET, PATCH, PUT, DELETE)", async () => {
      const get = await api.get<Problem>(`/v1/members/${aMember.id}`, as(b));
      expect([get.status, get.body.code]).toEqual([404, 'resource_not_found']);
      const patch = await api.patch<Problem>(`/v1/members/${aMember.id}`, as(b, { body: { first_name: 'Hacked' } }));
      expect([patch.status, patch.body.code]).toEqual([404, 'resource_not_found']);
      const put = await api.put<Problem>(
        `/v1/members/${aMember.id}`,
        as(b, { body: { first_name: 'Hacked', last_name: 'X' } }),
      );
      expect([put.status, put.body.code]).toEqual([404, 'resource_not_found']);
      const del = await api.delete<Problem>(`/v1/members/${aMember.id}`, as(b));
      expect([del.status, del.body.code]).toEqual([404, 'resource_not_found']);

      expect((await api.get<Member>(`/v1/members/${aMember.id}`, as(a))).body).toEqual(aMember);
    });

    it("does not list church A's members to church B", async () => {
      const listB = await listMembers(api, b, { limit: '250' });
      expect(listB.data.map((x) => x.last_name)).toEqual(['InB']);
      expect(listB.total).toBe(1);
      expect((await listMembers(api, b, { q: 'InA' })).total).toBe(0);
      expect((await listMembers(api, b, { email: 'only@a.example.org' })).total).toBe(0);
    });

    it("refuses A's token with B's X-Tenant (or an unknown one) with 403 tenant_forbidden", async () => {
      for (const tenant of [b.slug, 'no-such-church-xyz']) {
        const res = await api.get<Problem>('/v1/members', { token: a.token, tenant });
        expect([res.status, res.body.code]).toEqual([403, 'tenant_forbidden']);
        const post = await api.post<Problem>('/v1/members', {
          token: a.token,
          tenant,
          body: { first_name: 'X', last_name: 'Y' },
        });
        expect([post.status, post.body.code]).toEqual([403, 'tenant_forbidden']);
      }
      expect((await listMembers(api, b)).total).toBe(1);
    });

    it("never answers 304 to another church's ETag", async () => {
      const emptyA = await newTenant(api);
      const emptyB = await newTenant(api);
      const first = await api.get<List<Member>>('/v1/members', as(emptyA));
      expect(first.body).toEqual({ data: [], next_cursor: null, total: 0 });
      const second = await api.get<List<Member>>(
        '/v1/members',
        as(emptyB, { headers: { 'If-None-Match': first.headers.etag } }),
      );
      expect(second.status).toBe(200);
      expect(second.body).toEqual({ data: [], next_cursor: null, total: 0 });
      expect(second.headers.etag).not.toBe(first.headers.etag);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('scopes', () => {
    let church: TestTenant;
    let member: Member;

    beforeAll(async () => {
      church = await newTenant(api);
      member = await newMember(api, church, { first_name: 'Scoped', last_name: 'Member' });
    });

    it('a read:members token can read but not write (403 scope_insufficient naming write:members)', async () => {
      const { token } = await newToken(api, church, ['read:members']);
      const read = await api.get<List<Member>>('/v1/members', { token, tenant: church.slug });
      expect(read.status).toBe(200);
      expect(ids(read.body)).toEqual([member.id]);
      expect((await api.get(`/v1/members/${member.id}`, { token, tenant: church.slug })).status).toBe(200);

      const post = await api.post<Problem>('/v1/members', {
        token,
        tenant: church.slug,
        body: { first_name: 'No', last_name: 'Way' },
      });
      expect(post.status).toBe(403);
      expect(post.body.code).toBe('scope_insufficient');
      expect(post.body.detail).toContain('write:members');
      expect(post.headers['www-authenticate']).toContain('insufficient_scope');
      expect(post.headers['www-authenticate']).toContain('scope="write:members"');

      for (const [method, path, body] of [
        ['patch', `/v1/members/${member.id}`, { first_name: 'X' }],
        ['put', `/v1/members/${member.id}`, { first_name: 'X', last_name: 'Y' }],
        ['delete', `/v1/members/${member.id}`, undefined],
        ['post', '/v1/members/bulk', { members: [{ first_name: 'X', last_name: 'Y' }] }],
      ] as const) {
        const res = await api[method]<Problem>(path, { token, tenant: church.slug, body });
        expect({ method, path, status: res.status, code: res.body.code }).toEqual({
          method,
          path,
          status: 403,
          code: 'scope_insufficient',
        });
      }
      expect((await listMembers(api, church)).data.map((x) => x.first_name)).toEqual(['Scoped']);
    });

    it('a write:members token cannot read (403 naming read:members)', async () => {
      const { token } = await newToken(api, church, ['write:members']);
      const list = await api.get<Problem>('/v1/members', { token, tenant: church.slug, lang: 'en' });
      expect(list.status).toBe(403);
      expect(list.body.code).toBe('scope_insufficient');
      expect(list.body.detail).toBe('This operation needs the scope read:members.');
      expect(list.headers['www-authenticate']).toContain('insufficient_scope');
      expect(list.headers['www-authenticate']).toContain('scope="read:members"');

      const get = await api.get<Problem>(`/v1/members/${member.id}`, { token, tenant: church.slug });
      expect([get.status, get.body.code]).toEqual([403, 'scope_insufficient']);

      const created = await api.post<Member>('/v1/members', {
        token,
        tenant: church.slug,
        body: { first_name: 'Write', last_name: 'Only' },
      });
      expect(created.status).toBe(201);
    });

    it('refuses a call without token (401) or without X-Tenant (400)', async () => {
      const noToken = await api.get<Problem>('/v1/members', { tenant: church.slug });
      expect([noToken.status, noToken.body.code]).toEqual([401, 'unauthorized']);
      expect(noToken.headers['www-authenticate']).toMatch(/^Bearer/);
      const noTenant = await api.get<Problem>('/v1/members', { token: church.token, lang: 'en' });
      expect([noTenant.status, noTenant.body.code, noTenant.body.title]).toEqual([
        400,
        'missing_tenant',
        'Missing X-Tenant',
      ]);
    });
  });
});

function sortIssues(list: { field: string; issue: string }[]) {
  return [...list].sort((x, y) => x.field.localeCompare(y.field) || x.issue.localeCompare(y.issue));
}
