import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import { CHANGE_TABLES } from '../../src/database/migrations/1765130000000-CreateChangeLog';
import type {
  ChangeResponse as Change,
  ChangesHeadResponse as Head,
  ChangesPageResponse as Page,
} from '../../src/modules/changes/dto/change.response';
import type { CalendarEventResponse as CalendarEvent } from '../../src/modules/events/dto/event.response';
import type { RegistrationResponse as Registration } from '../../src/modules/events/dto/registration.response';
import type { FundResponse as Fund } from '../../src/modules/funds/dto/fund.response';
import type { HistoryPageResponse as History } from '../../src/modules/changes/dto/history-entry.response';
import type { MemberResponse as Member } from '../../src/modules/members/dto/member.response';
import type { PrayerRequestResponse as PrayerRequest } from '../../src/modules/prayer-requests/dto/prayer-request.response';
import { ChangeSources } from '../../src/platform/changes/change-sources';
import { JsonObject, TestApi } from '../support/api';
import {
  cancelPendingDeliveries,
  created,
  hoursFromNow,
  newBatch,
  newCampus,
  newCustomField,
  newDevice,
  newDonation,
  newEvent,
  newFund,
  newGroup,
  newHousehold,
  newMember,
  newPledge,
  newPrayerRequest,
  newProspect,
  newRecurringGift,
  newRegistration,
  newTag,
  newTenant,
  newToken,
  newWebhookEndpoint,
  TestTenant,
  uniqueName,
} from '../support/factories';
import { as, Caller, expectProblem, qs } from '../support/http';
import { waitFor } from '../support/wait';

/**
 * The change sources of every type but members (CONTRACT §15): each type's upserts render the
 * record exactly as its GET returns it, a delete is a tombstone, an update names the old values,
 * the token's read scopes decide the types, and a page of the feed costs the same number of
 * statements whatever its size.
 */

// ---------------------------------------------------------------------------------------------
// The feed, as a client follows it
// ---------------------------------------------------------------------------------------------

async function head(api: TestApi, who: Caller): Promise<string> {
  const res = await api.get<Head>('/v1/changes/head', as(who));
  expect(res.status).toBe(200);
  return res.body.cursor;
}

/** Every change of `types` after `since`, following next_cursor until has_more is false. */
async function changesSince(api: TestApi, who: Caller, since: string, types: string): Promise<Change[]> {
  const changes: Change[] = [];
  for (let cursor = since; ;) {
    const res = await api.get<Page>(`/v1/changes${qs({ since: cursor, types, limit: '1000' })}`, as(who));
    if (res.status !== 200) throw new Error(`GET /v1/changes: ${res.status} ${JSON.stringify(res.body)}`);
    changes.push(...res.body.data);
    cursor = res.body.next_cursor;
    if (!res.body.has_more) return changes;
  }
}

/**
 * The change of `id` after `since` that `which` picks (an upsert with previous_attributes is an
 * update), once the feed shows it: the watermark may hold it back a moment, and may let through a
 * change committed just before `since` (a cursor is at-least-once), which `which` leaves out.
 */
function changeOf(
  api: TestApi,
  who: Caller,
  since: string,
  type: string,
  id: string,
  which: 'create' | 'update' | 'delete',
): Promise<Change> {
  const picked = (c: Change) =>
    which === 'delete' ? c.op === 'delete' : c.op === 'upsert' && 'previous_attributes' in c === (which === 'update');
  return waitFor(async () => (await changesSince(api, who, since, type)).find((c) => c.object_id === id && picked(c)), {
    timeout: 60_000,
    what: `the ${which} of ${type} ${id} in the feed`,
  });
}

