import { randomUUID } from 'node:crypto';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { TenantContext } from '../../src/common/context/tenant-context';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import { parsePublicId } from '../../src/common/ids/id';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import { DonationsService } from '../../src/modules/donations/donations.service';
import { Call, JsonObject, TestApi } from '../support/api';
import {
  inTenant,
  newDonation,
  newFund,
  newMembers,
  newPledge,
  newTenant,
  newToken,
  TestTenant,
  TokenPool,
} from '../support/factories';
import { itRefusesBadListParams, qs, sortedIssuesOf } from '../support/http';
import type { PledgeResponse as Pledge } from '../../src/modules/pledges/dto/pledge.response';
import type { DonationResponse as Donation } from '../../src/modules/donations/dto/donation.response';
import type { FundResponse as Fund } from '../../src/modules/funds/dto/fund.response';

const PLEDGE_ID = /^plg_[0-9a-f]{32}$/;
const UTC_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const idsOf = (list: List<Pledge>) => list.data.map((p) => p.id);

/**
 * A church with two donors, two funds (and an archived one), and a pool of donation tokens: POST
 * /v1/donations allows 30 requests a minute per token, so a fresh token is taken every 25 gifts.
 */
class Church {
  private readonly donations: TokenPool;
  ana: string;
  beto: string;
  general: Fund;
  missions: Fund;
  closed: Fund;

  private constructor(
    private readonly api: TestApi,
    readonly tenant: TestTenant,
  ) {
    this.donations = new TokenPool(api, tenant, ['read:donations', 'write:donations']);
  }

  static async create(api: TestApi): Promise<Church> {
    const church = new Church(api, await newTenant(api));
    [church.ana, church.beto] = await newMembers(api, church.tenant, [
      { first_name: 'Ana', last_name: 'Ortiz' },
      { first_name: 'Beto', last_name: 'Ruiz' },
    ]);
    church.general = await church.fund('General');
    church.missions = await church.fund('Missions');
    church.closed = await church.fund('Old roof');
    expect((await api.patch(`/v1/funds/${church.closed.id}`, church.as({ body: { active: false } }))).status).toBe(200);
    return church;
  }

  as(extra: Call = {}): Call {
    return { token: this.tenant.token, tenant: this.tenant.slug, ...extra };
  }

  fund(name: string): Promise<Fund> {
    return newFund(this.api, this.tenant, { name });
  }

  async donate(body: JsonObject): Promise<Donation> {
    return newDonation(this.api, this.tenant, body, { token: await this.donations.next() });
  }

  pledge(body: JsonObject): Promise<Pledge> {
    return newPledge(this.api, this.tenant, body);
  }

