import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import { TenantContext } from '../../src/common/context/tenant-context';
import { parsePublicId } from '../../src/common/ids/id';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import { NET_GIVEN_SQL } from '../../src/modules/donations/donation.entity';
import { DonationsService } from '../../src/modules/donations/donations.service';
import { OPENAPI_DOCUMENT, OpenApiDocumentHolder } from '../../src/platform/openapi/openapi.controller';
import { Call, JsonObject, TestApi } from '../support/api';
import {
  inTenant,
  newDonation,
  newFund,
  newMembers,
  newTenant,
  newToken,
  TestTenant,
  TokenPool,
} from '../support/factories';
import { waitFor } from '../support/wait';
import { itRefusesBadListParams, qs, sortedIssuesOf } from '../support/http';
import type { FundRef as Ref } from '../../src/modules/funds/dto/fund.response';
import type { DonationResponse as Donation } from '../../src/modules/donations/dto/donation.response';
import { newCampus } from '../support/factories';
import { outboxObjects } from '../support/outbox';

interface PlanNode {
  'Node Type': string;
  'Plan Rows': number;
  Plans?: PlanNode[];
}

const DONATION_ID = /^don_[0-9a-f]{32}$/;
const UTC_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const idsOf = (list: List<Donation>) => list.data.map((d) => d.id);

/**
 * Whether at least `n` sessions of the API wait for a lock (the refunds or adds a test holds up).
 * Statistics are cached per transaction: the snapshot is cleared so that each probe reads anew.
 */
async function lockWaiters(pg: Client, n: number): Promise<boolean> {
  await pg.query('SELECT pg_stat_clear_snapshot()');
  const rows: { n: number }[] = (
    await pg.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'church-api' AND cardinality(pg_blocking_pids(pid)) > 0`,
    )
  ).rows;
  return rows[0].n >= n;
}

/**
 * A church and a pool of write:donations tokens: POST /v1/donations allows 30 requests a minute per
 * token, so a suite that makes more gifts moves on to a fresh token every 25.
 */
class Giver {
  private readonly tokens: TokenPool;

  constructor(
    private readonly api: TestApi,
    readonly church: TestTenant,
  ) {
    this.tokens = new TokenPool(api, church, ['read:donations', 'write:donations']);
  }

  as(extra: Call = {}): Call {
    return { token: this.church.token, tenant: this.church.slug, ...extra };
  }

  donationToken(): Promise<string> {
    return this.tokens.next();
  }

  async post<T = Donation>(body: JsonObject, headers: Record<string, string> = {}) {
    return this.api.post<T>('/v1/donations', {
      token: await this.donationToken(),
      tenant: this.church.slug,
      body,
      headers,
    });
  }

  async donate(body: JsonObject): Promise<Donation> {
    return newDonation(this.api, this.church, body, { token: await this.donationToken() });
  }

  /** A fund, as gifts show it (`{id, name}`). */
  async fund(name: string, extra: JsonObject = {}): Promise<Ref> {
    const fund = await newFund(this.api, this.church, { name, ...extra });
    return { id: fund.id, name: fund.name };
  }

  async list(params: Record<string, string> = {}, path = '/v1/donations'): Promise<List<Donation>> {
    const res = await this.api.get<List<Donation>>(`${path}${qs(params)}`, this.as());
    if (res.status !== 200) throw new Error(`list failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }
}

/** The `data.object` of every outbox event of `type` whose object has this id (oldest first). */
async function eventObjects<T = Donation>(
  api: TestApi,
  church: TestTenant,
  type: string,
  objectId: string,
): Promise<T[]> {
  return outboxObjects<T>(api, church, type, objectId);
}