/** The body of a 200 answer. */
async function read<T = Record<string, unknown>>(api: TestApi, who: Caller, path: string): Promise<T> {
  const res = await api.get<T>(path, as(who));
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const pick = (record: Record<string, unknown>, fields: string[]) =>
  Object.fromEntries(fields.map((field) => [field, record[field]]));

// ---------------------------------------------------------------------------------------------
// One case per type: how the API makes, reads, changes and deletes its records
// ---------------------------------------------------------------------------------------------

/** What one church holds for the cases: a member, a fund and an event to refer to. */
interface World {
  church: TestTenant;
  member: Member;
  fund: Fund;
  event: CalendarEvent;
}

interface Case {
  type: string;
  /** The collection whose `GET {collection}/{id}` reads a record (registrations: see `get`). */
  collection: string;
  create(w: World): Promise<{ id: string }>;
  /** The record as its GET returns it (registrations: as their event's list shows them). */
  get?(w: World, id: string): Promise<Record<string, unknown>>;
  /** An update: the body (PATCH unless `path` and `method` say otherwise) and the fields it changes. */
  update?: { body: JsonObject; fields: string[]; method?: 'PATCH' | 'POST'; path?: (id: string) => string };
  /** A delete (DELETE `{collection}/{id}` unless `path` says otherwise). */
  remove?: { path?: (w: World, id: string) => string };
  /** It has `GET {collection}/{id}/history` (CONTRACT §16). */
  history?: true;
}

const CASES: Case[] = [
  {
    type: 'household',
    collection: '/v1/households',
    create: (w) => newHousehold(api, w.church, { primary_contact_id: w.member.id }),
    update: { body: { name: 'The Ruiz family' }, fields: ['name'] },
    remove: {},
    history: true,
  },
  {
    type: 'prospect',
    collection: '/v1/prospects',
    create: (w) => newProspect(api, w.church, { campus: campusKey }),
    update: { body: { first_name: 'Pablo' }, fields: ['first_name'] },
    remove: {},
    history: true,
  },
  {
    type: 'tag',
    collection: '/v1/tags',
    create: (w) => newTag(api, w.church, { color: 'blue' }),
    update: { body: { color: 'green' }, fields: ['color'] },
    remove: {},
  },
  {
    type: 'prayer_request',
    collection: '/v1/prayer-requests',
    create: (w) => newPrayerRequest(api, w.church, { request: 'For the trip', member_id: w.member.id }),
    update: { body: { urgent: true }, fields: ['urgent'] },
    remove: {},
  },
  {
    type: 'campus',
    collection: '/v1/campuses',
    create: (w) => newCampus(api, w.church),
    update: { body: { name: 'Downtown' }, fields: ['name'] },
  },
  {
    type: 'fund',
    collection: '/v1/funds',
    create: (w) => newFund(api, w.church),
    update: { body: { ledger_code: '4010' }, fields: ['ledger_code'] },
    remove: {},
  },
  {
    type: 'donation',
    collection: '/v1/donations',
    create: (w) =>
      newDonation(api, w.church, {
        amount: 2500,
        currency: 'USD',
        fund_id: w.fund.id,
        donor_id: w.member.id,
        campus: campusKey,
      }),
    update: { body: { note: 'In memory of Rosa' }, fields: ['note'] },
    history: true,
  },
  {
    type: 'batch',
    collection: '/v1/batches',
    create: (w) => newBatch(api, w.church, { expected_total: 5000 }),
    update: { body: { description: 'Sunday, 10 am' }, fields: ['description'] },
  },
  {
    type: 'recurring_gift',
    collection: '/v1/recurring-gifts',
    create: (w) =>
      newRecurringGift(api, w.church, {
        donor_id: w.member.id,
        fund_id: w.fund.id,
        amount: 5000,
        currency: 'USD',
        interval: 'month',
        start_on: '2026-01-01',
      }),
    update: { body: { amount: 7500 }, fields: ['amount'] },
  },
  {
    type: 'pledge',
    collection: '/v1/pledges',
    create: (w) =>
      newPledge(api, w.church, {
        donor_id: w.member.id,
        fund_id: w.fund.id,
        amount: 100000,
        currency: 'USD',
        starts_on: '2026-01-01',
        ends_on: '2026-12-31',
      }),
    update: { body: { amount: 120000 }, fields: ['amount'] },
    remove: {},
  },
  {
    type: 'event',
    collection: '/v1/events',
    create: (w) => newEvent(api, w.church, { campus: campusKey, capacity: 50 }),
    update: { body: { name: 'Christmas service' }, fields: ['name'] },
    remove: {},
    history: true,
  },
  {
    type: 'registration',
    collection: '/v1/events/{id}/registrations',
    create: (w) =>
      newRegistration(api, w.church, w.event.id, { guest: { first_name: 'Lía', last_name: 'Paz', email: null } }),
    get: async (w, id) => {
      const page = await read<List<Registration>>(api, w.church, `/v1/events/${w.event.id}/registrations?limit=100`);
      const found = page.data.find((r) => r.id === id);
      if (!found) throw new Error(`registration ${id} not in its event's list`);
      return found as unknown as Record<string, unknown>;
    },
    remove: { path: (w, id) => `/v1/events/${w.event.id}/registrations/${id}` },
  },
  {
    type: 'attendance',
    collection: '/v1/attendance',
    create: async (w) =>
      created(api, w.church, '/v1/attendance', {
        event_id: w.event.id,
        member_id: (await newMember(api, w.church, { first_name: 'Asistente' })).id,
      }),
  },
  {
    type: 'group',
    collection: '/v1/groups',
    create: (w) => newGroup(api, w.church, { campus: campusKey, meeting_day: 'wednesday' }),
    update: { body: { name: 'Young adults' }, fields: ['name'] },
    remove: {},
    history: true,
  },
  {
    type: 'device',
    collection: '/v1/devices',
    create: (w) => newDevice(api, w.church, { campus: campusKey }),
    remove: {},
  },
  {
    type: 'webhook_endpoint',
    collection: '/v1/webhook-endpoints',
    // An event type nothing here raises: no delivery is ever attempted to the closed port.
    create: (w) =>
      newWebhookEndpoint(api, w.church, { url: 'http://127.0.0.1:9/hook', events: ['prospect.converted'] }),
    update: { body: { description: 'CRM sync' }, fields: ['description'] },
    remove: {},
  },
  {
    type: 'custom_field',
    collection: '/v1/custom-fields',
    create: (w) =>
      newCustomField(api, w.church, {
        key: uniqueName('shirt', '_'),
        label: 'Shirt size',
        type: 'select',
        options: ['S', 'M'],
      }),
    update: { body: { label: 'T-shirt size' }, fields: ['label'] },
    remove: {},
  },
  {
    type: 'notification',
    collection: '/v1/notifications',
    // Scheduled in a day: it stays queued (nothing sends it meanwhile), and a cancel is its update.
    create: (w) =>
      created(
        api,
        w.church,
        '/v1/notifications',
        {
          title: 'Retreat',
          body: 'See you there.',
          audience: { member_ids: [w.member.id] },
          scheduled_at: hoursFromNow(24),
        },
        {},
        202,
      ),
    update: {
      body: {},
      fields: ['status', 'canceled_at'],
      method: 'POST',
      path: (id) => `/v1/notifications/${id}/cancel`,
    },
  },
];

let api: TestApi;
let campusKey: string;

// The feed waits for the cluster's oldest running transaction (the watermark): up to a minute on a loaded machine.
jest.setTimeout(180_000);

describe('change sources', () => {
  let world: World;

  beforeAll(async () => {
    api = await TestApi.start({ WEBHOOK_ALLOW_LOOPBACK: 'true' });
    const church = await newTenant(api);
    campusKey = (await newCampus(api, church)).key;
    world = {
      church,
      member: await newMember(api, church, { email: 'ana@example.org', campus: campusKey }),
      fund: await newFund(api, church),
      event: await newEvent(api, church),
    };
  });
  afterAll(async () => {
    if (world) await cancelPendingDeliveries(api, [world.church.id]);
    await api.close();
  });

  it('every type of the change log has a source, named as the log names it, and only those', () => {
    const registered = api.app
      .get(ChangeSources)
      .all()
      .map((s) => s.type);
    expect(registered.sort()).toEqual(CHANGE_TABLES.map((t) => t.type).sort());
    expect(CASES.map((k) => k.type).sort()).toEqual(registered.filter((t) => t !== 'member').sort());
  });

  describe.each(CASES.map((k) => [k.type, k] as const))('%s', (type, k) => {
    const get = (id: string) => (k.get ? k.get(world, id) : read(api, world.church, `${k.collection}/${id}`));

    it('an upsert renders the record as its GET returns it; an update names the old values; a delete is a tombstone', async () => {
      const { church } = world;
      const start = await head(api, church);
      const { id } = await k.create(world);

      const create = await changeOf(api, church, start, type, id, 'create');
      expect(create).toEqual({
        id: expect.stringMatching(/^chg_\d+$/),
        object_type: type,
        object_id: id,
        op: 'upsert',
        changed_at: expect.any(String),
        object: await get(id),
        merged_into: null,
      });

      if (k.update) {
        const before = await get(id);
        const since = await head(api, church);
        const path = k.update.path?.(id) ?? `${k.collection}/${id}`;
        const res = await api.send(k.update.method ?? 'PATCH', path, as(church, { body: k.update.body }));
        expect(res.status).toBe(200);
        const update = await changeOf(api, church, since, type, id, 'update');
        const after = await get(id);
        expect(update.object).toEqual(after);
        expect(update.previous_attributes).toEqual(pick(before, k.update.fields));
        for (const field of k.update.fields) expect(after[field]).not.toEqual(before[field]);
      }

      if (k.history) {
        const history = await read<History>(api, church, `${k.collection}/${id}/history`);
        expect(history.data.map((e) => e.op)).toEqual(k.update ? ['update', 'create'] : ['create']);
      }

      if (k.remove) {
        const since = await head(api, church);
        const path = k.remove.path?.(world, id) ?? `${k.collection}/${id}`;
        expect((await api.delete(path, as(church))).status).toBe(204);
        const tombstone = await changeOf(api, church, since, type, id, 'delete');
        expect(tombstone).toEqual({
          id: expect.stringMatching(/^chg_\d+$/),
          object_type: type,
          object_id: id,
          op: 'delete',
          changed_at: expect.any(String),
          object: null,
          merged_into: null,
        });
        // Its earlier upserts render nothing now: the record is gone (its delete follows them).
        const earlier = (await changesSince(api, church, start, type)).filter((c) => c.object_id === id);
        // (A device's create is two writes: the row, then its key.)
        expect(earlier.map((c) => [c.op, c.object, c.previous_attributes])).toEqual([
          ['upsert', null, undefined],
          ...(type === 'device' ? [['upsert', null, undefined]] : []),
          ...(k.update ? [['upsert', null, undefined]] : []),
          ['delete', null, undefined],
        ]);
      }
    });
  });

  describe('scopes', () => {
    const GIVING = ['batch', 'donation', 'fund', 'pledge', 'recurring_gift'];

    it('a read:donations token reads the giving types (and only those when it names none); members are 403 scope_insufficient', async () => {
      const { church } = world;
      const start = await head(api, church);
      const fund = await newFund(api, church);
      await newDonation(api, church, { amount: 1000, currency: 'USD', fund_id: fund.id });
      await newBatch(api, church);
      await newPledge(api, church, {
        donor_id: world.member.id,
        fund_id: fund.id,
        amount: 1000,
        currency: 'USD',
        starts_on: '2026-01-01',
        ends_on: '2026-06-30',
      });
      await newRecurringGift(api, church, {
        donor_id: world.member.id,
        fund_id: fund.id,
        amount: 1000,
        currency: 'USD',
        interval: 'week',
        start_on: '2026-01-01',
      });
      await newHousehold(api, church);
      const { token } = await newToken(api, church, ['read:donations'], 'finance');
      const finance = { token, slug: church.slug };

      const named = await waitFor(
        async () => {
          const changes = await changesSince(api, finance, start, GIVING.join(','));
          return GIVING.every((t) => changes.some((c) => c.object_type === t)) && changes;
        },
        { timeout: 60_000, what: 'a change of each giving type' },
      );
      for (const change of named) expect(change.object).toEqual(await read(api, church, urlOf(change)));
      const res = await api.get<Page>(`/v1/changes${qs({ since: start, limit: '1000' })}`, as(finance));
      expect(res.status).toBe(200);
      expect([...new Set(res.body.data.map((c) => c.object_type))].sort()).toEqual(GIVING);

      for (const types of ['member', 'donation,member', 'household', 'prayer_request', 'device']) {
        const refused = await api.get<Problem>(`/v1/changes${qs({ types })}`, as(finance));
        expectProblem(refused, 403, 'scope_insufficient');
      }
    });

    it('devices and webhook endpoints need admin:*, notifications write:notifications, as their GETs do', async () => {
      const { church } = world;
      const { token } = await newToken(api, church, [
        'read:members',
        'read:donations',
        'read:events',
        'read:groups',
        'read:attendance',
        'read:campuses',
        'read:prayer_requests',
      ]);
      const reader = { token, slug: church.slug };
      for (const types of ['device', 'webhook_endpoint', 'notification']) {
        expectProblem(await api.get(`/v1/changes${qs({ types })}`, as(reader)), 403, 'scope_insufficient');
      }
      const writer = { token: (await newToken(api, church, ['write:notifications'])).token, slug: church.slug };
      expect((await api.get(`/v1/changes${qs({ types: 'notification' })}`, as(writer))).status).toBe(200);
      expectProblem(await api.get(`/v1/changes${qs({ types: 'event' })}`, as(writer)), 403, 'scope_insufficient');
    });
  });

  describe('private prayer requests', () => {
    it('one staff member’s private request is rendered for them and org admins, never for another staff member', async () => {
      const { church } = world;
      const scopes = ['read:prayer_requests', 'write:prayer_requests'] as const;
      const author = { token: (await newToken(api, church, [...scopes], 'staff')).token, slug: church.slug };
      const other = { token: (await newToken(api, church, [...scopes], 'staff')).token, slug: church.slug };
      const start = await head(api, church);
      const request = await newPrayerRequest(
        api,
        church,
        { request: 'A private matter', name: 'Rosa', visibility: 'private' },
        { token: author.token },
      );
      const shared = await newPrayerRequest(
        api,
        church,
        { request: 'For the harvest', name: 'Rosa' },
        { token: other.token },
      );
      expect(
        (await api.patch(`/v1/prayer-requests/${request.id}`, as(author, { body: { urgent: true } }))).status,
      ).toBe(200);
      const both = (who: Caller) =>
        waitFor(
          async () => {
            const changes = await changesSince(api, who, start, 'prayer_request');
            return changes.filter((c) => c.object_id === request.id).length === 2 &&
              changes.some((c) => c.object_id === shared.id)
              ? changes
              : null;
          },
          { timeout: 60_000, what: 'the two changes of the private request and the shared one' },
        );

      const seen = await read<PrayerRequest>(api, author, `/v1/prayer-requests/${request.id}`);
      for (const who of [author, church]) {
        const mine = (await both(who)).filter((c) => c.object_id === request.id);
        expect(mine.map((c) => c.object)).toEqual([seen, seen]);
        expect(mine[1].previous_attributes).toEqual({ urgent: false });
      }

      expect((await api.get(`/v1/prayer-requests/${request.id}`, as(other))).status).toBe(404);
      const theirs = await both(other);
      const hidden = theirs.filter((c) => c.object_id === request.id);
      expect(hidden.map((c) => [c.op, c.object, 'previous_attributes' in c])).toEqual([
        ['upsert', null, false],
        ['upsert', null, false],
      ]);
      expect(theirs.find((c) => c.object_id === shared.id)?.object).toEqual(
        await read(api, other, `/v1/prayer-requests/${shared.id}`),
      );
    });
  });

  describe('the cost of a page', () => {
    it('one feed page takes as many statements for 12 records of each type as for 2', async () => {
      const church = await newTenant(api);
      const campus = await newCampus(api, church);
      const fund = await newFund(api, church);
      const staff = {
        token: (await newToken(api, church, ['write:prayer_requests'], 'staff')).token,
        slug: church.slug,
      };
      const start = await head(api, church);
      // Rounds of the same shape: any page that holds a round holds every type, with the same references.
      for (let round = 0; round < 12; round++) {
        const member = await newMember(api, church, { first_name: `M${round}`, campus: campus.key });
        const household = await newHousehold(api, church, { primary_contact_id: member.id });
        await api.post(`/v1/households/${household.id}/members`, as(church, { body: { member_id: member.id } }));
        await newProspect(api, church, { campus: campus.key });
        await newDonation(api, church, {
          amount: 100 + round,
          currency: 'USD',
          fund_id: fund.id,
          donor_id: member.id,
          campus: campus.key,
        });
        await newPledge(api, church, {
          donor_id: member.id,
          fund_id: fund.id,
          amount: 1000,
          currency: 'USD',
          starts_on: '2026-01-01',
          ends_on: '2026-12-31',
        });
        await newBatch(api, church);
        const event = await newEvent(api, church, { campus: campus.key });
        await newRegistration(api, church, event.id, { member_id: member.id });
        await created(api, church, '/v1/attendance', { event_id: event.id, member_id: member.id });
        const group = await newGroup(api, church, { campus: campus.key });
        await api.put(`/v1/groups/${group.id}/members/${member.id}`, as(church, { body: {} }));
        await newPrayerRequest(
          api,
          church,
          { request: 'Private', member_id: member.id, campus: campus.key, visibility: 'private' },
          { token: staff.token },
        );
        await newDevice(api, church, { campus: campus.key });
      }
      const types =
        'member,household,prospect,donation,pledge,batch,event,registration,attendance,group,prayer_request,device';
      const all = await waitFor(
        async () => {
          const changes = await changesSince(api, church, start, types);
          const devices = new Set(changes.filter((c) => c.object_type === 'device').map((c) => c.object_id));
          return devices.size === 12 && changes;
        },
        { timeout: 60_000, what: 'every change of the twelve rounds' },
      );
      const perRound = all.length / 12;
      expect(Number.isInteger(perRound)).toBe(true);

      const statementsOf = async (limit: number) => {
        const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
        try {
          const res = await api.get<Page>(
            `/v1/changes${qs({ since: start, types, limit: String(limit) })}`,
            as(church),
          );
          expect(res.status).toBe(200);
          expect(res.body.data).toHaveLength(limit);
          expect(new Set(res.body.data.map((c) => c.object_type)).size).toBe(types.split(',').length);
          // The church's own statements (the background pollers of the process name no church).
          const ours = spy.mock.calls.filter(([, params]) => Array.isArray(params) && params.includes(church.id));
          return ours.map(([sql]) => sql);
        } finally {
          spy.mockRestore();
        }
      };
      const small = await statementsOf(2 * perRound);
      const large = await statementsOf(12 * perRound);
      expect(large).toHaveLength(small.length);
      // The feed, and at most a handful of statements per type.
      expect(small.length).toBeLessThanOrEqual(1 + 4 * types.split(',').length);
    });
  });
});

/** The GET path of a giving change's record. */
function urlOf(change: Change): string {
  const collection: Record<string, string> = {
    batch: 'batches',
    donation: 'donations',
    fund: 'funds',
    pledge: 'pledges',
    recurring_gift: 'recurring-gifts',
  };
  return `/v1/${collection[change.object_type]}/${change.object_id}`;
}
