import { randomBytes, randomUUID } from 'node:crypto';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import { TestApi } from '../support/api';
import { newFund, newMembers, newTenant, newToken, TestTenant } from '../support/factories';
import { as, itRefusesBadListParams, qs, sortedIssuesOf } from '../support/http';
import type { FundResponse as Fund } from '../../src/modules/funds/dto/fund.response';

const FUND_ID = /^fnd_[0-9a-f]{32}$/;
const UTC_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const unique = (prefix: string) => `${prefix} ${randomBytes(4).toString('hex')}`;

async function listFunds(api: TestApi, church: TestTenant, params: Record<string, string> = {}): Promise<List<Fund>> {
  const res = await api.get<List<Fund>>(`/v1/funds${qs(params)}`, as(church));
  if (res.status !== 200) throw new Error(`list failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

describe('funds', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api.close());

  describe('POST /v1/funds', () => {
    let church: TestTenant;

    beforeAll(async () => {
      church = await newTenant(api);
    });

    it('creates a fund: 201, Location, fnd_ id, defaults active and tax_deductible', async () => {
      const res = await api.post<Fund>(
        '/v1/funds',
        as(church, { body: { name: ' Building Fund ', description: 'The new roof.', ledger_code: '4010' } }),
      );
      expect(res.status).toBe(201);
      expect(res.headers.location).toBe(`/v1/funds/${res.body.id}`);
      expect(res.body).toEqual({
        id: expect.stringMatching(FUND_ID),
        name: 'Building Fund',
        description: 'The new roof.',
        ledger_code: '4010',
        active: true,
        tax_deductible: true,
        created_at: expect.stringMatching(UTC_ISO),
        updated_at: res.body.created_at,
      });
      const fetched = await api.get<Fund>(res.headers.location, as(church));
      expect(fetched.body).toEqual(res.body);
      expect(
        (await api.get(res.headers.location, as(church, { headers: { 'If-None-Match': fetched.headers.etag } })))
          .status,
      ).toBe(304);
      const other = await newFund(api, church, { name: 'Benevolence', tax_deductible: false, active: false });
      expect(other).toMatchObject({ description: null, ledger_code: null, active: false, tax_deductible: false });
    });

    it('a name is unique ignoring case: 409 conflict, also for two creates at once', async () => {
      await newFund(api, church, { name: 'Missions' });
      const dup = await api.post<Problem>('/v1/funds', as(church, { body: { name: 'MISSIONS' } }));
      expect([dup.status, dup.body.code, sortedIssuesOf(dup.body)]).toEqual([
        409,
        'conflict',
        [{ field: 'name', issue: 'duplicate' }],
      ]);

      const name = unique('Race');
      const answers = await Promise.all(
        [0, 1, 2, 3].map(() => api.post<Fund | Problem>('/v1/funds', as(church, { body: { name } }))),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
      expect((await listFunds(api, church, { q: name })).total).toBe(1);
      // The same name in another church is fine.
      expect((await newFund(api, await newTenant(api), { name: 'Missions' })).name).toBe('Missions');
    });

    it('refuses bad bodies with 422 naming every field', async () => {
      const res = await api.post<Problem>(
        '/v1/funds',
        as(church, {
          body: { description: 'x'.repeat(1001), ledger_code: 'x'.repeat(51), active: 'yes', color: 'red' },
        }),
      );
      expect(res.status).toBe(422);
      expect(sortedIssuesOf(res.body)).toEqual([
        { field: 'active', issue: 'invalid_type' },
        { field: 'color', issue: 'unknown_field' },
        { field: 'description', issue: 'too_long' },
        { field: 'ledger_code', issue: 'too_long' },
        { field: 'name', issue: 'required' },
      ]);
      const blank = await api.post<Problem>('/v1/funds', as(church, { body: { name: '   ' } }));
      expect([blank.status, sortedIssuesOf(blank.body)]).toEqual([422, [{ field: 'name', issue: 'required' }]]);
    });

    it('honours Idempotency-Key', async () => {
      const key = randomUUID();
      const name = unique('Idem');
      const first = await api.post<Fund>(
        '/v1/funds',
        as(church, { body: { name }, headers: { 'Idempotency-Key': key } }),
      );
      const again = await api.post<Fund>(
        '/v1/funds',
        as(church, { body: { name }, headers: { 'Idempotency-Key': key } }),
      );
      expect([first.status, again.status, again.headers['idempotent-replayed']]).toEqual([201, 201, 'true']);
      expect(again.body).toEqual(first.body);
    });
  });

  describe('GET, PATCH, DELETE /v1/funds/{id} and the list', () => {
    let church: TestTenant;

    beforeAll(async () => {
      church = await newTenant(api);
    });

    it('PATCH renames, archives and clears; a null name is 422; another fund’s name is 409', async () => {
      const fund = await newFund(api, church, { name: 'Youth', description: 'Camp', ledger_code: '4200' });
      await newFund(api, church, { name: 'Music' });
      const res = await api.patch<Fund>(
        `/v1/funds/${fund.id}`,
        as(church, { body: { name: 'Youth Ministry', active: false, description: null } }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...fund,
        name: 'Youth Ministry',
        active: false,
        description: null,
        updated_at: expect.stringMatching(UTC_ISO),
      });
      expect((await api.get<Fund>(`/v1/funds/${fund.id}`, as(church))).body).toEqual(res.body);

      const cleared = await api.patch<Problem>(
        `/v1/funds/${fund.id}`,
        as(church, { body: { name: null, active: null } }),
      );
      expect([cleared.status, sortedIssuesOf(cleared.body)]).toEqual([
        422,
        [
          { field: 'active', issue: 'required' },
          { field: 'name', issue: 'required' },
        ],
      ]);
      const taken = await api.patch<Problem>(`/v1/funds/${fund.id}`, as(church, { body: { name: 'music' } }));
      expect([taken.status, taken.body.code]).toEqual([409, 'conflict']);
      // Its own name in another case is not a conflict.
      expect(
        (await api.patch<Fund>(`/v1/funds/${fund.id}`, as(church, { body: { name: 'YOUTH MINISTRY' } }))).status,
      ).toBe(200);
    });

    it('lists with filters active, tax_deductible, q, created_at and updated_at, sorted by name or created_at, page by page', async () => {
      const c = await newTenant(api);
      const a = await newFund(api, c, { name: 'Alpha' });
      const b = await newFund(api, c, { name: 'Charlie', active: false });
      const d = await newFund(api, c, { name: 'Bravo', tax_deductible: false });
      const ids = (l: List<Fund>) => l.data.map((f) => f.id);
      expect(ids(await listFunds(api, c))).toEqual([a.id, b.id, d.id]);
      expect(ids(await listFunds(api, c, { sort: 'name' }))).toEqual([a.id, d.id, b.id]);
      expect(ids(await listFunds(api, c, { sort: '-name' }))).toEqual([b.id, d.id, a.id]);
      expect(ids(await listFunds(api, c, { active: 'true' }))).toEqual([a.id, d.id]);
      expect(ids(await listFunds(api, c, { active: 'false' }))).toEqual([b.id]);
      expect(ids(await listFunds(api, c, { tax_deductible: 'false' }))).toEqual([d.id]);
      expect(ids(await listFunds(api, c, { q: 'RAV' }))).toEqual([d.id]);
      expect(
        ids(await listFunds(api, c, { 'created_at[gt]': a.created_at, 'created_at[lte]': d.created_at })).sort(),
      ).toEqual([b.id, d.id].sort());
      await api.patch(`/v1/funds/${a.id}`, as(c, { body: { description: 'touched' } }));
      const touched = (await api.get<Fund>(`/v1/funds/${a.id}`, as(c))).body;
      expect(ids(await listFunds(api, c, { 'updated_at[gte]': touched.updated_at }))).toEqual([a.id]);

      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: List<Fund> = await listFunds(api, c, { sort: 'name', limit: '1', ...(cursor ? { cursor } : {}) });
        expect(page.total).toBe(3);
        seen.push(...ids(page));
        cursor = page.next_cursor;
      } while (cursor);
      expect(seen).toEqual([a.id, d.id, b.id]);
    });

    itRefusesBadListParams(
      () => api,
      '/v1/funds',
      () => as(church),
      [
        [{ color: 'red' }, null],
        [{ sort: 'ledger_code' }, null],
        [{ active: 'maybe' }, null],
        [{ 'name[gt]': 'a' }, null],
      ],
    );

    it('DELETE removes a fund nobody gave to (204, then 404); one with donations is 409 and stays', async () => {
      const unused = await newFund(api, church, { name: unique('Unused') });
      expect((await api.delete(`/v1/funds/${unused.id}`, as(church))).status).toBe(204);
      expect((await api.get<Problem>(`/v1/funds/${unused.id}`, as(church))).status).toBe(404);

      const used = await newFund(api, church, { name: unique('Used') });
      const gift = await api.post(
        '/v1/donations',
        as(church, { body: { amount: 500, currency: 'USD', fund_id: used.id } }),
      );
      expect(gift.status).toBe(201);
      const refused = await api.delete<Problem>(`/v1/funds/${used.id}`, as(church));
      expect([refused.status, refused.body.code]).toEqual([409, 'conflict']);
      expect(refused.body.detail).toContain('active: false');
      expect((await api.get<Fund>(`/v1/funds/${used.id}`, as(church))).status).toBe(200);
    });

    it('a fund with only a recurring gift or a pledge is 409 too, and the answer says which', async () => {
      const [donor] = await newMembers(api, church, [{ first_name: 'Pledger', last_name: 'One' }]);
      const pledged = await newFund(api, church, { name: unique('Pledged') });
      const pledge = {
        donor_id: donor,
        fund_id: pledged.id,
        amount: 100_000,
        currency: 'USD',
        starts_on: '2026-01-01',
        ends_on: '2026-12-31',
      };
      expect((await api.post('/v1/pledges', as(church, { body: pledge }))).status).toBe(201);
      const scheduled = await newFund(api, church, { name: unique('Scheduled') });
      const gift = {
        donor_id: donor,
        fund_id: scheduled.id,
        amount: 5_000,
        currency: 'USD',
        interval: 'month',
        start_on: '2026-01-01',
      };
      expect((await api.post('/v1/recurring-gifts', as(church, { body: gift }))).status).toBe(201);
      for (const [fund, what] of [
        [pledged, 'pledges'],
        [scheduled, 'recurring gifts'],
      ] as const) {
        const refused = await api.delete<Problem>(`/v1/funds/${fund.id}`, as(church));
        expect([refused.status, refused.body.code]).toEqual([409, 'conflict']);
        expect(refused.body.detail).toContain(`the fund has ${what}`);
      }
    });

    it('an archived fund takes no new gift (422 inactive on fund_id); its old gifts stay', async () => {
      const fund = await newFund(api, church, { name: unique('Closing') });
      expect(
        (await api.post('/v1/donations', as(church, { body: { amount: 700, currency: 'USD', fund_id: fund.id } })))
          .status,
      ).toBe(201);
      await api.patch(`/v1/funds/${fund.id}`, as(church, { body: { active: false } }));
      const res = await api.post<Problem>(
        '/v1/donations',
        as(church, { body: { amount: 700, currency: 'USD', fund_id: fund.id } }),
      );
      expect([res.status, res.body.code, sortedIssuesOf(res.body)]).toEqual([
        422,
        'validation_failed',
        [{ field: 'fund_id', issue: 'inactive' }],
      ]);
      const gifts = await api.get<List<unknown>>(`/v1/donations?fund_id=${fund.id}`, as(church));
      expect(gifts.body.total).toBe(1);
    });

    it('malformed and unknown ids are 404 on every {id} route', async () => {
      for (const id of ['fnd_123', `fnd_${'0'.repeat(32)}`, `don_${'0'.repeat(32)}`]) {
        for (const [method, body] of [
          ['get', undefined],
          ['patch', { name: 'x' }],
          ['delete', undefined],
        ] as const) {
          const res = await api[method]<Problem>(`/v1/funds/${id}`, as(church, { body }));
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

  describe('isolation and scopes', () => {
    it("another church's fund is 404 on every {id} route, absent from its list, and unusable for a gift", async () => {
      const a = await newTenant(api);
      const b = await newTenant(api);
      const theirs = await newFund(api, a, { name: 'Only A' });
      for (const [method, body] of [
        ['get', undefined],
        ['patch', { name: 'Taken' }],
        ['delete', undefined],
      ] as const) {
        const res = await api[method]<Problem>(`/v1/funds/${theirs.id}`, as(b, { body }));
        expect({ method, status: res.status, code: res.body.code }).toEqual({
          method,
          status: 404,
          code: 'resource_not_found',
        });
      }
      expect((await listFunds(api, b)).total).toBe(0);
      const gift = await api.post<Problem>(
        '/v1/donations',
        as(b, { body: { amount: 100, currency: 'USD', fund_id: theirs.id } }),
      );
      expect([gift.status, sortedIssuesOf(gift.body)]).toEqual([422, [{ field: 'fund_id', issue: 'not_found' }]]);
      expect((await api.get<Fund>(`/v1/funds/${theirs.id}`, as(a))).body).toEqual(theirs);
    });

    it('funds ride on the donations scopes: read:donations reads, write:donations writes, members scopes reach nothing', async () => {
      const church = await newTenant(api);
      const fund = await newFund(api, church, { name: 'Scoped' });
      const reader = await newToken(api, church, ['read:donations'], 'staff');
      expect((await api.get('/v1/funds', { token: reader.token, tenant: church.slug })).status).toBe(200);
      expect((await api.get(`/v1/funds/${fund.id}`, { token: reader.token, tenant: church.slug })).status).toBe(200);
      for (const [method, path, body] of [
        ['post', '/v1/funds', { name: 'No' }],
        ['patch', `/v1/funds/${fund.id}`, { name: 'No' }],
        ['delete', `/v1/funds/${fund.id}`, undefined],
      ] as const) {
        const res = await api[method]<Problem>(path, { token: reader.token, tenant: church.slug, body });
        expect({ method, status: res.status, scope: res.headers['www-authenticate'] }).toEqual({
          method,
          status: 403,
          scope: expect.stringContaining('scope="write:donations"'),
        });
      }
      const finance = await newToken(api, church, ['write:donations'], 'finance');
      expect(
        (await api.post('/v1/funds', { token: finance.token, tenant: church.slug, body: { name: 'Yes' } })).status,
      ).toBe(201);
      const members = await newToken(api, church, ['read:members', 'write:members'], 'staff');
      const res = await api.get<Problem>('/v1/funds', { token: members.token, tenant: church.slug });
      expect([res.status, res.body.code]).toEqual([403, 'scope_insufficient']);
    });
  });
});