describe('donations', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api.close());

  // -------------------------------------------------------------------------------------------
  describe('POST /v1/donations', () => {
    let g: Giver;
    let general: Ref;
    let donorId: string;

    beforeAll(async () => {
      g = new Giver(api, await newTenant(api));
      general = await g.fund('General');
      [donorId] = await newMembers(api, g.church, [{ first_name: 'Lucía', last_name: 'Ramírez' }]);
      await newCampus(api, g.church, { key: 'north', name: 'North Campus' });
    });

    it('records a gift: 201, Location, don_ id, the exact shape, donation.created with the same object', async () => {
      const res = await g.post({
        amount: 2500,
        currency: 'USD',
        fund_id: general.id,
        donor_id: donorId,
        campus: 'north',
        method: 'check',
        check_number: '1042',
        received_at: '2026-01-04T10:30:00-06:00',
        note: 'In memory of Rosa',
      });
      expect(res.status).toBe(201);
      expect(res.body.id).toMatch(DONATION_ID);
      expect(res.headers.location).toBe(`/v1/donations/${res.body.id}`);
      expect(res.body).toEqual({
        id: res.body.id,
        amount: 2500,
        currency: 'USD',
        fund: general,
        donor: { id: donorId, first_name: 'Lucía' },
        campus: { id: expect.stringMatching(/^cmp_/), name: 'North Campus' },
        method: 'check',
        status: 'succeeded',
        received_at: '2026-01-04T16:30:00.000Z',
        check_number: '1042',
        note: 'In memory of Rosa',
        batch_id: null,
        recurring_gift_id: null,
        processor_id: null,
        refunded_amount: 0,
        dispute: null,
        created_at: expect.stringMatching(UTC_ISO),
        updated_at: res.body.created_at,
      });
      const fetched = await api.get<Donation>(res.headers.location, g.as());
      expect(fetched.body).toEqual(res.body);
      expect(await eventObjects(api, g.church, 'donation.created', res.body.id)).toEqual([res.body]);
    });

    it('an anonymous gift: donor null, method other, received now; a CLP gift has no minor unit', async () => {
      const before = Date.now();
      const gift = await g.donate({ amount: 15000, currency: 'CLP', fund_id: general.id });
      expect(gift).toMatchObject({
        amount: 15000,
        currency: 'CLP',
        donor: null,
        campus: null,
        method: 'other',
        status: 'succeeded',
        check_number: null,
        note: null,
      });
      expect(Date.parse(gift.received_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(gift.received_at).toBe(gift.created_at);
      const explicitNull = await g.donate({
        amount: 100,
        currency: 'USD',
        fund_id: general.id,
        received_at: null,
        method: null,
        donor_id: null,
      });
      expect(explicitNull).toMatchObject({ received_at: explicitNull.created_at, method: 'other', donor: null });
    });

    it('a float, a string, zero or too large an amount and an unknown currency are 422, naming each field; nothing is written', async () => {
      const cases: [JsonObject, { field: string; issue: string }[]][] = [
        [{ amount: 10.5, currency: 'USD', fund_id: general.id }, [{ field: 'amount', issue: 'invalid_type' }]],
        [{ amount: '1000', currency: 'USD', fund_id: general.id }, [{ field: 'amount', issue: 'invalid_type' }]],
        [{ amount: 0, currency: 'USD', fund_id: general.id }, [{ field: 'amount', issue: 'out_of_range' }]],
        [{ amount: -100, currency: 'USD', fund_id: general.id }, [{ field: 'amount', issue: 'out_of_range' }]],
        [{ amount: 100_000_001, currency: 'USD', fund_id: general.id }, [{ field: 'amount', issue: 'out_of_range' }]],
        [{ amount: 1e21, currency: 'USD', fund_id: general.id }, [{ field: 'amount', issue: 'out_of_range' }]],
        [{ amount: 100, currency: 'XXX', fund_id: general.id }, [{ field: 'currency', issue: 'one_of' }]],
        [{ amount: 100, currency: 'usd', fund_id: general.id }, [{ field: 'currency', issue: 'one_of' }]],
        [{ amount: 100, currency: 840, fund_id: general.id }, [{ field: 'currency', issue: 'one_of' }]],
        [
          { method: 'crypto', received_at: '2026-01-04 10:30', refunded_amount: 5 },
          [
            { field: 'amount', issue: 'required' },
            { field: 'currency', issue: 'required' },
            { field: 'fund_id', issue: 'required' },
            { field: 'method', issue: 'one_of' },
            { field: 'received_at', issue: 'invalid_format' },
            { field: 'refunded_amount', issue: 'unknown_field' },
          ],
        ],
      ];
      const before = (await g.list({ total: 'true' })).total;
      for (const [body, issues] of cases) {
        const res = await g.post<Problem>(body);
        expect({ body, status: res.status, code: res.body.code, issues: sortedIssuesOf(res.body) }).toEqual({
          body,
          status: 422,
          code: 'validation_failed',
          issues,
        });
      }
      expect((await g.list()).total).toBe(before);
    });

    it('references the church does not have are 422 not_found; a future or malformed received_at is refused', async () => {
      const other = new Giver(api, await newTenant(api));
      const theirFund = await other.fund('Theirs');
      const [theirMember] = await newMembers(api, other.church, [{ first_name: 'Otro', last_name: 'Miembro' }]);
      const res = await g.post<Problem>({
        amount: 100,
        currency: 'USD',
        fund_id: theirFund.id,
        donor_id: theirMember,
        campus: 'nowhere',
        batch_id: `bat_${'0'.repeat(32)}`,
      });
      expect([res.status, sortedIssuesOf(res.body)]).toEqual([
        422,
        [
          { field: 'batch_id', issue: 'not_found' },
          { field: 'campus', issue: 'not_found' },
          { field: 'donor_id', issue: 'not_found' },
          { field: 'fund_id', issue: 'not_found' },
        ],
      ]);
      for (const [received_at, issue] of [
        [new Date(Date.now() + 3_600_000).toISOString(), 'in_future'],
        ['2026-02-30T10:00:00Z', 'invalid_format'],
        ['1850-01-01T00:00:00Z', 'out_of_range'],
        ['2026-01-04', 'invalid_format'],
      ]) {
        const bad = await g.post<Problem>({ amount: 100, currency: 'USD', fund_id: general.id, received_at });
        expect({ received_at, status: bad.status, issues: sortedIssuesOf(bad.body) }).toEqual({
          received_at,
          status: 422,
          issues: [{ field: 'received_at', issue }],
        });
      }
      const deleted = await g.donate({ amount: 100, currency: 'USD', fund_id: general.id, donor_id: donorId });
      expect(deleted.donor).toEqual({ id: donorId, first_name: 'Lucía' });
    });

    it('honours Idempotency-Key: a retry replays the gift, one donation and one event', async () => {
      const key = randomUUID();
      const token = await g.donationToken();
      const body = { amount: 4242, currency: 'EUR', fund_id: general.id, note: key };
      const first = await api.post<Donation>('/v1/donations', {
        token,
        tenant: g.church.slug,
        body,
        headers: { 'Idempotency-Key': key },
      });
      const again = await api.post<Donation>('/v1/donations', {
        token,
        tenant: g.church.slug,
        body,
        headers: { 'Idempotency-Key': key },
      });
      expect([first.status, again.status, again.headers['idempotent-replayed']]).toEqual([201, 201, 'true']);
      expect(again.body).toEqual(first.body);
      expect(idsOf(await g.list({ currency: 'EUR' })).filter((id) => id === first.body.id)).toHaveLength(1);
      expect(await eventObjects(api, g.church, 'donation.created', first.body.id)).toHaveLength(1);
    });

    it('allows 30 gifts a minute per token: the 31st is 429 rate_limited, another token goes on', async () => {
      const { token } = await newToken(api, g.church, ['write:donations'], 'finance');
      // All at once: sent one after another on a loaded machine, they could straddle the end of the
      // quota's clock minute. The limiter decides before any work, so they land in one window.
      const answers = await Promise.all(
        Array.from({ length: 31 }, (_, i) =>
          api.post<Problem>('/v1/donations', {
            token,
            tenant: g.church.slug,
            body: { amount: 100 + i, currency: 'USD', fund_id: general.id },
          }),
        ),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(30);
      const limited = answers.filter((a) => a.status !== 201);
      expect(limited.map((a) => [a.status, a.body.code])).toEqual([[429, 'rate_limited']]);
      expect(Number(limited[0].headers['retry-after'])).toBeGreaterThan(0);
      expect((await g.post({ amount: 1, currency: 'USD', fund_id: general.id })).status).toBe(201);
    });

    it('write:donations records; read:donations and the members scopes may not (403)', async () => {
      const reader = await newToken(api, g.church, ['read:donations'], 'staff');
      const res = await api.post<Problem>('/v1/donations', {
        token: reader.token,
        tenant: g.church.slug,
        body: { amount: 100, currency: 'USD', fund_id: general.id },
      });
      expect([res.status, res.body.code]).toEqual([403, 'scope_insufficient']);
      expect(res.headers['www-authenticate']).toContain('scope="write:donations"');
      const members = await newToken(api, g.church, ['read:members', 'write:members'], 'staff');
      for (const [method, path] of [
        ['get', '/v1/donations'],
        ['get', `/v1/members/${donorId}/donations`],
      ] as const) {
        const denied = await api[method]<Problem>(path, { token: members.token, tenant: g.church.slug });
        expect({ path, status: denied.status }).toEqual({ path, status: 403 });
      }
      expect((await api.get('/v1/donations', { token: reader.token, tenant: g.church.slug })).status).toBe(200);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('GET /v1/donations and /v1/members/{id}/donations', () => {
    let g: Giver;
    let general: Ref;
    let missions: Ref;
    let ana: string;
    let ben: string;
    const d: Record<string, Donation> = {};

    beforeAll(async () => {
      g = new Giver(api, await newTenant(api));
      general = await g.fund('General');
      missions = await g.fund('Missions');
      [ana, ben] = await newMembers(api, g.church, [
        { first_name: 'Ana', last_name: 'Uno' },
        { first_name: 'Ben', last_name: 'Dos' },
      ]);
      await newCampus(api, g.church, { key: 'south', name: 'South' });
      d.a = await g.donate({
        amount: 5000,
        currency: 'USD',
        fund_id: general.id,
        donor_id: ana,
        method: 'cash',
        received_at: '2025-01-05T15:00:00Z',
      });
      d.b = await g.donate({
        amount: 1500,
        currency: 'USD',
        fund_id: missions.id,
        donor_id: ana,
        method: 'card',
        received_at: '2025-03-01T15:00:00Z',
        campus: 'south',
      });
      d.c = await g.donate({
        amount: 9000,
        currency: 'MXN',
        fund_id: general.id,
        donor_id: ben,
        method: 'check',
        check_number: '77',
        received_at: '2025-02-10T15:00:00Z',
      });
      d.e = await g.donate({
        amount: 1500,
        currency: 'USD',
        fund_id: general.id,
        method: 'online',
        received_at: '2025-04-20T15:00:00Z',
        campus: 'south',
      });
    });

    it('filters by fund, donor, campus, method, currency, amount and received_at; sorts by received_at and amount', async () => {
      const cases: [Record<string, string>, string[]][] = [
        [{}, ['a', 'b', 'c', 'e']],
        [{ fund_id: general.id }, ['a', 'c', 'e']],
        [{ 'fund_id[in]': `${general.id},${missions.id}` }, ['a', 'b', 'c', 'e']],
        [{ fund_id: 'fnd_nonsense' }, []],
        [{ donor_id: ana }, ['a', 'b']],
        [{ 'donor_id[in]': `${ana},${ben}`, method: 'check' }, ['c']],
        [{ campus: 'south' }, ['b', 'e']],
        [{ 'method[in]': 'cash,online' }, ['a', 'e']],
        [{ 'method[ne]': 'cash' }, ['b', 'c', 'e']],
        [{ currency: 'MXN' }, ['c']],
        [{ 'amount[gte]': '5000' }, ['a', 'c']],
        [{ 'amount[lt]': '5000', currency: 'USD' }, ['b', 'e']],
        [{ amount: '1500' }, ['b', 'e']],
        [{ 'received_at[gte]': '2025-02-01', 'received_at[lt]': '2025-04-01T00:00:00-06:00' }, ['b', 'c']],
        [{ fund_id: general.id, 'received_at[gte]': '2025-02-01T00:00:00Z', sort: '-received_at' }, ['e', 'c']],
        [{ status: 'succeeded' }, ['a', 'b', 'c', 'e']],
        [{ status: 'refunded' }, []],
        [{ sort: 'received_at' }, ['a', 'c', 'b', 'e']],
        [{ sort: '-received_at' }, ['e', 'b', 'c', 'a']],
        [
          { sort: 'amount' },
          ['b', 'e', 'a', 'c'].sort((x, y) => d[x].amount - d[y].amount || (d[x].id < d[y].id ? -1 : 1)),
        ],
      ];
      const name = new Map(Object.entries(d).map(([k, v]) => [v.id, k]));
      for (const [params, expected] of cases) {
        const list = await g.list(params);
        const got = list.data.map((x) => name.get(x.id));
        expect({ params, got, total: list.total }).toEqual({
          params,
          got: params.sort ? expected : [...expected].sort(),
          total: expected.length,
        });
      }
      const created = await g.list({ 'created_at[gte]': d.c.created_at });
      expect(created.data.map((x) => name.get(x.id)).sort()).toEqual(['c', 'e']);
    });

    it('pages by amount (an integer cursor) in both directions, with ties broken by id', async () => {
      for (const sort of ['amount', '-amount', 'received_at', '-created_at']) {
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const page: List<Donation> = await g.list({ sort, limit: '1', ...(cursor ? { cursor } : {}) });
          seen.push(...idsOf(page));
          cursor = page.next_cursor;
        } while (cursor);
        expect({ sort, seen }).toEqual({ sort, seen: idsOf(await g.list({ sort })) });
        expect(seen).toHaveLength(4);
      }
      const amounts = (await g.list({ sort: '-amount' })).data.map((x) => x.amount);
      expect(amounts).toEqual([9000, 5000, 1500, 1500]);
      const forged = Buffer.from(JSON.stringify(['amount', ['1500'], randomUUID()])).toString('base64url');
      const res = await api.get<Problem>(`/v1/donations?sort=amount&cursor=${forged}`, g.as());
      expect([res.status, res.body.code]).toEqual([400, 'invalid_parameter']);
    });

    itRefusesBadListParams(
      () => api,
      '/v1/donations',
      () => g.as(),
      [
        [{ donor: () => ana }, null],
        [{ sort: 'fund' }, null],
        [{ 'amount[in]': '1,2' }, null],
        [{ 'amount[gte]': '10.5' }, null],
        [{ status: 'lost' }, null],
        [{ currency: 'XXX' }, null],
        [{ 'received_at[gte]': 'yesterday' }, null],
      ],
    );

    it("GET /v1/members/{id}/donations lists one donor's gifts with the same filters; another or unknown member is 404", async () => {
      const list = await g.list({}, `/v1/members/${ana}/donations`);
      expect(idsOf(list).sort()).toEqual([d.a.id, d.b.id].sort());
      expect(idsOf(await g.list({ fund_id: missions.id }, `/v1/members/${ana}/donations`))).toEqual([d.b.id]);
      expect(idsOf(await g.list({ sort: '-amount' }, `/v1/members/${ana}/donations`))).toEqual([d.a.id, d.b.id]);
      expect((await g.list({}, `/v1/members/${ben}/donations`)).total).toBe(1);
      const byDonor = await api.get<Problem>(`/v1/members/${ana}/donations?donor_id=${ben}`, g.as());
      expect([byDonor.status, byDonor.body.code]).toEqual([400, 'invalid_parameter']);
      const other = await newTenant(api);
      const [stranger] = await newMembers(api, other, [{ first_name: 'X', last_name: 'Y' }]);
      for (const id of [stranger, `mem_${'0'.repeat(32)}`, 'mem_1', d.a.id]) {
        const res = await api.get<Problem>(`/v1/members/${id}/donations`, g.as());
        expect({ id, status: res.status, code: res.body.code }).toEqual({
          id,
          status: 404,
          code: 'resource_not_found',
        });
      }
      // The other church sees nothing of these gifts.
      const theirs = await api.get<List<Donation>>(`/v1/members/${stranger}/donations`, {
        token: other.token,
        tenant: other.slug,
      });
      expect(theirs.body.total).toBe(0);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('PATCH /v1/donations/{id}', () => {
    it('changes fund, campus, note and check number only; money is never edited (422 unknown_field)', async () => {
      const g = new Giver(api, await newTenant(api));
      const general = await g.fund('General');
      const building = await g.fund('Building');
      await newCampus(api, g.church, { key: 'east', name: 'East' });
      const gift = await g.donate({
        amount: 2000,
        currency: 'USD',
        fund_id: general.id,
        method: 'check',
        check_number: '1',
      });
      const res = await api.patch<Donation>(
        `/v1/donations/${gift.id}`,
        g.as({ body: { fund_id: building.id, campus: 'east', note: 'moved', check_number: '2' } }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...gift,
        fund: building,
        campus: { id: expect.stringMatching(/^cmp_/), name: 'East' },
        note: 'moved',
        check_number: '2',
        updated_at: expect.stringMatching(UTC_ISO),
      });
      expect((await api.get<Donation>(`/v1/donations/${gift.id}`, g.as())).body).toEqual(res.body);
      const cleared = await api.patch<Donation>(
        `/v1/donations/${gift.id}`,
        g.as({ body: { campus: null, note: null } }),
      );
      expect(cleared.body).toMatchObject({ campus: null, note: null, fund: building });

      const money = await api.patch<Problem>(
        `/v1/donations/${gift.id}`,
        g.as({ body: { amount: 1, currency: 'EUR', status: 'refunded', donor_id: null, fund_id: null } }),
      );
      expect([money.status, sortedIssuesOf(money.body)]).toEqual([
        422,
        [
          { field: 'amount', issue: 'unknown_field' },
          { field: 'currency', issue: 'unknown_field' },
          { field: 'donor_id', issue: 'unknown_field' },
          { field: 'status', issue: 'unknown_field' },
        ],
      ]);
      const nullFund = await api.patch<Problem>(`/v1/donations/${gift.id}`, g.as({ body: { fund_id: null } }));
      expect([nullFund.status, sortedIssuesOf(nullFund.body)]).toEqual([
        422,
        [{ field: 'fund_id', issue: 'required' }],
      ]);
      expect((await api.get<Donation>(`/v1/donations/${gift.id}`, g.as())).body).toMatchObject({
        amount: 2000,
        currency: 'USD',
      });
      expect(await eventObjects(api, g.church, 'donation.created', gift.id)).toHaveLength(1);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('POST /v1/donations/{id}/refund', () => {
    let g: Giver;
    let general: Ref;

    beforeAll(async () => {
      g = new Giver(api, await newTenant(api));
      general = await g.fund('General');
    });

    it('refunds partly, then the rest by default; past the remainder is 422 refund_exceeds_remaining; donation.refunded each time', async () => {
      const gift = await g.donate({ amount: 1000, currency: 'USD', fund_id: general.id });
      const part = await api.post<Donation>(`/v1/donations/${gift.id}/refund`, g.as({ body: { amount: 300 } }));
      expect(part.status).toBe(200);
      expect(part.body).toEqual({
        ...gift,
        status: 'partially_refunded',
        refunded_amount: 300,
        updated_at: expect.stringMatching(UTC_ISO),
      });

      const over = await api.post<Problem>(
        `/v1/donations/${gift.id}/refund`,
        g.as({ body: { amount: 701 }, lang: 'en' }),
      );
      expect([over.status, over.body.code]).toEqual([422, 'refund_exceeds_remaining']);
      expect(over.body.detail).toContain('700');

      const rest = await api.post<Donation>(`/v1/donations/${gift.id}/refund`, g.as({ body: {} }));
      expect(rest.body).toMatchObject({ status: 'refunded', refunded_amount: 1000, amount: 1000 });
      const again = await api.post<Problem>(`/v1/donations/${gift.id}/refund`, g.as({ body: {} }));
      expect([again.status, again.body.code]).toEqual([422, 'refund_exceeds_remaining']);

      const events = await eventObjects<
        Donation & { refund: { amount: number; processor_refund_id: string | null; created_at: string } }
      >(api, g.church, 'donation.refunded', gift.id);
      expect(events.map((e) => [e.status, e.refunded_amount, e.refund.amount])).toEqual([
        ['partially_refunded', 300, 300],
        ['refunded', 1000, 700],
      ]);
      const { refund, ...donation } = events[1];
      expect(donation).toEqual(rest.body);
      expect(refund).toEqual({ amount: 700, processor_refund_id: null, created_at: expect.stringMatching(UTC_ISO) });
      const rows: { n: number; sum: string }[] = await api.db.platform.query(
        'SELECT count(*)::int AS n, sum(amount)::text AS sum FROM donation_refunds WHERE tenant_id = $1 AND donation_id = $2',
        [g.church.id, parsePublicId('don', gift.id)],
      );
      expect(rows[0]).toEqual({ n: 2, sum: '1000' });
    });

    it('a float or string amount is 422 validation_failed; malformed, unknown and another church’s ids are 404', async () => {
      const gift = await g.donate({ amount: 1000, currency: 'USD', fund_id: general.id });
      for (const amount of [10.5, '10', 0]) {
        const res = await api.post<Problem>(`/v1/donations/${gift.id}/refund`, g.as({ body: { amount } }));
        expect({ amount, status: res.status, code: res.body.code }).toEqual({
          amount,
          status: 422,
          code: 'validation_failed',
        });
      }
      const other = await newTenant(api);
      for (const [id, church] of [
        [`don_${'0'.repeat(32)}`, g.church],
        ['don_xyz', g.church],
        [gift.id, other],
      ] as const) {
        for (const [method, path, body] of [
          ['get', `/v1/donations/${id}`, undefined],
          ['patch', `/v1/donations/${id}`, { note: 'x' }],
          ['post', `/v1/donations/${id}/refund`, {}],
        ] as const) {
          const res = await api[method]<Problem>(path, { token: church.token, tenant: church.slug, body });
          expect({ path, status: res.status, code: res.body.code }).toEqual({
            path,
            status: 404,
            code: 'resource_not_found',
          });
        }
      }
      expect(
        (await api.get<List<Donation>>('/v1/donations', { token: other.token, tenant: other.slug })).body.total,
      ).toBe(0);
      expect((await api.get<Donation>(`/v1/donations/${gift.id}`, g.as())).body.refunded_amount).toBe(0);
    });

    it('two refunds at once never exceed the amount: they run one after the other (row lock), the second gets 422', async () => {
      const gift = await g.donate({ amount: 1000, currency: 'USD', fund_id: general.id });
      const pg = new Client({ connectionString: process.env.DATABASE_URL });
      await pg.connect();
      try {
        // Hold the donation's row so that both refunds are in flight at once, then let them go.
        await pg.query('BEGIN');
        await pg.query('SELECT 1 FROM donations WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [
          g.church.id,
          parsePublicId('don', gift.id),
        ]);
        const refunds = [0, 1].map(() =>
          api.post<Donation | Problem>(`/v1/donations/${gift.id}/refund`, g.as({ body: { amount: 600 } })),
        );
        await waitFor(() => lockWaiters(pg, 2), { what: 'both refunds to wait on the donation', interval: 20 });
        await pg.query('ROLLBACK');
        const answers = await Promise.all(refunds);
        expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
        expect(answers.map((a) => (a.body as Problem).code).filter(Boolean)).toEqual(['refund_exceeds_remaining']);
      } finally {
        await pg.end();
      }
      expect((await api.get<Donation>(`/v1/donations/${gift.id}`, g.as())).body).toMatchObject({
        refunded_amount: 600,
        status: 'partially_refunded',
      });
      expect(await eventObjects(api, g.church, 'donation.refunded', gift.id)).toHaveLength(1);
    });

    it('a pending gift (open batch) cannot be refunded: 409', async () => {
      const batch = await api.post<{ id: string }>(
        '/v1/batches',
        g.as({ body: { description: 'Sunday', currency: 'USD' } }),
      );
      const gift = await g.donate({ amount: 1000, currency: 'USD', fund_id: general.id, batch_id: batch.body.id });
      expect(gift.status).toBe('pending');
      const res = await api.post<Problem>(`/v1/donations/${gift.id}/refund`, g.as({ body: {} }));
      expect([res.status, res.body.code]).toEqual([409, 'conflict']);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('the payment processor side (DonationsService, used by the processor webhook)', () => {
    let g: Giver;
    let general: Ref;
    let donor: string;
    const service = () => api.app.get(DonationsService);
    const inChurch = <T>(fn: () => Promise<T>) => inTenant(api, g.church.id, fn);

    beforeAll(async () => {
      g = new Giver(api, await newTenant(api));
      general = await g.fund('General');
      [donor] = await newMembers(api, g.church, [{ first_name: 'Pablo', last_name: 'Proc' }]);
    });

    it('recordProcessorPayment makes one succeeded gift per processor id, even twenty at once; one donation.created', async () => {
      const payment = {
        processorId: `pi_${randomUUID()}`,
        amount: 2500,
        currency: 'usd',
        fundId: general.id,
        donorId: donor,
        method: 'card' as const,
        receivedAt: new Date('2026-01-02T03:04:05Z'),
      };
      const results = await Promise.all(
        Array.from({ length: 20 }, () => inChurch(() => service().recordProcessorPayment(payment))),
      );
      expect(new Set(results.map((r) => r.id)).size).toBe(1);
      const gift = results[0];
      expect(gift).toMatchObject({
        amount: 2500,
        currency: 'USD',
        fund: general,
        donor: { id: donor, first_name: 'Pablo' },
        method: 'card',
        status: 'succeeded',
        processor_id: payment.processorId,
        received_at: '2026-01-02T03:04:05.000Z',
      });
      expect(await eventObjects(api, g.church, 'donation.created', gift.id)).toEqual([gift]);
      expect((await api.get<Donation>(`/v1/donations/${gift.id}`, g.as())).body).toEqual(gift);
      const again = await inChurch(() => service().recordProcessorPayment({ ...payment, amount: 1 }));
      expect(again).toEqual(gift);
    });

    it('an unknown donor gives anonymously; an unknown fund or currency is a 422 naming the field', async () => {
      const anonymous = await inChurch(() =>
        service().recordProcessorPayment({
          processorId: `pi_${randomUUID()}`,
          amount: 100,
          currency: 'MXN',
          fundId: general.id,
          donorId: `mem_${'0'.repeat(32)}`,
          method: 'ach',
        }),
      );
      expect(anonymous).toMatchObject({ donor: null, currency: 'MXN', method: 'ach' });
      const unlinked = await inChurch(() =>
        service().recordProcessorPayment({
          processorId: `pi_${randomUUID()}`,
          amount: 100,
          currency: 'USD',
          fundId: general.id,
          recurringGiftId: `rcg_${'0'.repeat(32)}`,
          method: 'card',
        }),
      );
      expect(unlinked).toMatchObject({ recurring_gift_id: null, status: 'succeeded' });
      await expect(
        inChurch(() =>
          service().recordProcessorPayment({
            processorId: `pi_${randomUUID()}`,
            amount: 100,
            currency: 'zzz',
            fundId: `fnd_${'0'.repeat(32)}`,
            method: 'card',
          }),
        ),
      ).rejects.toMatchObject({
        code: 'validation_failed',
        errors: [
          { field: 'currency', issue: 'invalid' },
          { field: 'metadata.fund_id', issue: 'not_found' },
        ],
      });
    });

    it('refundByProcessor records each processor refund once, caps at what is left, and is null for an unknown payment', async () => {
      const processorId = `pi_${randomUUID()}`;
      const gift = await inChurch(() =>
        service().recordProcessorPayment({
          processorId,
          amount: 1000,
          currency: 'USD',
          fundId: general.id,
          method: 'card',
        }),
      );
      const first = await inChurch(() =>
        service().refundByProcessor(processorId, { amount: 400, processorRefundId: 're_1' }),
      );
      expect(first).toMatchObject({ id: gift.id, status: 'partially_refunded', refunded_amount: 400 });
      const repeat = await inChurch(() =>
        service().refundByProcessor(processorId, { amount: 400, processorRefundId: 're_1' }),
      );
      expect(repeat).toMatchObject({ refunded_amount: 400 });
      const capped = await inChurch(() =>
        service().refundByProcessor(processorId, { amount: 5000, processorRefundId: 're_2' }),
      );
      expect(capped).toMatchObject({ status: 'refunded', refunded_amount: 1000 });
      expect(
        await inChurch(() => service().refundByProcessor('pi_unknown', { amount: 1, processorRefundId: 're_3' })),
      ).toBeNull();
      const events = await eventObjects<Donation & { refund: { amount: number; processor_refund_id: string } }>(
        api,
        g.church,
        'donation.refunded',
        gift.id,
      );
      expect(events.map((e) => e.refund)).toEqual([
        { amount: 400, processor_refund_id: 're_1', created_at: expect.stringMatching(UTC_ISO) },
        { amount: 600, processor_refund_id: 're_2', created_at: expect.stringMatching(UTC_ISO) },
      ]);
      // Through the API, a processor's gift is refunded at the processor.
      const viaApi = await api.post<Problem>(`/v1/donations/${gift.id}/refund`, g.as({ body: {} }));
      expect([viaApi.status, viaApi.body.code]).toEqual([409, 'conflict']);
    });

    it('disputeByProcessor sets status disputed with the dispute and raises donation.disputed; null for an unknown payment', async () => {
      const processorId = `pi_${randomUUID()}`;
      const gift = await inChurch(() =>
        service().recordProcessorPayment({
          processorId,
          amount: 3000,
          currency: 'USD',
          fundId: general.id,
          method: 'card',
        }),
      );
      const disputed = await inChurch(() =>
        service().disputeByProcessor(processorId, { reason: 'fraudulent', status: 'needs_response', amount: 3000 }),
      );
      expect(disputed).toEqual({
        ...gift,
        status: 'disputed',
        dispute: { reason: 'fraudulent', status: 'needs_response', amount: 3000 },
        updated_at: expect.stringMatching(UTC_ISO),
      });
      expect(await eventObjects(api, g.church, 'donation.disputed', gift.id)).toEqual([disputed]);
      expect((await api.get<Donation>(`/v1/donations/${gift.id}`, g.as())).body).toEqual(disputed);
      expect(
        await inChurch(() => service().disputeByProcessor('pi_unknown', { reason: 'x', status: 'y', amount: 1 })),
      ).toBeNull();
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('net given (NET_GIVEN_SQL, for pledges, statements and reports)', () => {
    it('the API description states the money rules: the currency table with its exponents, and net given', async () => {
      const text = api.app.get<OpenApiDocumentHolder>(OPENAPI_DOCUMENT).document!.info.description ?? '';
      for (const part of [
        'USD (2)',
        'CLP (0)',
        'PYG (0)',
        'KWD (3)',
        '100,000,000',
        'amount - refunded_amount',
        'Sums are per',
      ])
        expect(text).toContain(part);
    });

    it('counts succeeded gifts less refunds, per currency; pending, disputed and refunded-away money counts 0', async () => {
      const g = new Giver(api, await newTenant(api));
      const fund = await g.fund('General');
      await g.donate({ amount: 1000, currency: 'USD', fund_id: fund.id });
      const partly = await g.donate({ amount: 1000, currency: 'USD', fund_id: fund.id });
      await api.post(`/v1/donations/${partly.id}/refund`, g.as({ body: { amount: 300 } }));
      const fully = await g.donate({ amount: 500, currency: 'USD', fund_id: fund.id });
      await api.post(`/v1/donations/${fully.id}/refund`, g.as({ body: {} }));
      const batch = await api.post<{ id: string }>(
        '/v1/batches',
        g.as({ body: { description: 'Open', currency: 'USD' } }),
      );
      await g.donate({ amount: 800, currency: 'USD', fund_id: fund.id, batch_id: batch.body.id });
      const processorId = `pi_${randomUUID()}`;
      await inTenant(api, g.church.id, () =>
        api.app
          .get(DonationsService)
          .recordProcessorPayment({ processorId, amount: 900, currency: 'USD', fundId: fund.id, method: 'card' }),
      );
      await inTenant(api, g.church.id, () =>
        api.app
          .get(DonationsService)
          .disputeByProcessor(processorId, { reason: 'fraudulent', status: 'needs_response', amount: 900 }),
      );
      await g.donate({ amount: 5000, currency: 'MXN', fund_id: fund.id });

      const rows = await inTenant(api, g.church.id, () =>
        TenantContext.current().manager.query(
          `SELECT currency, sum(${NET_GIVEN_SQL})::int AS net FROM donations d WHERE d.tenant_id = $1 GROUP BY currency ORDER BY currency`,
          [g.church.id],
        ),
      );
      expect(rows).toEqual([
        { currency: 'MXN', net: 5000 },
        { currency: 'USD', net: 1000 + 700 },
      ]);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('query plans on a large church', () => {
    it('a received_at range in the default created_at order also bounds created_at in the page query (not the count): a gift is never received more than 5 minutes after it is entered', async () => {
      const g = new Giver(api, await newTenant(api));
      const fund = await g.fund('Bounded');
      const pg = new Client({ connectionString: process.env.DATABASE_URL });
      await pg.connect();
      try {
        const insert = (receivedMinutes: number, createdMinutes: number) =>
          pg.query(
            `INSERT INTO donations (tenant_id, id, amount, currency, fund_id, method, received_at, status, created_at, updated_at)
             VALUES ($1, gen_random_uuid(), 100, 'USD', $2, 'cash', now() + make_interval(mins => $3), 'succeeded', now() + make_interval(mins => $4), now())`,
            [g.church.id, parsePublicId('fnd', fund.id), receivedMinutes, createdMinutes],
          );
        await expect(insert(10, 0)).rejects.toMatchObject({ code: '23514', constraint: 'donations_received_check' });
        await insert(-3 * 24 * 60, 0); // a check of three days ago, entered now
        await insert(-60, -62); // received two minutes after it was entered (a client's clock)
        await insert(-90 * 24 * 60, -89 * 24 * 60);
      } finally {
        await pg.end();
      }
      const since = new Date(Date.now() - 7 * 86_400_000).toISOString();
      const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
      try {
        const byDefault = await api.get<List<Donation>>(`/v1/donations?received_at[gte]=${since}`, g.as());
        const byReceived = await api.get<List<Donation>>(
          `/v1/donations?received_at[gte]=${since}&sort=received_at`,
          g.as(),
        );
        expect(byDefault.body.total).toBe(2);
        expect(byDefault.body.data.map((d) => d.id).sort()).toEqual(byReceived.body.data.map((d) => d.id).sort());
        const sqls = spy.mock.calls.map(([sql]) => String(sql)).filter((sql) => /FROM "donations"/.test(sql));
        const [page, count] = [sqls.find((sql) => /LIMIT/.test(sql))!, sqls.find((sql) => /count\(\*\)/.test(sql))!];
        expect(page).toMatch(/"d"\."created_at" >= /);
        expect(count).not.toMatch(/"d"\."created_at" >= /);
      } finally {
        spy.mockRestore();
      }
    });

    it('the fund + received_at page and the donor page read an index range: no Seq Scan, no Sort over more than 10,000 rows', async () => {
      const g = new Giver(api, await newTenant(api));
      const funds = [await g.fund('F1'), await g.fund('F2'), await g.fund('F3'), await g.fund('F4')];
      const donors = await newMembers(
        api,
        g.church,
        Array.from({ length: 50 }, (_, i) => ({ first_name: `D${i}`, last_name: 'Plan' })),
      );
      const pg = new Client({ connectionString: process.env.DATABASE_URL });
      await pg.connect();
      try {
        // 60,000 gifts, one every 20 minutes back from now (about 23 months), across 4 funds and 50 donors.
        await pg.query(
          `INSERT INTO donations (tenant_id, id, amount, currency, fund_id, donor_id, method, received_at, status, created_at, updated_at)
           SELECT $1, gen_random_uuid(), 100 + (i * 37) % 10000, 'USD', ($2::uuid[])[1 + i % 4], ($3::uuid[])[1 + i % 50], 'cash',
                  now() - make_interval(mins => 20 * i), 'succeeded', now() - make_interval(mins => 20 * i), now()
           FROM generate_series(1, 60000) AS i`,
          [g.church.id, funds.map((f) => parsePublicId('fnd', f.id)), donors.map((m) => parsePublicId('mem', m))],
        );
        await pg.query('ANALYZE donations');

        const since = new Date(Date.now() - 60 * 86_400_000).toISOString();
        const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
        const pages = [
          `/v1/donations?fund_id=${funds[1].id}&received_at[gte]=${since}&limit=100&sort=-received_at`,
          `/v1/donations?fund_id=${funds[1].id}&received_at[gte]=${since}&limit=100`,
          `/v1/members/${donors[7]}/donations?limit=100&sort=-received_at`,
        ];
        const statements: { sql: string; params: unknown[] }[] = [];
        try {
          for (const path of pages) {
            spy.mockClear();
            const res = await api.get<List<Donation>>(path, g.as());
            expect(res.status).toBe(200);
            expect(res.body.data).toHaveLength(100);
            const ours = spy.mock.calls.filter(([sql]) => /FROM "donations"/.test(String(sql)));
            expect(ours.length).toBeGreaterThanOrEqual(2); // the page and its total
            statements.push(
              ...ours.map(([sql, params]) => ({ sql: String(sql), params: (params as unknown[]) ?? [] })),
            );
          }
        } finally {
          spy.mockRestore();
        }

        for (const { sql, params } of statements) {
          await pg.query('BEGIN');
          await pg.query('SET LOCAL ROLE church_app');
          await pg.query(`SELECT set_config('app.tenant_id', $1, true)`, [g.church.id]);
          const explained = await pg.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
            `EXPLAIN (FORMAT JSON) ${sql}`,
            params,
          );
          const plan = explained.rows[0]['QUERY PLAN'][0].Plan;
          await pg.query('ROLLBACK');
          const nodes: PlanNode[] = [];
          const walk = (node: PlanNode) => {
            nodes.push(node);
            for (const child of node.Plans ?? []) walk(child);
          };
          walk(plan);
          const problems = nodes.filter(
            (n) => n['Node Type'] === 'Seq Scan' || (n['Node Type'] === 'Sort' && n['Plan Rows'] > 10_000),
          );
          expect({ sql: sql.slice(0, 300), problems }).toEqual({ sql: sql.slice(0, 300), problems: [] });
        }
      } finally {
        await pg.end();
      }
    });
  });
});
