import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import { parsePublicId } from '../../src/common/ids/id';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import { Call, JsonObject, TestApi } from '../support/api';
import { newBatch, newFund, newMembers, newTenant, newToken, TestTenant, TokenPool } from '../support/factories';
import { waitFor } from '../support/wait';
import { sortedIssuesOf } from '../support/http';
import type { BatchResponse as Batch } from '../../src/modules/batches/dto/batch.response';
import type { DonationResponse as Donation } from '../../src/modules/donations/dto/donation.response';
import { outboxObjects } from '../support/outbox';

const BATCH_ID = /^bat_[0-9a-f]{32}$/;
const UTC_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Whether at least `n` sessions of the API wait for a lock (statistics are cached per transaction: cleared first). */
async function lockWaiters(pg: Client, n: number): Promise<boolean> {
  await pg.query('SELECT pg_stat_clear_snapshot()');
  const rows: { n: number }[] = (
    await pg.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'church-api' AND cardinality(pg_blocking_pids(pid)) > 0`,
    )
  ).rows;
  return rows[0].n >= n;
}

/** A church, a fund, and write:donations tokens rotated every 25 gifts (30 a minute per token). */
class Desk {
  private readonly tokens: TokenPool;
  fundId = '';

  constructor(
    private readonly api: TestApi,
    readonly church: TestTenant,
  ) {
    this.tokens = new TokenPool(api, church, ['write:donations']);
  }

  static async open(api: TestApi, church?: TestTenant): Promise<Desk> {
    const desk = new Desk(api, church ?? (await newTenant(api)));
    desk.fundId = (await newFund(api, desk.church, { name: 'General' })).id;
    return desk;
  }

  as(extra: Call = {}): Call {
    return { token: this.church.token, tenant: this.church.slug, ...extra };
  }

  async gift(body: JsonObject) {
    return this.api.post<Donation & Problem>('/v1/donations', {
      token: await this.tokens.next(),
      tenant: this.church.slug,
      body: { currency: 'USD', fund_id: this.fundId, ...body },
    });
  }

  batch(body: JsonObject = {}): Promise<Batch> {
    return newBatch(this.api, this.church, body);
  }

  async get(batchId: string): Promise<Batch> {
    return (await this.api.get<Batch>(`/v1/batches/${batchId}`, this.as())).body;
  }

  commit(batchId: string) {
    return this.api.post<Batch & Problem>(`/v1/batches/${batchId}/commit`, this.as());
  }
}

async function createdEvents(
  api: TestApi,
  church: TestTenant,
): Promise<{ id: string; status: string; batch_id: string | null }[]> {
  return outboxObjects(api, church, 'donation.created');
}

describe('batches', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api.close());

  describe('a batch from open to committed', () => {
    it('opens a batch (201, Location, bat_ id); its gifts are pending, counted and raise nothing until the commit', async () => {
      const desk = await Desk.open(api);
      const res = await api.post<Batch>(
        '/v1/batches',
        desk.as({ body: { description: ' Sunday 1st service ', expected_total: 4500, currency: 'USD' } }),
      );
      expect(res.status).toBe(201);
      expect(res.headers.location).toBe(`/v1/batches/${res.body.id}`);
      expect(res.body).toEqual({
        id: expect.stringMatching(BATCH_ID),
        description: 'Sunday 1st service',
        expected_total: 4500,
        currency: 'USD',
        status: 'open',
        count: 0,
        total: 0,
        committed_at: null,
        created_at: expect.stringMatching(UTC_ISO),
        updated_at: res.body.created_at,
      });
      const batch = res.body;
      const gifts = [];
      for (const amount of [1000, 1500, 2000]) {
        const gift = await desk.gift({ amount, batch_id: batch.id, method: 'cash' });
        expect([gift.status, gift.body.status, gift.body.batch_id]).toEqual([201, 'pending', batch.id]);
        gifts.push(gift.body);
      }
      expect(await createdEvents(api, desk.church)).toEqual([]);
      expect(await desk.get(batch.id)).toMatchObject({ status: 'open', count: 3, total: 4500 });
      const listed = await api.get<List<Donation>>(`/v1/donations?batch_id=${batch.id}&status=pending`, desk.as());
      expect(listed.body.data.map((d) => d.id).sort()).toEqual(gifts.map((g) => g.id).sort());

      const committed = await desk.commit(batch.id);
      expect(committed.status).toBe(200);
      expect(committed.body).toEqual({
        ...batch,
        status: 'committed',
        count: 3,
        total: 4500,
        committed_at: expect.stringMatching(UTC_ISO),
        updated_at: committed.body.committed_at,
      });
      expect(await desk.get(batch.id)).toEqual(committed.body);
      // The list's cached total is renewed by the commit.
      expect(
        (await api.get<List<Donation>>(`/v1/donations?batch_id=${batch.id}&status=pending`, desk.as())).body.total,
      ).toBe(0);
      for (const gift of gifts) {
        const now = (await api.get<Donation>(`/v1/donations/${gift.id}`, desk.as())).body;
        expect(now.status).toBe('succeeded');
      }
      const events = await createdEvents(api, desk.church);
      expect(events.map((e) => e.id).sort()).toEqual(gifts.map((g) => g.id).sort());
      expect(events.every((e) => e.status === 'succeeded' && e.batch_id === batch.id)).toBe(true);
      // The event object is the donation as GET returns it.
      expect(events[0]).toEqual((await api.get(`/v1/donations/${events[0].id}`, desk.as())).body);
    });

    it('committing twice, adding to or changing a committed batch is 409 conflict', async () => {
      const desk = await Desk.open(api);
      const batch = await desk.batch();
      await desk.gift({ amount: 700, batch_id: batch.id });
      expect((await desk.commit(batch.id)).status).toBe(200);
      const twice = await desk.commit(batch.id);
      expect([twice.status, twice.body.code]).toEqual([409, 'conflict']);
      const late = await desk.gift({ amount: 300, batch_id: batch.id });
      expect([late.status, late.body.code]).toEqual([409, 'conflict']);
      const patch = await api.patch<Problem>(`/v1/batches/${batch.id}`, desk.as({ body: { description: 'Renamed' } }));
      expect([patch.status, patch.body.code]).toEqual([409, 'conflict']);
      expect(await desk.get(batch.id)).toMatchObject({ count: 1, total: 700, description: 'Sunday' });
      expect(await createdEvents(api, desk.church)).toHaveLength(1);
    });

    it('a batch whose gifts do not add up to expected_total refuses to commit (422 batch_total_mismatch), changing nothing; fixed, it commits', async () => {
      const desk = await Desk.open(api);
      const batch = await desk.batch({ expected_total: 5000 });
      await desk.gift({ amount: 2000, batch_id: batch.id });
      await desk.gift({ amount: 2500, batch_id: batch.id });
      const refused = await api.post<Problem>(`/v1/batches/${batch.id}/commit`, desk.as({ lang: 'en' }));
      expect([refused.status, refused.body.code]).toEqual([422, 'batch_total_mismatch']);
      expect(refused.body.detail).toContain('5000');
      expect(refused.body.detail).toContain('4500');
      expect(await desk.get(batch.id)).toMatchObject({ status: 'open', count: 2, total: 4500 });
      expect(
        (await api.get<List<Donation>>(`/v1/donations?batch_id=${batch.id}&status=pending`, desk.as())).body.total,
      ).toBe(2);
      expect(await createdEvents(api, desk.church)).toEqual([]);

      const patched = await api.patch<Batch>(
        `/v1/batches/${batch.id}`,
        desk.as({ body: { expected_total: 4500, description: 'Counted again' } }),
      );
      expect(patched.body).toMatchObject({ expected_total: 4500, description: 'Counted again', count: 2, total: 4500 });
      expect((await desk.commit(batch.id)).body).toMatchObject({ status: 'committed', total: 4500 });
      // Without an expected total, any sum commits (an empty batch too).
      const empty = await desk.batch();
      expect((await desk.commit(empty.id)).body).toMatchObject({ status: 'committed', count: 0, total: 0 });
    });

    it('a gift in another currency than its batch is 422 currency_mismatch; bodies are validated', async () => {
      const desk = await Desk.open(api);
      const batch = await desk.batch({ currency: 'MXN' });
      const wrong = await desk.gift({ amount: 100, currency: 'USD', batch_id: batch.id });
      expect([wrong.status, sortedIssuesOf(wrong.body)]).toEqual([
        422,
        [{ field: 'currency', issue: 'currency_mismatch' }],
      ]);
      expect((await desk.gift({ amount: 100, currency: 'MXN', batch_id: batch.id })).status).toBe(201);

      const bad = await api.post<Problem>(
        '/v1/batches',
        desk.as({ body: { expected_total: 10.5, currency: 'usd', status: 'committed' } }),
      );
      expect([bad.status, sortedIssuesOf(bad.body)]).toEqual([
        422,
        [
          { field: 'currency', issue: 'one_of' },
          { field: 'description', issue: 'required' },
          { field: 'expected_total', issue: 'invalid_type' },
          { field: 'status', issue: 'unknown_field' },
        ],
      ]);
      for (const expected_total of [-1, '100']) {
        const res = await api.post<Problem>(
          '/v1/batches',
          desk.as({ body: { description: 'x', currency: 'USD', expected_total } }),
        );
        expect({ expected_total, status: res.status }).toEqual({ expected_total, status: 422 });
      }
      const noCurrency = await api.post<Problem>('/v1/batches', desk.as({ body: { description: 'x' } }));
      expect(sortedIssuesOf(noCurrency.body)).toEqual([{ field: 'currency', issue: 'required' }]);
      const currencyPatch = await api.patch<Problem>(`/v1/batches/${batch.id}`, desk.as({ body: { currency: 'USD' } }));
      expect([currencyPatch.status, sortedIssuesOf(currencyPatch.body)]).toEqual([
        422,
        [{ field: 'currency', issue: 'unknown_field' }],
      ]);
    });

    it('commit honours Idempotency-Key: a retry replays the 200 instead of a 409', async () => {
      const desk = await Desk.open(api);
      const batch = await desk.batch();
      await desk.gift({ amount: 100, batch_id: batch.id });
      const key = randomUUID();
      const first = await api.post<Batch>(
        `/v1/batches/${batch.id}/commit`,
        desk.as({ headers: { 'Idempotency-Key': key } }),
      );
      const again = await api.post<Batch>(
        `/v1/batches/${batch.id}/commit`,
        desk.as({ headers: { 'Idempotency-Key': key } }),
      );
      expect([first.status, again.status, again.headers['idempotent-replayed']]).toEqual([200, 200, 'true']);
      expect(await createdEvents(api, desk.church)).toHaveLength(1);
    });
  });

  describe('a commit racing an add', () => {
    it('a gift being added when the commit starts is waited for and counted (the add holds the batch FOR SHARE)', async () => {
      const desk = await Desk.open(api);
      const [donor] = await newMembers(api, desk.church, [{ first_name: 'Held', last_name: 'Up' }]);
      const batch = await desk.batch();
      await desk.gift({ amount: 1000, batch_id: batch.id });
      const pg = new Client({ connectionString: process.env.DATABASE_URL });
      await pg.connect();
      try {
        // The add reads the batch (open), then stops at its INSERT: the donor's row is held here,
        // and the INSERT's foreign key check waits for it. The commit then starts.
        await pg.query('BEGIN');
        await pg.query('SELECT 1 FROM members WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [
          desk.church.id,
          parsePublicId('mem', donor),
        ]);
        const add = desk.gift({ amount: 250, batch_id: batch.id, donor_id: donor });
        await waitFor(() => lockWaiters(pg, 1), { what: 'the add to wait at its insert', interval: 20 });
        const commit = desk.commit(batch.id);
        await waitFor(() => lockWaiters(pg, 2), { what: 'the commit to wait for the add', interval: 20 });
        await pg.query('ROLLBACK');
        const [added, committed] = await Promise.all([add, commit]);
        expect([added.status, added.body.status]).toEqual([201, 'pending']);
        expect([committed.status, committed.body.count, committed.body.total]).toEqual([200, 2, 1250]);
        expect((await api.get<Donation>(`/v1/donations/${added.body.id}`, desk.as())).body.status).toBe('succeeded');
        expect((await createdEvents(api, desk.church)).map((e) => e.id)).toContain(added.body.id);
      } finally {
        await pg.end();
      }
    });

    it('adds and commits at once, many times: every add is counted or refused with 409, never left pending', async () => {
      const desk = await Desk.open(api);
      for (let round = 0; round < 6; round++) {
        const batch = await desk.batch();
        const answers = await Promise.all([
          desk.gift({ amount: 100, batch_id: batch.id }),
          desk.commit(batch.id),
          desk.gift({ amount: 200, batch_id: batch.id }),
          desk.gift({ amount: 300, batch_id: batch.id }),
        ]);
        const [commit, ...adds] = [answers[1], answers[0], answers[2], answers[3]];
        expect(commit.status).toBe(200);
        for (const add of adds) expect([201, 409]).toContain(add.status);
        const counted = adds.filter((a) => a.status === 201);
        expect({ round, count: commit.body.count, total: commit.body.total }).toEqual({
          round,
          count: counted.length,
          total: counted.reduce((s, a) => s + a.body.amount, 0),
        });
        const pending = await api.get<List<Donation>>(`/v1/donations?batch_id=${batch.id}&status=pending`, desk.as());
        expect(pending.body.total).toBe(0);
      }
    });
  });

  describe('lists, ids, isolation and scopes', () => {
    it('lists batches with count and total, filtered by status and currency', async () => {
      const desk = await Desk.open(api);
      const open = await desk.batch({ description: 'Open' });
      await desk.gift({ amount: 400, batch_id: open.id });
      const done = await desk.batch({ description: 'Done' });
      await desk.gift({ amount: 600, batch_id: done.id });
      await desk.commit(done.id);
      const mxn = await desk.batch({ description: 'Pesos', currency: 'MXN' });
      const list = async (q = '') => (await api.get<List<Batch>>(`/v1/batches${q}`, desk.as())).body;
      const all = await list();
      expect(all.data.map((b) => [b.description, b.status, b.count, b.total])).toEqual([
        ['Open', 'open', 1, 400],
        ['Done', 'committed', 1, 600],
        ['Pesos', 'open', 0, 0],
      ]);
      expect((await list('?status=open')).data.map((b) => b.id)).toEqual([open.id, mxn.id]);
      expect((await list('?status=committed')).data.map((b) => b.id)).toEqual([done.id]);
      expect((await list('?currency=MXN')).data.map((b) => b.id)).toEqual([mxn.id]);
      expect((await list(`?created_at[gt]=${encodeURIComponent(done.created_at)}`)).data.map((b) => b.id)).toEqual([
        mxn.id,
      ]);
      const page = await list('?limit=2');
      expect(page.next_cursor).not.toBeNull();
      expect((await list(`?limit=2&cursor=${page.next_cursor}`)).data.map((b) => b.id)).toEqual([mxn.id]);
      const bad = await api.get<Problem>('/v1/batches?status=closed', desk.as());
      expect([bad.status, bad.body.code]).toEqual([400, 'invalid_parameter']);
    });

    it("another church's batch is 404 on every {id} route and unknown to its gifts; malformed ids are 404", async () => {
      const a = await Desk.open(api);
      const b = await Desk.open(api);
      const theirs = await a.batch();
      for (const [id, desk] of [
        [theirs.id, b],
        ['bat_1', a],
        [`bat_${'0'.repeat(32)}`, a],
      ] as const) {
        for (const [method, path, body] of [
          ['get', `/v1/batches/${id}`, undefined],
          ['patch', `/v1/batches/${id}`, { description: 'x' }],
          ['post', `/v1/batches/${id}/commit`, undefined],
        ] as const) {
          const res = await api[method]<Problem>(path, desk.as({ body }));
          expect({ path, status: res.status, code: res.body.code }).toEqual({
            path,
            status: 404,
            code: 'resource_not_found',
          });
        }
      }
      const gift = await b.gift({ amount: 100, batch_id: theirs.id });
      expect([gift.status, sortedIssuesOf(gift.body)]).toEqual([422, [{ field: 'batch_id', issue: 'not_found' }]]);
      expect((await api.get<List<Batch>>('/v1/batches', b.as())).body.total).toBe(0);
      expect(await a.get(theirs.id)).toMatchObject({ status: 'open', count: 0 });
    });

    it('batches ride on the donations scopes', async () => {
      const desk = await Desk.open(api);
      const batch = await desk.batch();
      const reader = await newToken(api, desk.church, ['read:donations'], 'staff');
      const call = { token: reader.token, tenant: desk.church.slug };
      expect((await api.get('/v1/batches', call)).status).toBe(200);
      expect((await api.get(`/v1/batches/${batch.id}`, call)).status).toBe(200);
      for (const [method, path, body] of [
        ['post', '/v1/batches', { description: 'x', currency: 'USD' }],
        ['patch', `/v1/batches/${batch.id}`, { description: 'x' }],
        ['post', `/v1/batches/${batch.id}/commit`, undefined],
      ] as const) {
        const res = await api[method]<Problem>(path, { ...call, body });
        expect({ path, status: res.status, scope: res.headers['www-authenticate'] }).toEqual({
          path,
          status: 403,
          scope: expect.stringContaining('scope="write:donations"'),
        });
      }
      const members = await newToken(api, desk.church, ['read:members'], 'staff');
      expect((await api.get('/v1/batches', { token: members.token, tenant: desk.church.slug })).status).toBe(403);
    });
  });
});
