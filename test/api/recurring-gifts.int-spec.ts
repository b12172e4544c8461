import { randomUUID } from 'node:crypto';
import { TenantContext } from '../../src/common/context/tenant-context';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import { parsePublicId } from '../../src/common/ids/id';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import { DonationsService } from '../../src/modules/donations/donations.service';
import { RecurringGiftsService } from '../../src/modules/recurring-gifts/recurring-gifts.service';
import { Call, JsonObject, TestApi } from '../support/api';
import { inTenant, newFund, newMembers, newRecurringGift, newTenant, newToken, TestTenant } from '../support/factories';
import { as, itRefusesBadListParams, qs, sortedIssuesOf } from '../support/http';
import type { RecurringGiftResponse as RecurringGift } from '../../src/modules/recurring-gifts/dto/recurring-gift.response';
import { outboxObjects } from '../support/outbox';

const GIFT_ID = /^rcg_[0-9a-f]{32}$/;
const UTC_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DAY = 86_400_000;

const idsOf = (list: List<RecurringGift>) => list.data.map((g) => g.id);
/** The UTC calendar date `days` from now. */
const utcDay = (days = 0) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

/** The `data.object` of every outbox event of `type` in the church whose object has this id (oldest first). */
async function eventObjects<T = RecurringGift>(
  api: TestApi,
  church: TestTenant,
  type: string,
  objectId: string,
): Promise<T[]> {
  return outboxObjects<T>(api, church, type, objectId);
}

async function eventTypes(api: TestApi, church: TestTenant, objectId: string): Promise<string[]> {
  const rows: { type: string }[] = await api.db.platform.query(
    `SELECT type FROM webhook_events WHERE tenant_id = $1 AND payload->'data'->'object'->>'id' = $2 ORDER BY created_at, id`,
    [church.id, objectId],
  );
  return rows.map((r) => r.type);
}

/** A church with two donors, a general fund, a missions fund and an archived one. */
async function newGivingChurch(api: TestApi) {
  const church = await newTenant(api);
  const [ana, beto] = await newMembers(api, church, [
    { first_name: 'Ana', last_name: 'Ortiz' },
    { first_name: 'Beto', last_name: 'Ruiz' },
  ]);
  const general = await newFund(api, church, { name: 'General' });
  const missions = await newFund(api, church, { name: 'Missions' });
  const closed = await newFund(api, church, { name: 'Old roof' });
  expect((await api.patch(`/v1/funds/${closed.id}`, as(church, { body: { active: false } }))).status).toBe(200);
  return { church, ana, beto, general, missions, closed };
}