  async get(id: string): Promise<Pledge> {
    const res = await this.api.get<Pledge>(`/v1/pledges/${id}`, this.as());
    if (res.status !== 200) throw new Error(`get pledge failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async list(params: Record<string, string> = {}): Promise<List<Pledge>> {
    const res = await this.api.get<List<Pledge>>(`/v1/pledges${qs(params)}`, this.as());
    if (res.status !== 200) throw new Error(`list failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async refund(donationId: string, amount?: number): Promise<void> {
    const res = await this.api.post(
      `/v1/donations/${donationId}/refund`,
      this.as({ body: amount === undefined ? {} : { amount } }),
    );
    if (res.status !== 200) throw new Error(`refund failed: ${res.status} ${JSON.stringify(res.body)}`);
  }

  /** A card payment the processor reports (what its webhook records). */
  processorPayment(body: { amount: number; fundId: string; donorId: string; receivedAt: Date }) {
    return inTenant(this.api, this.tenant.id, () =>
      this.api.app
        .get(DonationsService)
        .recordProcessorPayment({ processorId: `pi_${randomUUID()}`, currency: 'usd', method: 'card', ...body }),
    );
  }
}

/** Sets a pledge's created_at (inside the church's RLS transaction), for deterministic time filters. */
async function backdate(api: TestApi, church: Church, pledgeId: string, createdAt: string): Promise<void> {
  await inTenant(api, church.tenant.id, () =>
    TenantContext.current().manager.query(
      'UPDATE pledges SET created_at = $1, updated_at = $1 WHERE tenant_id = $2 AND id = $3',
      [createdAt, church.tenant.id, parsePublicId('plg', pledgeId)],
    ),
  );
}

describe('pledges', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api.close());

  // -------------------------------------------------------------------------------------------
  describe('POST /v1/pledges', () => {
    let c: Church;

    beforeAll(async () => {
      c = await Church.create(api);
    });

    it('creates a pledge: 201, Location, plg_ id, every field echoed, given 0 and remaining the amount; no webhook event', async () => {
      const body = {
        donor_id: c.ana,
        fund_id: c.general.id,
        amount: 120000,
        currency: 'USD',
        starts_on: '2026-01-01',
        ends_on: '2026-12-31',
      };
      const res = await api.post<Pledge>('/v1/pledges', c.as({ body }));
      expect(res.status).toBe(201);
      expect(res.body.id).toMatch(PLEDGE_ID);
      expect(res.headers.location).toBe(`/v1/pledges/${res.body.id}`);
      expect(res.body).toEqual({
        ...body,
        id: res.body.id,
        given: 0,
        remaining: 120000,
        created_at: expect.stringMatching(UTC_ISO),
        updated_at: res.body.created_at,
      });
      expect(await c.get(res.body.id)).toEqual(res.body);
      const events: unknown[] = await api.db.platform.query(
        `SELECT 1 FROM webhook_events WHERE tenant_id = $1 AND payload->'data'->'object'->>'id' = $2`,
        [c.tenant.id, res.body.id],
      );
      expect(events).toEqual([]);
    });

    it('refuses a float or string amount, an unknown currency, bad dates and references with 422 naming every field; creates nothing', async () => {
      const other = await Church.create(api);
      const before = (await c.list()).total;
      const base = {
        donor_id: c.ana,
        fund_id: c.general.id,
        amount: 1000,
        currency: 'USD',
        starts_on: '2026-01-01',
        ends_on: '2026-12-31',
      };
      const cases: [JsonObject, { field: string; issue: string }[]][] = [
        [
          { ...base, amount: 99.99, currency: 'BTC', starts_on: '2026-13-01' },
          [
            { field: 'amount', issue: 'invalid_type' },
            { field: 'currency', issue: 'one_of' },
            { field: 'starts_on', issue: 'invalid_format' },
          ],
        ],
        [{ ...base, amount: '1000' }, [{ field: 'amount', issue: 'invalid_type' }]],
        [
          { ...base, amount: -5, given: 10 },
          [
            { field: 'amount', issue: 'out_of_range' },
            { field: 'given', issue: 'unknown_field' },
          ],
        ],
        [
          {},
          [
            { field: 'amount', issue: 'required' },
            { field: 'currency', issue: 'required' },
            { field: 'donor_id', issue: 'required' },
            { field: 'ends_on', issue: 'required' },
            { field: 'fund_id', issue: 'required' },
            { field: 'starts_on', issue: 'required' },
          ],
        ],
        [{ ...base, ends_on: '2025-12-31' }, [{ field: 'ends_on', issue: 'before_start' }]],
        [
          { ...base, donor_id: other.ana, fund_id: other.general.id },
          [
            { field: 'donor_id', issue: 'not_found' },
            { field: 'fund_id', issue: 'not_found' },
          ],
        ],
        [{ ...base, fund_id: c.closed.id }, [{ field: 'fund_id', issue: 'inactive' }]],
        [{ ...base, donor_id: 'mem_x' }, [{ field: 'donor_id', issue: 'not_found' }]],
      ];
      for (const [body, issues] of cases) {
        const res = await api.post<Problem>('/v1/pledges', c.as({ body }));
        expect({ body, status: res.status, code: res.body.code, errors: sortedIssuesOf(res.body) }).toEqual({
          body,
          status: 422,
          code: 'validation_failed',
          errors: issues,
        });
      }
      expect((await c.list()).total).toBe(before);
    });

    it('honours Idempotency-Key: a retry replays the answer without a second pledge', async () => {
      const fresh = await Church.create(api);
      const headers = { 'Idempotency-Key': randomUUID() };
      const body = {
        donor_id: fresh.beto,
        fund_id: fresh.missions.id,
        amount: 5000,
        currency: 'MXN',
        starts_on: '2026-01-01',
        ends_on: '2026-06-30',
      };
      const first = await api.post<Pledge>('/v1/pledges', fresh.as({ body, headers }));
      const again = await api.post<Pledge>('/v1/pledges', fresh.as({ body, headers }));
      expect([first.status, again.status]).toEqual([201, 201]);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect((await fresh.list()).total).toBe(1);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('given and remaining', () => {
    let c: Church;
    let pledge: Pledge;
    const d: Record<string, Donation> = {};

    beforeAll(async () => {
      c = await Church.create(api);
      pledge = await c.pledge({
        donor_id: c.ana,
        fund_id: c.general.id,
        amount: 100000,
        currency: 'USD',
        starts_on: '2025-01-01',
        ends_on: '2025-12-31',
      });
      const gift = (body: JsonObject) =>
        c.donate({ donor_id: c.ana, fund_id: c.general.id, currency: 'USD', method: 'cash', ...body });
      // In the window (both of its ends included; an offset is honoured).
      d.first = await gift({ amount: 10000, received_at: '2025-01-01T00:00:00Z' });
      d.last = await gift({ amount: 20000, received_at: '2025-12-31T23:59:59.999Z' });
      d.mid = await gift({ amount: 7000, received_at: '2025-06-01T10:00:00-06:00' });
      // Outside of it: before, after, another fund, another currency, another donor, anonymous.
      await gift({ amount: 5000, received_at: '2024-12-31T23:59:59.999Z' });
      await gift({ amount: 5000, received_at: '2026-01-01T00:00:00Z' });
      await gift({ amount: 9000, received_at: '2025-06-01T12:00:00Z', fund_id: c.missions.id });
      await gift({ amount: 9000, received_at: '2025-06-01T12:00:00Z', currency: 'MXN' });
      await gift({ amount: 9000, received_at: '2025-06-01T12:00:00Z', donor_id: c.beto });
      await gift({ amount: 9000, received_at: '2025-06-01T12:00:00Z', donor_id: null });
    });

    it("counts the donor's succeeded gifts to the fund, in the currency, within the window", async () => {
      expect(await c.get(pledge.id)).toMatchObject({ given: 37000, remaining: 63000 });
    });

    it('deducts refunds: a partial refund its amount, a full refund the whole gift', async () => {
      await c.refund(d.last.id, 2000);
      expect(await c.get(pledge.id)).toMatchObject({ given: 35000, remaining: 65000 });
      await c.refund(d.mid.id);
      expect(await c.get(pledge.id)).toMatchObject({ given: 28000, remaining: 72000 });
    });

    it('counts a processor payment, and nothing of it once disputed', async () => {
      const paid = await c.processorPayment({
        amount: 15000,
        fundId: c.general.id,
        donorId: c.ana,
        receivedAt: new Date('2025-07-01T12:00:00Z'),
      });
      expect(await c.get(pledge.id)).toMatchObject({ given: 43000, remaining: 57000 });
      const [row]: { processor_id: string }[] = await api.db.platform.query(
        'SELECT processor_id FROM donations WHERE tenant_id = $1 AND id = $2',
        [c.tenant.id, parsePublicId('don', paid.id)],
      );
      await inTenant(api, c.tenant.id, () =>
        api.app
          .get(DonationsService)
          .disputeByProcessor(row.processor_id, { reason: 'fraudulent', status: 'needs_response', amount: 15000 }),
      );
      expect(await c.get(pledge.id)).toMatchObject({ given: 28000, remaining: 72000 });
    });

    it('counts nothing of a gift pending in an open batch, and all of it once the batch is committed', async () => {
      const batch = await api.post<{ id: string }>(
        '/v1/batches',
        c.as({ body: { description: 'Sunday envelopes', currency: 'USD' } }),
      );
      expect(batch.status).toBe(201);
      const pending = await c.donate({
        donor_id: c.ana,
        fund_id: c.general.id,
        currency: 'USD',
        amount: 4000,
        method: 'check',
        received_at: '2025-08-03T17:00:00Z',
        batch_id: batch.body.id,
      });
      expect(pending.status).toBe('pending');
      expect(await c.get(pledge.id)).toMatchObject({ given: 28000, remaining: 72000 });
      expect((await api.post(`/v1/batches/${batch.body.id}/commit`, c.as())).status).toBe(200);
      expect(await c.get(pledge.id)).toMatchObject({ given: 32000, remaining: 68000 });
      await c.refund(pending.id);
      expect(await c.get(pledge.id)).toMatchObject({ given: 28000, remaining: 72000 });
    });

    it('follows a change of window, fund or currency; remaining never goes below 0', async () => {
      const other = await c.pledge({
        donor_id: c.ana,
        fund_id: c.missions.id,
        amount: 5000,
        currency: 'USD',
        starts_on: '2025-01-01',
        ends_on: '2025-12-31',
      });
      expect(other).toMatchObject({ given: 9000, remaining: 0 });
      const moved = await api.patch<Pledge>(
        `/v1/pledges/${other.id}`,
        c.as({ body: { fund_id: c.general.id, starts_on: '2024-12-31', ends_on: '2026-01-01' } }),
      );
      expect(moved.status).toBe(200);
      // 28000 of 2025, plus the two gifts on the days just outside it.
      expect(moved.body).toMatchObject({
        fund_id: c.general.id,
        starts_on: '2024-12-31',
        ends_on: '2026-01-01',
        given: 38000,
        remaining: 0,
      });
      const mxn = await api.patch<Pledge>(
        `/v1/pledges/${other.id}`,
        c.as({ body: { currency: 'MXN', amount: 10000 } }),
      );
      expect(mxn.body).toMatchObject({ currency: 'MXN', given: 9000, remaining: 1000 });
    });

    it('lists every pledge of the page with its given, reading the donations once for the whole page', async () => {
      const many = await Church.create(api);
      const pledges: Pledge[] = [];
      for (let i = 0; i < 6; i++) {
        pledges.push(
          await many.pledge({
            donor_id: i % 2 ? many.ana : many.beto,
            fund_id: many.general.id,
            amount: 10000,
            currency: 'USD',
            starts_on: `202${i % 3}-01-01`,
            ends_on: '2025-12-31',
          }),
        );
      }
      await many.donate({
        donor_id: many.ana,
        fund_id: many.general.id,
        currency: 'USD',
        amount: 1500,
        received_at: '2021-06-01T00:00:00Z',
      });
      await many.donate({
        donor_id: many.beto,
        fund_id: many.general.id,
        currency: 'USD',
        amount: 2500,
        received_at: '2020-06-01T00:00:00Z',
      });
      const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
      let page: List<Pledge>;
      try {
        page = await many.list({ limit: '6' });
        expect(spy.mock.calls.map(([sql]) => sql).filter((sql) => /\bdonations\b/.test(sql))).toHaveLength(1);
      } finally {
        spy.mockRestore();
      }
      // beto (even i): starts 2020 (i=0), 2022 (i=2), 2021 (i=4); ana (odd i): starts 2021 (i=1), 2020 (i=3), 2022 (i=5).
      expect(page.data.map((p) => p.given)).toEqual([2500, 1500, 0, 1500, 0, 0]);
      for (const p of page.data) expect(await many.get(p.id)).toEqual(p);
      expect(idsOf(page)).toEqual(pledges.map((p) => p.id));
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('PATCH and DELETE /v1/pledges/{id}', () => {
    let c: Church;

    beforeAll(async () => {
      c = await Church.create(api);
    });

    const newPledge = () =>
      c.pledge({
        donor_id: c.ana,
        fund_id: c.general.id,
        amount: 50000,
        currency: 'USD',
        starts_on: '2026-01-01',
        ends_on: '2026-12-31',
      });

    it('changes the fields sent and advances updated_at', async () => {
      const pledge = await newPledge();
      const res = await api.patch<Pledge>(
        `/v1/pledges/${pledge.id}`,
        c.as({ body: { amount: 60000, ends_on: '2027-06-30' } }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...pledge,
        amount: 60000,
        ends_on: '2027-06-30',
        remaining: 60000,
        updated_at: res.body.updated_at,
      });
      expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(pledge.updated_at));
      expect(await c.get(pledge.id)).toEqual(res.body);
    });

    it('refuses the donor, cleared fields, bad values and references with 422; nothing changes', async () => {
      const pledge = await newPledge();
      const cases: [JsonObject, { field: string; issue: string }[]][] = [
        [{ donor_id: c.beto }, [{ field: 'donor_id', issue: 'unknown_field' }]],
        [
          { amount: null, currency: null, fund_id: null, starts_on: null, ends_on: null },
          [
            { field: 'amount', issue: 'required' },
            { field: 'currency', issue: 'required' },
            { field: 'ends_on', issue: 'required' },
            { field: 'fund_id', issue: 'required' },
            { field: 'starts_on', issue: 'required' },
          ],
        ],
        [
          { amount: 1.25, currency: 'usd' },
          [
            { field: 'amount', issue: 'invalid_type' },
            { field: 'currency', issue: 'one_of' },
          ],
        ],
        [{ starts_on: '2027-01-01' }, [{ field: 'ends_on', issue: 'before_start' }]],
        [{ fund_id: c.closed.id }, [{ field: 'fund_id', issue: 'inactive' }]],
        [{ fund_id: 'fnd_nope' }, [{ field: 'fund_id', issue: 'not_found' }]],
      ];
      for (const [body, issues] of cases) {
        const res = await api.patch<Problem>(`/v1/pledges/${pledge.id}`, c.as({ body }));
        expect({ body, status: res.status, code: res.body.code, errors: sortedIssuesOf(res.body) }).toEqual({
          body,
          status: 422,
          code: 'validation_failed',
          errors: issues,
        });
      }
      expect(await c.get(pledge.id)).toEqual(pledge);
    });

    it('soft-deletes: 204, then 404 on every {id} route and gone from the list; the row stays', async () => {
      const keep = await newPledge();
      const gone = await newPledge();
      const res = await api.delete(`/v1/pledges/${gone.id}`, c.as());
      expect(res.status).toBe(204);
      for (const [method, body] of [
        ['get', undefined],
        ['patch', { amount: 1 }],
        ['delete', undefined],
      ] as const) {
        const again = await api[method]<Problem>(`/v1/pledges/${gone.id}`, c.as({ body }));
        expect({ method, status: again.status, code: again.body.code }).toEqual({
          method,
          status: 404,
          code: 'resource_not_found',
        });
      }
      expect(idsOf(await c.list())).toContain(keep.id);
      expect(idsOf(await c.list())).not.toContain(gone.id);
      const rows: { deleted: boolean }[] = await api.db.platform.query(
        'SELECT deleted_at IS NOT NULL AS deleted FROM pledges WHERE tenant_id = $1 AND id = $2',
        [c.tenant.id, parsePublicId('plg', gone.id)],
      );
      expect(rows).toEqual([{ deleted: true }]);
    });

    it('races a PATCH and a DELETE: the PATCH lands before the delete or finds it gone (404), never revives the pledge', async () => {
      for (let round = 0; round < 5; round++) {
        const pledge = await newPledge();
        const [patch, del] = await Promise.all([
          api.patch<Pledge | Problem>(`/v1/pledges/${pledge.id}`, c.as({ body: { amount: 1 } })),
          api.delete(`/v1/pledges/${pledge.id}`, c.as()),
        ]);
        expect(del.status).toBe(204);
        expect([200, 404]).toContain(patch.status);
        expect((await api.get(`/v1/pledges/${pledge.id}`, c.as())).status).toBe(404);
        const rows: { deleted: boolean }[] = await api.db.platform.query(
          'SELECT deleted_at IS NOT NULL AS deleted FROM pledges WHERE tenant_id = $1 AND id = $2',
          [c.tenant.id, parsePublicId('plg', pledge.id)],
        );
        expect(rows).toEqual([{ deleted: true }]);
      }
    });

    it('answers malformed and unknown ids with 404 resource_not_found', async () => {
      const pledge = await newPledge();
      const hex = pledge.id.slice(4);
      for (const id of ['plg_123', `rcg_${hex}`, `plg_${hex.toUpperCase()}`, `plg_${'0'.repeat(32)}`]) {
        for (const [method, body] of [
          ['get', undefined],
          ['patch', { amount: 1 }],
          ['delete', undefined],
        ] as const) {
          const res = await api[method]<Problem>(`/v1/pledges/${id}`, c.as({ body }));
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
  describe('GET /v1/pledges (filters and sorts)', () => {
    let c: Church;
    const p: Record<string, Pledge> = {};

    beforeAll(async () => {
      c = await Church.create(api);
      p.a = await c.pledge({
        donor_id: c.ana,
        fund_id: c.general.id,
        amount: 1000,
        currency: 'USD',
        starts_on: '2025-01-01',
        ends_on: '2025-12-31',
      });
      p.b = await c.pledge({
        donor_id: c.beto,
        fund_id: c.missions.id,
        amount: 2000,
        currency: 'MXN',
        starts_on: '2025-03-01',
        ends_on: '2025-06-30',
      });
      p.c = await c.pledge({
        donor_id: c.ana,
        fund_id: c.missions.id,
        amount: 3000,
        currency: 'USD',
        starts_on: '2026-01-01',
        ends_on: '2026-12-31',
      });
      p.d = await c.pledge({
        donor_id: c.beto,
        fund_id: c.general.id,
        amount: 4000,
        currency: 'USD',
        starts_on: '2025-07-01',
        ends_on: '2025-09-30',
      });
      for (const [key, at] of [
        ['a', '2026-01-01T10:00:00Z'],
        ['b', '2026-01-02T10:00:00Z'],
        ['c', '2026-01-03T10:00:00Z'],
        ['d', '2026-01-04T10:00:00Z'],
      ] as const) {
        await backdate(api, c, p[key].id, at);
      }
      p.d = (await api.patch<Pledge>(`/v1/pledges/${p.d.id}`, c.as({ body: { amount: 4500 } }))).body;
      for (const key of ['a', 'b', 'c'] as const) p[key] = await c.get(p[key].id);
    });

    it('lists oldest first by default, with the total', async () => {
      const all = await c.list();
      expect(all.data).toEqual([p.a, p.b, p.c, p.d]);
      expect(all.total).toBe(4);
    });

    it('filters by donor_id, fund_id, currency, starts_on, ends_on, created_at and updated_at', async () => {
      expect(idsOf(await c.list({ donor_id: c.ana }))).toEqual([p.a.id, p.c.id]);
      expect(idsOf(await c.list({ 'donor_id[in]': `${c.beto},nope` }))).toEqual([p.b.id, p.d.id]);
      expect(idsOf(await c.list({ fund_id: c.missions.id }))).toEqual([p.b.id, p.c.id]);
      expect(idsOf(await c.list({ currency: 'MXN' }))).toEqual([p.b.id]);
      expect(idsOf(await c.list({ 'starts_on[gte]': '2025-03-01', 'starts_on[lt]': '2026-01-01' }))).toEqual([
        p.b.id,
        p.d.id,
      ]);
      expect(idsOf(await c.list({ 'ends_on[gte]': '2025-12-31' }))).toEqual([p.a.id, p.c.id]);
      expect(idsOf(await c.list({ 'created_at[gt]': '2026-01-02T10:00:00Z' }))).toEqual([p.c.id, p.d.id]);
      expect(idsOf(await c.list({ 'updated_at[gt]': '2026-01-05T00:00:00Z' }))).toEqual([p.d.id]);
    });

    it('sorts by ends_on and -created_at; pages with the cursor', async () => {
      expect(idsOf(await c.list({ sort: 'ends_on' }))).toEqual([p.b.id, p.d.id, p.a.id, p.c.id]);
      expect(idsOf(await c.list({ sort: '-created_at' }))).toEqual([p.d.id, p.c.id, p.b.id, p.a.id]);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: List<Pledge> = await c.list({ sort: '-ends_on', limit: '1', ...(cursor ? { cursor } : {}) });
        seen.push(...idsOf(page));
        cursor = page.next_cursor;
      } while (cursor);
      expect(seen).toEqual([p.c.id, p.a.id, p.d.id, p.b.id]);
    });

    itRefusesBadListParams(
      () => api,
      '/v1/pledges',
      () => c.as(),
      [
        [{ given: '0' }, 'given'],
        [{ sort: 'amount' }, 'sort'],
        [{ 'currency[gt]': 'USD' }, 'currency[gt]'],
        [{ 'ends_on[lte]': '2025-02-30' }, 'ends_on[lte]'],
      ],
    );
  });

  // -------------------------------------------------------------------------------------------
  describe('tenant isolation and scopes', () => {
    it("answers 404 to another church's pledge on every {id} route, does not list it, and never counts another church's gifts", async () => {
      const a = await Church.create(api);
      const b = await Church.create(api);
      const theirs = await a.pledge({
        donor_id: a.ana,
        fund_id: a.general.id,
        amount: 5000,
        currency: 'USD',
        starts_on: '2025-01-01',
        ends_on: '2025-12-31',
      });
      for (const [method, body] of [
        ['get', undefined],
        ['patch', { amount: 1 }],
        ['delete', undefined],
      ] as const) {
        const res = await api[method]<Problem>(`/v1/pledges/${theirs.id}`, b.as({ body }));
        expect({ method, status: res.status, code: res.body.code }).toEqual({
          method,
          status: 404,
          code: 'resource_not_found',
        });
      }
      expect((await b.list()).total).toBe(0);
      await b.donate({
        donor_id: b.ana,
        fund_id: b.general.id,
        currency: 'USD',
        amount: 700,
        received_at: '2025-05-05T00:00:00Z',
      });
      expect(await a.get(theirs.id)).toEqual(theirs);
    });

    it('read:donations reads but does not write; write:donations writes but does not read; members scopes reach nothing', async () => {
      const c = await Church.create(api);
      const pledge = await c.pledge({
        donor_id: c.ana,
        fund_id: c.general.id,
        amount: 5000,
        currency: 'USD',
        starts_on: '2025-01-01',
        ends_on: '2025-12-31',
      });
      const reader = await newToken(api, c.tenant, ['read:donations']);
      const writer = await newToken(api, c.tenant, ['write:donations']);
      const members = await newToken(api, c.tenant, ['read:members', 'write:members']);
      const call = (token: string, body?: JsonObject): Call => ({ token, tenant: c.tenant.slug, body });
      const body = {
        donor_id: c.ana,
        fund_id: c.general.id,
        amount: 100,
        currency: 'USD',
        starts_on: '2025-01-01',
        ends_on: '2025-12-31',
      };

      expect((await api.get('/v1/pledges', call(reader.token))).status).toBe(200);
      expect((await api.get(`/v1/pledges/${pledge.id}`, call(reader.token))).status).toBe(200);
      for (const [method, path, payload] of [
        ['post', '/v1/pledges', body],
        ['patch', `/v1/pledges/${pledge.id}`, { amount: 1 }],
        ['delete', `/v1/pledges/${pledge.id}`, undefined],
      ] as const) {
        const res = await api[method]<Problem>(path, call(reader.token, payload));
        expect({ method, status: res.status, code: res.body.code, scope: res.headers['www-authenticate'] }).toEqual({
          method,
          status: 403,
          code: 'scope_insufficient',
          scope: expect.stringContaining('scope="write:donations"'),
        });
      }
      expect((await api.post('/v1/pledges', call(writer.token, body))).status).toBe(201);
      expect((await api.patch(`/v1/pledges/${pledge.id}`, call(writer.token, { amount: 6000 }))).status).toBe(200);
      const read = await api.get<Problem>(`/v1/pledges/${pledge.id}`, call(writer.token));
      expect([read.status, read.body.code]).toEqual([403, 'scope_insufficient']);
      expect(read.headers['www-authenticate']).toContain('scope="read:donations"');
      for (const res of [
        await api.get<Problem>('/v1/pledges', call(members.token)),
        await api.post<Problem>('/v1/pledges', call(members.token, body)),
      ]) {
        expect([res.status, res.body.code]).toEqual([403, 'scope_insufficient']);
      }
    });
  });
});