async function listGifts(
  api: TestApi,
  church: TestTenant,
  params: Record<string, string> = {},
): Promise<List<RecurringGift>> {
  const res = await api.get<List<RecurringGift>>(`/v1/recurring-gifts${qs(params)}`, as(church));
  if (res.status !== 200) throw new Error(`list failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Sets a gift's created_at (inside the church's RLS transaction), for deterministic time filters. */
async function backdate(api: TestApi, church: TestTenant, giftId: string, createdAt: string): Promise<void> {
  await inTenant(api, church.id, () =>
    TenantContext.current().manager.query(
      'UPDATE recurring_gifts SET created_at = $1, updated_at = $1 WHERE tenant_id = $2 AND id = $3',
      [createdAt, church.id, parsePublicId('rcg', giftId)],
    ),
  );
}

/**
 * Runs `call` and checks that `value(result)` is what `expected(today)` says for the UTC day the
 * call ran on (both days are accepted if the call straddles midnight UTC).
 */
async function onToday<T>(
  call: () => Promise<T>,
  value: (result: T) => unknown,
  expected: (today: number) => unknown,
): Promise<T> {
  const before = Date.now();
  const result = await call();
  const after = Date.now();
  const days = [Math.floor(before / DAY), Math.floor(after / DAY)];
  expect(days.map(expected)).toContainEqual(value(result));
  return result;
}

const isoDay = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);

describe('recurring gifts', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api.close());

  // -------------------------------------------------------------------------------------------
  describe('POST /v1/recurring-gifts', () => {
    let g: Awaited<ReturnType<typeof newGivingChurch>>;

    beforeAll(async () => {
      g = await newGivingChurch(api);
    });

    it('creates an active gift: 201, Location, rcg_ id, every field echoed, recurring.created with the object GET returns', async () => {
      const start = utcDay(10);
      const body = {
        donor_id: g.ana,
        amount: 5000,
        currency: 'USD',
        fund_id: g.general.id,
        interval: 'month',
        start_on: start,
        end_on: '2099-12-31',
      };
      const res = await api.post<RecurringGift>('/v1/recurring-gifts', as(g.church, { body }));

      expect(res.status).toBe(201);
      expect(res.body.id).toMatch(GIFT_ID);
      expect(res.headers.location).toBe(`/v1/recurring-gifts/${res.body.id}`);
      expect(res.body).toEqual({
        ...body,
        id: res.body.id,
        status: 'active',
        next_charge_on: start,
        canceled_at: null,
        created_at: expect.stringMatching(UTC_ISO),
        updated_at: res.body.created_at,
      });
      const fetched = await api.get<RecurringGift>(res.headers.location, as(g.church));
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(res.body);
      expect(await eventObjects(api, g.church, 'recurring.created', res.body.id)).toEqual([res.body]);
    });

    it('end_on is optional (null: until canceled); CLP and PYG amounts are whole units', async () => {
      const res = await newRecurringGift(api, g.church, {
        donor_id: g.beto,
        amount: 25000,
        currency: 'CLP',
        fund_id: g.missions.id,
        interval: 'week',
        start_on: utcDay(3),
      });
      expect(res).toMatchObject({
        end_on: null,
        amount: 25000,
        currency: 'CLP',
        interval: 'week',
        next_charge_on: utcDay(3),
      });
    });

    it('refuses a float or string amount, an unknown or lower-case currency and bad fields with 422 naming every field; creates nothing', async () => {
      const before = (await listGifts(api, g.church)).total;
      const cases: [JsonObject, { field: string; issue: string }[]][] = [
        [
          {
            donor_id: g.ana,
            amount: 10.5,
            currency: 'XYZ',
            fund_id: g.general.id,
            interval: 'daily',
            start_on: '2026-02-30',
          },
          [
            { field: 'amount', issue: 'invalid_type' },
            { field: 'currency', issue: 'one_of' },
            { field: 'interval', issue: 'one_of' },
            { field: 'start_on', issue: 'invalid_format' },
          ],
        ],
        [
          {
            donor_id: g.ana,
            amount: '5000',
            currency: 'usd',
            fund_id: g.general.id,
            interval: 'month',
            start_on: '2026-01-01',
          },
          [
            { field: 'amount', issue: 'invalid_type' },
            { field: 'currency', issue: 'one_of' },
          ],
        ],
        [
          {
            donor_id: g.ana,
            amount: 0,
            currency: 'USD',
            fund_id: g.general.id,
            interval: 'month',
            start_on: '2026-01-01',
          },
          [{ field: 'amount', issue: 'out_of_range' }],
        ],
        [
          {
            donor_id: g.ana,
            amount: 100_000_001,
            currency: 'USD',
            fund_id: g.general.id,
            interval: 'month',
            start_on: '2026-01-01',
            status: 'paused',
          },
          [
            { field: 'amount', issue: 'out_of_range' },
            { field: 'status', issue: 'unknown_field' },
          ],
        ],
        [
          {},
          [
            { field: 'amount', issue: 'required' },
            { field: 'currency', issue: 'required' },
            { field: 'donor_id', issue: 'required' },
            { field: 'fund_id', issue: 'required' },
            { field: 'interval', issue: 'required' },
            { field: 'start_on', issue: 'required' },
          ],
        ],
      ];
      for (const [body, issues] of cases) {
        const res = await api.post<Problem>('/v1/recurring-gifts', as(g.church, { body }));
        expect({ body, status: res.status, code: res.body.code, errors: sortedIssuesOf(res.body) }).toEqual({
          body,
          status: 422,
          code: 'validation_failed',
          errors: issues,
        });
      }
      expect((await listGifts(api, g.church)).total).toBe(before);
    });

    it("refuses an unknown donor or fund, another church's, an archived fund and end_on before start_on (422)", async () => {
      const other = await newGivingChurch(api);
      const base = { amount: 5000, currency: 'USD', interval: 'month', start_on: '2026-03-01' };
      const cases: [JsonObject, { field: string; issue: string }[]][] = [
        [
          { ...base, donor_id: other.ana, fund_id: other.general.id },
          [
            { field: 'donor_id', issue: 'not_found' },
            { field: 'fund_id', issue: 'not_found' },
          ],
        ],
        [
          { ...base, donor_id: `mem_${'0'.repeat(32)}`, fund_id: 'fnd_123' },
          [
            { field: 'donor_id', issue: 'not_found' },
            { field: 'fund_id', issue: 'not_found' },
          ],
        ],
        [{ ...base, donor_id: g.general.id, fund_id: g.general.id }, [{ field: 'donor_id', issue: 'not_found' }]],
        [{ ...base, donor_id: g.ana, fund_id: g.closed.id }, [{ field: 'fund_id', issue: 'inactive' }]],
        [
          { ...base, donor_id: g.ana, fund_id: g.general.id, end_on: '2026-02-28' },
          [{ field: 'end_on', issue: 'before_start' }],
        ],
      ];
      for (const [body, issues] of cases) {
        const res = await api.post<Problem>('/v1/recurring-gifts', as(g.church, { body }));
        expect({ body, status: res.status, code: res.body.code, errors: sortedIssuesOf(res.body) }).toEqual({
          body,
          status: 422,
          code: 'validation_failed',
          errors: issues,
        });
      }
      const res = await api.post<Problem>(
        '/v1/recurring-gifts',
        as(g.church, { body: { ...base, donor_id: g.ana, fund_id: g.general.id, end_on: '2026-02-28' }, lang: 'en' }),
      );
      expect(res.body.errors![0]).toMatchObject({
        field: 'end_on',
        issue: 'before_start',
        message: 'Must be on or after the start date (2026-03-01).',
      });
      // end_on equal to start_on is a one-charge gift.
      const once = await newRecurringGift(api, g.church, {
        ...base,
        donor_id: g.ana,
        fund_id: g.general.id,
        start_on: '2099-01-01',
        end_on: '2099-01-01',
      });
      expect(once.next_charge_on).toBe('2099-01-01');
    });

    it('honours Idempotency-Key: a retry replays the answer without a second gift or event', async () => {
      const c = await newGivingChurch(api);
      const headers = { 'Idempotency-Key': randomUUID() };
      const body = {
        donor_id: c.ana,
        amount: 1000,
        currency: 'MXN',
        fund_id: c.general.id,
        interval: 'two_weeks',
        start_on: utcDay(1),
      };
      const first = await api.post<RecurringGift>('/v1/recurring-gifts', as(c.church, { body, headers }));
      const again = await api.post<RecurringGift>('/v1/recurring-gifts', as(c.church, { body, headers }));
      expect([first.status, again.status]).toEqual([201, 201]);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect((await listGifts(api, c.church)).total).toBe(1);
      expect(await eventObjects(api, c.church, 'recurring.created', first.body.id)).toHaveLength(1);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('next_charge_on', () => {
    let g: Awaited<ReturnType<typeof newGivingChurch>>;

    beforeAll(async () => {
      g = await newGivingChurch(api);
    });

    const gift = (body: JsonObject) =>
      newRecurringGift(api, g.church, {
        donor_id: g.ana,
        amount: 1000,
        currency: 'USD',
        fund_id: g.general.id,
        ...body,
      });

    it('is start_on while it is today or later', async () => {
      await onToday(
        () => gift({ interval: 'week', start_on: utcDay() }),
        (r) => r.next_charge_on,
        (today) => isoDay(today),
      );
    });

    it('steps weekly and fortnightly gifts from start_on to the first date on or after today', async () => {
      // Started 7 days ago: charges again today. 8 days ago: in 6 days. Fortnightly, 15 days ago: in 13 days.
      for (const [interval, ago, next] of [
        ['week', 7, 0],
        ['week', 8, 6],
        ['week', 700, 0],
        ['two_weeks', 15, 13],
        ['two_weeks', 14, 0],
      ] as const) {
        await onToday(
          () => gift({ interval, start_on: isoDay(Math.floor(Date.now() / DAY) - ago) }),
          (r) => [interval, ago, r.next_charge_on],
          (today) => [interval, ago, isoDay(today + next)],
        );
      }
    });

    it('keeps the day of the month for monthly, quarterly and yearly gifts', async () => {
      // Started on the 1st, two years ago: the next 1st of a month (today when today is the 1st).
      const nextFirst = (today: number, months: number) => {
        const d = new Date(today * DAY);
        if (d.getUTCDate() === 1 && (d.getUTCMonth() - 0) % months === 0) return isoDay(today);
        let m = d.getUTCMonth() + 1;
        while (m % months !== 0) m++;
        return new Date(Date.UTC(d.getUTCFullYear(), m, 1)).toISOString().slice(0, 10);
      };
      const twoYearsAgoJanuary = `${new Date().getUTCFullYear() - 2}-01-01`;
      await onToday(
        () => gift({ interval: 'month', start_on: twoYearsAgoJanuary }),
        (r) => r.next_charge_on,
        (today) => nextFirst(today, 1),
      );
      await onToday(
        () => gift({ interval: 'quarter', start_on: twoYearsAgoJanuary }),
        (r) => r.next_charge_on,
        (today) => nextFirst(today, 3),
      );
      await onToday(
        () => gift({ interval: 'year', start_on: twoYearsAgoJanuary }),
        (r) => r.next_charge_on,
        (today) => nextFirst(today, 12),
      );
    });

    it('is null once no date is left before end_on, and on the list too', async () => {
      const ended = await gift({ interval: 'week', start_on: '2024-01-01', end_on: '2024-06-30' });
      expect(ended).toMatchObject({ status: 'active', next_charge_on: null });
      const listed = await listGifts(api, g.church, { 'start_on[lte]': '2024-01-01' });
      expect(listed.data.find((x) => x.id === ended.id)).toEqual(ended);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('GET /v1/recurring-gifts/{id}', () => {
    it('carries an ETag (304 while unchanged) and answers 404 resource_not_found to malformed and unknown ids on every {id} route', async () => {
      const g = await newGivingChurch(api);
      const gift = await newRecurringGift(api, g.church, {
        donor_id: g.ana,
        amount: 1000,
        currency: 'USD',
        fund_id: g.general.id,
        interval: 'month',
        start_on: '2099-01-01',
      });
      const res = await api.get<RecurringGift>(`/v1/recurring-gifts/${gift.id}`, as(g.church));
      expect(res.status).toBe(200);
      const again = await api.get(
        `/v1/recurring-gifts/${gift.id}`,
        as(g.church, { headers: { 'If-None-Match': res.headers.etag } }),
      );
      expect(again.status).toBe(304);

      const hex = gift.id.slice(4);
      for (const id of ['rcg_123', `plg_${hex}`, `rcg_${hex.toUpperCase()}`, `rcg_${'0'.repeat(32)}`]) {
        for (const [method, body] of [
          ['get', undefined],
          ['patch', { amount: 2000 }],
        ] as const) {
          const r = await api[method]<Problem>(`/v1/recurring-gifts/${id}`, as(g.church, { body }));
          expect({ id, method, status: r.status, code: r.body.code }).toEqual({
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
  describe('PATCH /v1/recurring-gifts/{id}', () => {
    let g: Awaited<ReturnType<typeof newGivingChurch>>;

    beforeAll(async () => {
      g = await newGivingChurch(api);
    });

    const newGift = () =>
      newRecurringGift(api, g.church, {
        donor_id: g.ana,
        amount: 5000,
        currency: 'USD',
        fund_id: g.general.id,
        interval: 'month',
        start_on: '2099-01-15',
      });

    it('changes the fields sent and raises recurring.updated; a body that changes nothing raises nothing', async () => {
      const gift = await newGift();
      const res = await api.patch<RecurringGift>(
        `/v1/recurring-gifts/${gift.id}`,
        as(g.church, {
          body: {
            amount: 7500,
            currency: 'EUR',
            fund_id: g.missions.id,
            interval: 'quarter',
            start_on: '2099-02-01',
            end_on: '2100-01-31',
          },
        }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...gift,
        amount: 7500,
        currency: 'EUR',
        fund_id: g.missions.id,
        interval: 'quarter',
        start_on: '2099-02-01',
        end_on: '2100-01-31',
        next_charge_on: '2099-02-01',
        updated_at: res.body.updated_at,
      });
      expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(gift.updated_at));
      expect((await api.get<RecurringGift>(`/v1/recurring-gifts/${gift.id}`, as(g.church))).body).toEqual(res.body);
      expect(await eventObjects(api, g.church, 'recurring.updated', gift.id)).toEqual([res.body]);

      const same = await api.patch<RecurringGift>(
        `/v1/recurring-gifts/${gift.id}`,
        as(g.church, { body: { amount: 7500, status: 'active' } }),
      );
      expect(same.status).toBe(200);
      expect(same.body).toEqual(res.body);
      const cleared = await api.patch<RecurringGift>(
        `/v1/recurring-gifts/${gift.id}`,
        as(g.church, { body: { end_on: null } }),
      );
      expect(cleared.body.end_on).toBeNull();
      expect(await eventTypes(api, g.church, gift.id)).toEqual([
        'recurring.created',
        'recurring.updated',
        'recurring.updated',
      ]);
    });

    it('pauses (next_charge_on null) and resumes (next regular date) with recurring.updated', async () => {
      const gift = await newGift();
      const paused = await api.patch<RecurringGift>(
        `/v1/recurring-gifts/${gift.id}`,
        as(g.church, { body: { status: 'paused' } }),
      );
      expect(paused.status).toBe(200);
      expect(paused.body).toMatchObject({ status: 'paused', next_charge_on: null, canceled_at: null });
      const resumed = await api.patch<RecurringGift>(
        `/v1/recurring-gifts/${gift.id}`,
        as(g.church, { body: { status: 'active' } }),
      );
      expect(resumed.body).toMatchObject({ status: 'active', next_charge_on: '2099-01-15' });
      expect((await eventObjects(api, g.church, 'recurring.updated', gift.id)).map((o) => o.status)).toEqual([
        'paused',
        'active',
      ]);
    });

    it('cancels with recurring.canceled (not recurring.updated); a canceled gift takes no change: 409, nothing raised', async () => {
      const gift = await newGift();
      await api.patch(`/v1/recurring-gifts/${gift.id}`, as(g.church, { body: { status: 'paused' } }));
      const canceled = await api.patch<RecurringGift>(
        `/v1/recurring-gifts/${gift.id}`,
        as(g.church, { body: { status: 'canceled' } }),
      );
      expect(canceled.status).toBe(200);
      expect(canceled.body).toMatchObject({
        status: 'canceled',
        next_charge_on: null,
        canceled_at: expect.stringMatching(UTC_ISO),
      });
      expect(canceled.body.updated_at).toBe(canceled.body.canceled_at);
      expect(await eventObjects(api, g.church, 'recurring.canceled', gift.id)).toEqual([canceled.body]);

      for (const body of [
        { status: 'active' },
        { status: 'paused' },
        { status: 'canceled' },
        { amount: 1 },
        { end_on: null },
      ]) {
        const res = await api.patch<Problem>(`/v1/recurring-gifts/${gift.id}`, as(g.church, { body }));
        expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 409, code: 'conflict' });
      }
      expect((await api.get<RecurringGift>(`/v1/recurring-gifts/${gift.id}`, as(g.church))).body).toEqual(
        canceled.body,
      );
      expect(await eventTypes(api, g.church, gift.id)).toEqual([
        'recurring.created',
        'recurring.updated',
        'recurring.canceled',
      ]);
    });

    it('refuses the donor, cleared required fields, bad values and references with 422; nothing changes', async () => {
      const gift = await newGift();
      const cases: [JsonObject, { field: string; issue: string }[]][] = [
        [{ donor_id: g.beto }, [{ field: 'donor_id', issue: 'unknown_field' }]],
        [
          { amount: null, currency: null, fund_id: null, interval: null, start_on: null, status: null },
          [
            { field: 'amount', issue: 'required' },
            { field: 'currency', issue: 'required' },
            { field: 'fund_id', issue: 'required' },
            { field: 'interval', issue: 'required' },
            { field: 'start_on', issue: 'required' },
            { field: 'status', issue: 'required' },
          ],
        ],
        [
          { amount: 1.5, currency: 'usd', status: 'ended' },
          [
            { field: 'amount', issue: 'invalid_type' },
            { field: 'currency', issue: 'one_of' },
            { field: 'status', issue: 'one_of' },
          ],
        ],
        [{ fund_id: g.closed.id }, [{ field: 'fund_id', issue: 'inactive' }]],
        [{ fund_id: `fnd_${'0'.repeat(32)}` }, [{ field: 'fund_id', issue: 'not_found' }]],
        [{ end_on: '2099-01-14' }, [{ field: 'end_on', issue: 'before_start' }]],
        [{ start_on: '2099-03-01', end_on: '2099-02-01' }, [{ field: 'end_on', issue: 'before_start' }]],
      ];
      for (const [body, issues] of cases) {
        const res = await api.patch<Problem>(`/v1/recurring-gifts/${gift.id}`, as(g.church, { body }));
        expect({ body, status: res.status, code: res.body.code, errors: sortedIssuesOf(res.body) }).toEqual({
          body,
          status: 422,
          code: 'validation_failed',
          errors: issues,
        });
      }
      expect((await api.get<RecurringGift>(`/v1/recurring-gifts/${gift.id}`, as(g.church))).body).toEqual(gift);
      expect(await eventTypes(api, g.church, gift.id)).toEqual(['recurring.created']);
    });

    it('races three cancels: one 200, two 409, one recurring.canceled', async () => {
      for (let round = 0; round < 5; round++) {
        const gift = await newGift();
        const answers = await Promise.all(
          [0, 1, 2].map(() =>
            api.patch<RecurringGift | Problem>(
              `/v1/recurring-gifts/${gift.id}`,
              as(g.church, { body: { status: 'canceled' } }),
            ),
          ),
        );
        expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
        const winner = answers.find((a) => a.status === 200)!.body as RecurringGift;
        expect(await eventObjects(api, g.church, 'recurring.canceled', gift.id)).toEqual([winner]);
      }
    });

    it('races a resume and a cancel of a paused gift: it ends canceled, never resumed after the cancel', async () => {
      for (let round = 0; round < 5; round++) {
        const gift = await newGift();
        await api.patch(`/v1/recurring-gifts/${gift.id}`, as(g.church, { body: { status: 'paused' } }));
        const [resume, cancel] = await Promise.all(
          ['active', 'canceled'].map((status) =>
            api.patch<RecurringGift | Problem>(`/v1/recurring-gifts/${gift.id}`, as(g.church, { body: { status } })),
          ),
        );
        expect(cancel.status).toBe(200);
        expect([200, 409]).toContain(resume.status);
        const final = (await api.get<RecurringGift>(`/v1/recurring-gifts/${gift.id}`, as(g.church))).body;
        expect(final).toMatchObject({ status: 'canceled', next_charge_on: null });
        // The resume either ran first (and was recorded) or came after the cancel and changed nothing.
        const types = await eventTypes(api, g.church, gift.id);
        expect(types).toEqual(
          resume.status === 200
            ? ['recurring.created', 'recurring.updated', 'recurring.updated', 'recurring.canceled']
            : ['recurring.created', 'recurring.updated', 'recurring.canceled'],
        );
        expect((await eventObjects(api, g.church, 'recurring.canceled', gift.id))[0]).toEqual(final);
      }
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('GET /v1/recurring-gifts (filters and sorts)', () => {
    let g: Awaited<ReturnType<typeof newGivingChurch>>;
    const r: Record<string, RecurringGift> = {};

    beforeAll(async () => {
      g = await newGivingChurch(api);
      r.a = await newRecurringGift(api, g.church, {
        donor_id: g.ana,
        amount: 1000,
        currency: 'USD',
        fund_id: g.general.id,
        interval: 'month',
        start_on: '2025-03-01',
      });
      r.b = await newRecurringGift(api, g.church, {
        donor_id: g.beto,
        amount: 2000,
        currency: 'MXN',
        fund_id: g.missions.id,
        interval: 'week',
        start_on: '2025-01-05',
      });
      r.c = await newRecurringGift(api, g.church, {
        donor_id: g.ana,
        amount: 3000,
        currency: 'USD',
        fund_id: g.missions.id,
        interval: 'year',
        start_on: '2025-06-10',
      });
      r.d = await newRecurringGift(api, g.church, {
        donor_id: g.beto,
        amount: 4000,
        currency: 'USD',
        fund_id: g.general.id,
        interval: 'month',
        start_on: '2025-02-01',
      });
      await backdate(api, g.church, r.a.id, '2026-01-01T10:00:00Z');
      await backdate(api, g.church, r.b.id, '2026-01-02T10:00:00Z');
      await backdate(api, g.church, r.c.id, '2026-01-03T10:00:00Z');
      await backdate(api, g.church, r.d.id, '2026-01-04T10:00:00Z');
      r.b = (
        await api.patch<RecurringGift>(`/v1/recurring-gifts/${r.b.id}`, as(g.church, { body: { status: 'paused' } }))
      ).body;
      r.c = (
        await api.patch<RecurringGift>(`/v1/recurring-gifts/${r.c.id}`, as(g.church, { body: { status: 'canceled' } }))
      ).body;
      r.a = (await api.get<RecurringGift>(`/v1/recurring-gifts/${r.a.id}`, as(g.church))).body;
      r.d = (await api.get<RecurringGift>(`/v1/recurring-gifts/${r.d.id}`, as(g.church))).body;
    });

    const list = (params: Record<string, string>) => listGifts(api, g.church, params);

    it('lists oldest first by default, with the total, each as GET returns it', async () => {
      const all = await list({});
      expect(idsOf(all)).toEqual([r.a.id, r.b.id, r.c.id, r.d.id]);
      expect(all.total).toBe(4);
      expect(all.data).toEqual([r.a, r.b, r.c, r.d]);
    });

    it('filters by donor_id, fund_id, status, interval, currency, start_on, created_at and updated_at', async () => {
      expect(idsOf(await list({ donor_id: g.ana }))).toEqual([r.a.id, r.c.id]);
      expect(idsOf(await list({ 'donor_id[in]': `${g.beto},mem_nope` }))).toEqual([r.b.id, r.d.id]);
      expect(idsOf(await list({ fund_id: g.missions.id }))).toEqual([r.b.id, r.c.id]);
      expect((await list({ fund_id: 'fnd_nope' })).total).toBe(0);
      expect(idsOf(await list({ status: 'active' }))).toEqual([r.a.id, r.d.id]);
      expect(idsOf(await list({ 'status[in]': 'paused,canceled' }))).toEqual([r.b.id, r.c.id]);
      expect(idsOf(await list({ 'status[ne]': 'canceled' }))).toEqual([r.a.id, r.b.id, r.d.id]);
      expect(idsOf(await list({ interval: 'month' }))).toEqual([r.a.id, r.d.id]);
      expect(idsOf(await list({ currency: 'MXN' }))).toEqual([r.b.id]);
      expect(idsOf(await list({ 'start_on[gte]': '2025-02-01', 'start_on[lt]': '2025-06-10' }))).toEqual([
        r.a.id,
        r.d.id,
      ]);
      expect(idsOf(await list({ 'created_at[gte]': '2026-01-02T10:00:00Z', 'created_at[lt]': '2026-01-04' }))).toEqual([
        r.b.id,
        r.c.id,
      ]);
      // The pause and the cancel moved b's and c's updated_at; a and d keep their backdated one.
      expect(idsOf(await list({ 'updated_at[gt]': '2026-01-05T00:00:00Z' }))).toEqual([r.b.id, r.c.id]);
    });

    it('sorts by start_on and -created_at; pages with the cursor', async () => {
      expect(idsOf(await list({ sort: 'start_on' }))).toEqual([r.b.id, r.d.id, r.a.id, r.c.id]);
      expect(idsOf(await list({ sort: '-start_on' }))).toEqual([r.c.id, r.a.id, r.d.id, r.b.id]);
      expect(idsOf(await list({ sort: '-created_at' }))).toEqual([r.d.id, r.c.id, r.b.id, r.a.id]);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: List<RecurringGift> = await list({ sort: 'start_on', limit: '1', ...(cursor ? { cursor } : {}) });
        seen.push(...idsOf(page));
        cursor = page.next_cursor;
      } while (cursor);
      expect(seen).toEqual([r.b.id, r.d.id, r.a.id, r.c.id]);
    });

    itRefusesBadListParams(
      () => api,
      '/v1/recurring-gifts',
      () => as(g.church),
      [
        [{ amount: '1000' }, 'amount'],
        [{ sort: 'amount' }, 'sort'],
        [{ 'status[gt]': 'active' }, 'status[gt]'],
        [{ status: 'ended' }, 'status'],
        [{ 'start_on[lte]': '2025-02-30' }, 'start_on[lte]'],
      ],
    );
  });

  // -------------------------------------------------------------------------------------------
  describe('the payment processor side', () => {
    it('chargeFailed raises recurring.charge_failed: the gift as GET returns it plus the failure; null for an unknown gift or another church', async () => {
      const g = await newGivingChurch(api);
      const other = await newGivingChurch(api);
      const gift = await newRecurringGift(api, g.church, {
        donor_id: g.ana,
        amount: 5000,
        currency: 'USD',
        fund_id: g.general.id,
        interval: 'month',
        start_on: '2099-01-01',
      });
      const service = api.app.get(RecurringGiftsService);

      const before = Date.now();
      const event = await inTenant(api, g.church.id, () =>
        service.chargeFailed(gift.id, { reason: 'card_declined', invoiceId: 'in_123' }),
      );
      expect(event).toEqual({
        ...gift,
        failure: { reason: 'card_declined', invoice_id: 'in_123', at: expect.stringMatching(UTC_ISO) },
      });
      expect(Date.parse(event!.failure.at)).toBeGreaterThanOrEqual(before - 1000);
      expect(await eventObjects(api, g.church, 'recurring.charge_failed', gift.id)).toEqual([event]);
      // The uuid works as well as the rcg_ id; the gift does not change.
      const byUuid = await inTenant(api, g.church.id, () =>
        service.chargeFailed(parsePublicId('rcg', gift.id)!, { reason: 'expired_card', invoiceId: null }),
      );
      expect(byUuid!.failure).toMatchObject({ reason: 'expired_card', invoice_id: null });
      expect((await api.get<RecurringGift>(`/v1/recurring-gifts/${gift.id}`, as(g.church))).body).toEqual(gift);

      for (const id of [`rcg_${'0'.repeat(32)}`, 'rcg_nope', 'nope', gift.id.toUpperCase()]) {
        expect(
          await inTenant(api, g.church.id, () => service.chargeFailed(id, { reason: 'x', invoiceId: null })),
        ).toBeNull();
      }
      expect(
        await inTenant(api, other.church.id, () => service.chargeFailed(gift.id, { reason: 'x', invoiceId: null })),
      ).toBeNull();
      expect(await eventObjects(api, other.church, 'recurring.charge_failed', gift.id)).toEqual([]);
      expect(await eventObjects(api, g.church, 'recurring.charge_failed', gift.id)).toHaveLength(2);
    });

    it("a processor charge of the gift makes its donation with recurring_gift_id; donations' recurring_gift_id must name a gift of the church", async () => {
      const g = await newGivingChurch(api);
      const gift = await newRecurringGift(api, g.church, {
        donor_id: g.ana,
        amount: 5000,
        currency: 'USD',
        fund_id: g.general.id,
        interval: 'month',
        start_on: '2026-01-01',
      });
      const donation = await inTenant(api, g.church.id, () =>
        api.app.get(DonationsService).recordProcessorPayment({
          processorId: `pi_${randomUUID()}`,
          amount: 5000,
          currency: 'usd',
          fundId: g.general.id,
          donorId: g.ana,
          recurringGiftId: gift.id,
          method: 'card',
        }),
      );
      expect(donation).toMatchObject({
        amount: 5000,
        currency: 'USD',
        recurring_gift_id: gift.id,
        status: 'succeeded',
      });

      // The foreign key: no donation points at a gift the church does not have.
      const other = await newGivingChurch(api);
      const theirs = await newRecurringGift(api, other.church, {
        donor_id: other.ana,
        amount: 5000,
        currency: 'USD',
        fund_id: other.general.id,
        interval: 'month',
        start_on: '2026-01-01',
      });
      for (const gid of [parsePublicId('rcg', theirs.id)!, randomUUID()]) {
        await expect(
          inTenant(api, g.church.id, () =>
            TenantContext.current().manager.query(
              `INSERT INTO donations (tenant_id, id, amount, currency, fund_id, method, received_at, status, recurring_gift_id) VALUES ($1, $2, 100, 'USD', $3, 'card', now(), 'succeeded', $4)`,
              [g.church.id, randomUUID(), parsePublicId('fnd', g.general.id), gid],
            ),
          ),
        ).rejects.toMatchObject({
          driverError: expect.objectContaining({ code: '23503', constraint: 'donations_recurring_gift_fkey' }),
        });
      }
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('tenant isolation and scopes', () => {
    it("answers 404 to another church's gift on every {id} route, and does not list it", async () => {
      const a = await newGivingChurch(api);
      const b = await newGivingChurch(api);
      const theirs = await newRecurringGift(api, a.church, {
        donor_id: a.ana,
        amount: 5000,
        currency: 'USD',
        fund_id: a.general.id,
        interval: 'month',
        start_on: '2099-01-01',
      });
      for (const [method, body] of [
        ['get', undefined],
        ['patch', { status: 'canceled' }],
      ] as const) {
        const res = await api[method]<Problem>(`/v1/recurring-gifts/${theirs.id}`, as(b.church, { body }));
        expect({ method, status: res.status, code: res.body.code }).toEqual({
          method,
          status: 404,
          code: 'resource_not_found',
        });
      }
      expect((await listGifts(api, b.church)).total).toBe(0);
      expect((await listGifts(api, b.church, { donor_id: a.ana })).total).toBe(0);
      expect((await api.get<RecurringGift>(`/v1/recurring-gifts/${theirs.id}`, as(a.church))).body).toEqual(theirs);
    });

    it('read:donations reads but does not write; write:donations writes but does not read; members scopes reach nothing', async () => {
      const g = await newGivingChurch(api);
      const gift = await newRecurringGift(api, g.church, {
        donor_id: g.ana,
        amount: 5000,
        currency: 'USD',
        fund_id: g.general.id,
        interval: 'month',
        start_on: '2099-01-01',
      });
      const reader = await newToken(api, g.church, ['read:donations']);
      const writer = await newToken(api, g.church, ['write:donations']);
      const members = await newToken(api, g.church, ['read:members', 'write:members']);
      const call = (token: string, body?: JsonObject): Call => ({ token, tenant: g.church.slug, body });
      const body = {
        donor_id: g.ana,
        amount: 100,
        currency: 'USD',
        fund_id: g.general.id,
        interval: 'week',
        start_on: '2099-01-01',
      };

      expect((await api.get('/v1/recurring-gifts', call(reader.token))).status).toBe(200);
      expect((await api.get(`/v1/recurring-gifts/${gift.id}`, call(reader.token))).status).toBe(200);
      for (const [method, path, payload] of [
        ['post', '/v1/recurring-gifts', body],
        ['patch', `/v1/recurring-gifts/${gift.id}`, { status: 'paused' }],
      ] as const) {
        const res = await api[method]<Problem>(path, call(reader.token, payload));
        expect({ method, status: res.status, code: res.body.code, scope: res.headers['www-authenticate'] }).toEqual({
          method,
          status: 403,
          code: 'scope_insufficient',
          scope: expect.stringContaining('scope="write:donations"'),
        });
      }
      expect((await api.post('/v1/recurring-gifts', call(writer.token, body))).status).toBe(201);
      expect((await api.patch(`/v1/recurring-gifts/${gift.id}`, call(writer.token, { amount: 6000 }))).status).toBe(
        200,
      );
      const read = await api.get<Problem>(`/v1/recurring-gifts/${gift.id}`, call(writer.token));
      expect([read.status, read.body.code]).toEqual([403, 'scope_insufficient']);
      expect(read.headers['www-authenticate']).toContain('scope="read:donations"');
      for (const res of [
        await api.get<Problem>('/v1/recurring-gifts', call(members.token)),
        await api.post<Problem>('/v1/recurring-gifts', call(members.token, body)),
      ]) {
        expect([res.status, res.body.code]).toEqual([403, 'scope_insufficient']);
      }
    });
  });
});
