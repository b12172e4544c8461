import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import { ChangeRetentionJob } from '../../src/platform/changes/change-retention.job';
import { MembersService } from '../../src/modules/members/members.service';
import { ChangesService } from '../../src/modules/changes/changes.service';
import type { ChangeResponse, ChangesPageResponse } from '../../src/modules/changes/dto/change.response';
import type { HistoryPageResponse } from '../../src/modules/changes/dto/history-entry.response';
import type { MemberResponse as Member } from '../../src/modules/members/dto/member.response';
import { TestApi } from '../support/api';
import {
  addToHousehold,
  cancelPendingDeliveries,
  inTenant,
  newBatch,
  newDonation,
  newEvent,
  newFund,
  newHousehold,
  newMember,
  newPledge,
  newRegistration,
  newTag,
  newUpcomingEvent,
  newTenant,
  newToken,
  newWebhookEndpoint,
  TestTenant,
} from '../support/factories';
import { as, expectProblem, qs } from '../support/http';
import { waitFor } from '../support/wait';

const uuidOf = (publicId: string) =>
  publicId.slice(publicId.indexOf('_') + 1).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

/** A cursor's commit position (cursors are opaque to clients; the test knows their make). */
const positionOf = (cursor: string) => BigInt(Buffer.from(cursor, 'base64url').toString().split('.')[1]);

describe('changes feed (CONTRACT §15–§16)', () => {
  let api: TestApi;
  let pg: Client;
  let church: TestTenant;

  beforeAll(async () => {
    api = await TestApi.start({ WEBHOOK_ALLOW_LOOPBACK: 'true' });
    pg = new Client({ connectionString: process.env.DATABASE_URL });
    await pg.connect();
    church = await newTenant(api);
  });
  afterAll(async () => {
    await cancelPendingDeliveries(api, [church.id]).catch(() => undefined);
    await pg?.end();
    await api?.close();
  });

  const page = async (c: TestTenant, since?: string, extra: Record<string, string> = {}) => {
    const res = await api.get<ChangesPageResponse>(
      `/v1/changes${qs({ ...(since ? { since } : {}), ...extra })}`,
      as(c),
    );
    expect(res.status).toBe(200);
    return res.body;
  };

  /** Follows next_cursor until has_more is false: the changes read and the cursor to poll with. */
  async function follow(c: TestTenant, since?: string, extra: Record<string, string> = {}) {
    const changes: ChangeResponse[] = [];
    let cursor = since;
    for (;;) {
      const body = await page(c, cursor, extra);
      changes.push(...body.data);
      cursor = body.next_cursor;
      if (!body.has_more) return { changes, cursor };
    }
  }

  /** Follows (polling) until `done` holds for everything read since `since`. */
  async function followUntil(
    c: TestTenant,
    since: string | undefined,
    done: (changes: ChangeResponse[]) => boolean,
    extra: Record<string, string> = {},
  ) {
    const all: ChangeResponse[] = [];
    let cursor = since;
    await waitFor(
      async () => {
        const step = await follow(c, cursor, extra);
        all.push(...step.changes);
        cursor = step.cursor;
        return done(all);
      },
      { what: 'the changes to be delivered', timeout: 60_000 },
    );
    return { changes: all, cursor: cursor! };
  }

  const head = async (c: TestTenant) => (await api.get<{ cursor: string }>('/v1/changes/head', as(c))).body.cursor;
  const of = (changes: ChangeResponse[], id: string) => changes.filter((c) => c.object_id === id);

  it('a create, an update and a delete: upserts with the record as GET returns it now, previous_attributes, a tombstone', async () => {
    const c = await newTenant(api);
    const start = await head(c);
    const kept = await newMember(api, c, { first_name: 'Ana', last_name: 'Kept', email: 'ana.old@example.org' });
    await api.patch(`/v1/members/${kept.id}`, as(c, { body: { email: 'ana@example.org' } }));
    const gone = await newMember(api, c, { first_name: 'Bo', last_name: 'Gone' });
    expect((await api.delete(`/v1/members/${gone.id}`, as(c))).status).toBe(204);

    const { changes } = await followUntil(c, start, (all) => of(all, gone.id).length === 2);
    const now = (await api.get<Member>(`/v1/members/${kept.id}`, as(c))).body;
    const mine = of(changes, kept.id);
    expect(mine.map((ch) => ch.op)).toEqual(['upsert', 'upsert']);
    expect(mine.map((ch) => ch.object)).toEqual([now, now]);
    expect(mine[0]).not.toHaveProperty('previous_attributes');
    expect(mine[1].previous_attributes).toEqual({ email: 'ana.old@example.org' });
    expect(mine.every((ch) => ch.object_type === 'member' && ch.merged_into === null)).toBe(true);
    const [created, deleted] = of(changes, gone.id);
    expect(created).toMatchObject({ op: 'upsert', object: null });
    expect(deleted).toMatchObject({ op: 'delete', object: null, merged_into: null });
    expect(changes.map((ch) => ch.id)).toEqual([...new Set(changes.map((ch) => ch.id))]);
  });

  it('head is now: a change made after it is followed from it; no since starts at the oldest change kept', async () => {
    const c = await newTenant(api);
    const before = await newMember(api, c, { last_name: 'Before' });
    const cursor = await head(c);
    const after = await newMember(api, c, { last_name: 'After' });
    // At least once: a change committed just before head may follow it too (while an older
    // transaction runs anywhere on the server), never one committed after it is missed.
    await followUntil(c, cursor, (all) => of(all, after.id).length === 1);
    const fromStart = await followUntil(c, undefined, (all) => of(all, after.id).length === 1);
    expect(fromStart.changes.map((ch) => ch.object_id)).toEqual([before.id, after.id]);
  });

  it('a tag put on a member is an upsert of the member (the record whose GET shows it)', async () => {
    const c = await newTenant(api);
    const member = await newMember(api, c);
    const tag = await newTag(api, c, { name: 'choir' });
    const cursor = await head(c);
    expect((await api.put(`/v1/members/${member.id}/tags/${tag.id}`, as(c))).status).toBeLessThan(300);
    const { changes } = await followUntil(c, cursor, (all) => of(all, member.id).length >= 1, { types: 'member' });
    const [change] = of(changes, member.id);
    expect(change.op).toBe('upsert');
    expect((change.object as unknown as Member).tags.map((t) => t.id)).toEqual([tag.id]);
  });

  it('values a GET derives from other records: a renamed member upserts her household, an attendance its event, a gift its batch', async () => {
    const c = await newTenant(api);
    const member = await newMember(api, c, { first_name: 'Rosa' });
    const household = await newHousehold(api, c, { name: 'Familia Díaz' });
    await addToHousehold(api, c, household.id, { member_id: member.id, household_role: 'head' });
    const event = await newEvent(api, c);
    const fund = await newFund(api, c);
    const batch = await newBatch(api, c, { description: 'Offering', expected_total: 5000, currency: 'MXN' });
    const cursor = await head(c);
    await api.patch(`/v1/members/${member.id}`, as(c, { body: { first_name: 'Rosalía' } }));
    expect(
      (await api.post('/v1/attendance', as(c, { body: { member_id: member.id, event_id: event.id } }))).status,
    ).toBe(201);
    await newDonation(api, c, { amount: 5000, currency: 'MXN', fund_id: fund.id, method: 'cash', batch_id: batch.id });
    const ids = [household.id, event.id, batch.id];
    const { changes } = await followUntil(c, cursor, (all) => ids.every((id) => of(all, id).length > 0), {
      types: 'household,event,batch',
    });
    const objectOf = (id: string) => of(changes, id).at(-1)!.object as Record<string, unknown>;
    expect(objectOf(household.id)).toEqual((await api.get(`/v1/households/${household.id}`, as(c))).body);
    expect(JSON.stringify(objectOf(household.id))).toContain('Rosalía');
    expect(objectOf(event.id)).toMatchObject({ attendance_count: 1 });
    expect(objectOf(batch.id)).toMatchObject({ count: 1, total: 5000 });
  });

  it('values from other records: a gift upserts the pledges it counts toward, a renamed member her registrations', async () => {
    const c = await newTenant(api);
    const member = await newMember(api, c, { first_name: 'Rosa', last_name: 'Díaz' });
    const [fund, otherFund] = [await newFund(api, c), await newFund(api, c)];
    const year = new Date().getUTCFullYear();
    const pledge = await newPledge(api, c, {
      donor_id: member.id,
      fund_id: fund.id,
      amount: 10000,
      currency: 'MXN',
      starts_on: `${year}-01-01`,
      ends_on: `${year}-12-31`,
    });
    const event = await newUpcomingEvent(api, c, { registration_open: true });
    const registration = await newRegistration(api, c, event.id, { member_id: member.id });
    const cursor = await head(c);
    const gift = { currency: 'MXN', method: 'cash', donor_id: member.id };
    await newDonation(api, c, { ...gift, amount: 1500, fund_id: otherFund.id });
    await api.patch(`/v1/members/${member.id}`, as(c, { body: { email: 'rosa@example.org' } }));
    const { changes: before } = await follow(c, cursor, { types: 'pledge,registration' });
    expect(before).toEqual([]); // a gift to another fund and an e-mail change touch neither
    await newDonation(api, c, { ...gift, amount: 3000, fund_id: fund.id });
    await api.patch(`/v1/members/${member.id}`, as(c, { body: { last_name: 'Díaz López' } }));
    const { changes } = await followUntil(
      c,
      cursor,
      (all) => of(all, pledge.id).length > 0 && of(all, registration.id).length > 0,
      { types: 'pledge,registration' },
    );
    expect(changes.map((ch) => [ch.object_id, ch.op])).toEqual([
      [pledge.id, 'upsert'],
      [registration.id, 'upsert'],
    ]);
    expect(of(changes, pledge.id)[0].object).toEqual((await api.get(`/v1/pledges/${pledge.id}`, as(c))).body);
    expect(of(changes, pledge.id)[0].object).toMatchObject({ given: 3000, remaining: 7000 });
    expect(of(changes, registration.id)[0].object).toMatchObject({ member: { last_name: 'Díaz López' } });
  });

  it('devices are a credential resource: an OAuth access token reads no device changes (403 when it names the type)', async () => {
    const c = await newTenant(api);
    const changes = api.app.get(ChangesService);
    const asOAuth = { scopes: ['admin:*'], tokenType: 'oauth' as const };
    const refused = await inTenant(api, c.id, () => changes.feed({ types: 'device' }, asOAuth)).catch(
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ code: 'token_type_not_allowed', status: 403 });
    const all = await inTenant(api, c.id, () =>
      changes.feed({ types: 'member,device' }, { ...asOAuth, tokenType: 'pat' }),
    );
    expect(all.has_more).toBe(false);
  });

  it('`types` narrows the feed; a type the token cannot read is 403 scope_insufficient; bad parameters are 400', async () => {
    const c = await newTenant(api);
    await newMember(api, c);
    const onlyMembers = await follow(c, undefined, { types: 'member' });
    expect(onlyMembers.changes.length).toBeGreaterThan(0);
    expect(new Set(onlyMembers.changes.map((ch) => ch.object_type))).toEqual(new Set(['member']));

    const reader = await newToken(api, c, ['read:donations'], 'finance');
    expectProblem(
      await api.get(`/v1/changes${qs({ types: 'member' })}`, as(reader.token, c)),
      403,
      'scope_insufficient',
    );
    const own = await api.get<ChangesPageResponse>('/v1/changes', as(reader.token, c));
    expect(own.status).toBe(200);
    expect(own.body.data.filter((ch) => ch.object_type === 'member')).toEqual([]);

    for (const params of <Record<string, string>[]>[
      { types: 'member,nonsense' },
      { since: 'not-a-cursor' },
      { since: Buffer.from('1.12.x').toString('base64url') },
      { limit: '0' },
      { limit: '1001' },
      { sort: 'id' },
    ])
      expectProblem(await api.get(`/v1/changes${qs(params)}`, as(c)), 400, 'invalid_parameter');
  });

  it('pages of `limit` follow each other without a gap or a repeat', async () => {
    const c = await newTenant(api);
    const rows = Array.from({ length: 7 }, (_, i) => ({ first_name: 'P', last_name: `Page${i}` }));
    await api.post('/v1/members/bulk', as(c, { body: { members: rows } }));
    const all = await followUntil(c, undefined, (changes) => changes.length >= 7);
    const paged: ChangeResponse[] = [];
    let cursor: string | undefined;
    for (;;) {
      const body = await page(c, cursor, { limit: '3' });
      paged.push(...body.data);
      cursor = body.next_cursor;
      if (!body.has_more) break;
      expect(body.data).toHaveLength(3);
    }
    expect(paged.map((ch) => ch.id)).toEqual(all.changes.map((ch) => ch.id));
  });

  it('retention: changes older than CHANGES_RETENTION_DAYS are deleted in batches; a cursor before them is 410 sync_cursor_expired', async () => {
    const c = await newTenant(api);
    const old = await newMember(api, c, { last_name: 'Old' });
    await followUntil(c, undefined, (all) => of(all, old.id).length === 1);
    const cursorBefore = await head(c);
    const kept = await newMember(api, c, { last_name: 'Kept' });
    await followUntil(c, cursorBefore, (all) => of(all, kept.id).length === 1);
    await pg.query(
      `UPDATE changes SET changed_at = now() - interval '31 days' WHERE tenant_id = $1 AND object_id = $2`,
      [c.id, uuidOf(old.id)],
    );
    const firstCursor = Buffer.from(`1.0.0`).toString('base64url');
    expect((await api.app.get(ChangeRetentionJob).run()).deleted).toBeGreaterThanOrEqual(1);
    const expired = expectProblem(
      await api.get(`/v1/changes${qs({ since: firstCursor })}`, as(c)),
      410,
      'sync_cursor_expired',
    );
    expect(expired.detail).toContain('30');
    // Without a cursor the feed starts after what was removed; a later cursor still works.
    const fresh = await follow(c);
    expect(of(fresh.changes, old.id)).toEqual([]);
    expect(of(fresh.changes, kept.id)).toHaveLength(1);
    expect((await api.get(`/v1/changes${qs({ since: cursorBefore })}`, as(c))).status).toBe(200);
  });

  it('history: newest first, each field from and to as GET names it, the actor and request id; paged; a deleted member keeps it', async () => {
    const c = await newTenant(api);
    const created = await api.post<Member>(
      '/v1/members',
      as(c, { body: { first_name: 'Hana', last_name: 'History', email: 'h1@example.org' } }),
    );
    const member = created.body;
    const patched = await api.patch(`/v1/members/${member.id}`, as(c, { body: { email: 'h2@example.org' } }));
    await inTenant(api, c.id, () => api.app.get(MembersService).update(uuidOf(member.id), { first_name: 'Hanna' }));
    expect((await api.delete(`/v1/members/${member.id}`, as(c))).status).toBe(204);

    const res = await api.get<HistoryPageResponse>(`/v1/members/${member.id}/history`, as(c));
    expect(res.status).toBe(200);
    const [deleted, renamed, emailed, first] = res.body.data;
    expect(res.body.total).toBe(4);
    expect(deleted).toMatchObject({ op: 'delete', changes: {}, merged_into: null });
    expect(renamed).toMatchObject({
      op: 'update',
      changes: { first_name: { from: 'Hana', to: 'Hanna' } },
      actor: { type: 'cli', id: null },
    });
    expect(emailed).toMatchObject({
      op: 'update',
      changes: { email: { from: 'h1@example.org', to: 'h2@example.org' } },
      actor: { type: 'token', name: 'test admin' },
      request_id: patched.headers['x-request-id'],
    });
    expect(emailed.actor.id).toMatch(/^tok_[0-9a-f]{32}$/);
    expect(first).toMatchObject({ op: 'create', request_id: created.headers['x-request-id'] });
    expect(first.changes.first_name).toEqual({ from: null, to: 'Hana' });
    expect(first.changes.household_id).toEqual({ from: null, to: null });
    // Only fields GET shows: never the generated search keys, the merge link or the tenant.
    const shown = new Set(Object.keys(member));
    for (const entry of res.body.data) for (const field of Object.keys(entry.changes)) expect(shown).toContain(field);

    const one = await api.get<HistoryPageResponse>(`/v1/members/${member.id}/history${qs({ limit: '1' })}`, as(c));
    const two = await api.get<HistoryPageResponse>(
      `/v1/members/${member.id}/history${qs({ limit: '3', cursor: one.body.next_cursor! })}`,
      as(c),
    );
    expect([...one.body.data, ...two.body.data].map((e) => e.id)).toEqual(res.body.data.map((e) => e.id));
    expect(two.body.next_cursor).toBeNull();

    expectProblem(await api.get(`/v1/members/mem_${'0'.repeat(32)}/history`, as(c)), 404, 'resource_not_found');
    expectProblem(await api.get(`/v1/members/${member.id}/history`, as(church)), 404, 'resource_not_found');
    expectProblem(await api.get(`/v1/members/${member.id}/history${qs({ x: '1' })}`, as(c)), 400, 'invalid_parameter');
    const donationsOnly = await newToken(api, c, ['read:donations'], 'finance');
    expectProblem(
      await api.get(`/v1/members/${member.id}/history`, as(donationsOnly.token, c)),
      403,
      'scope_insufficient',
    );
  });

  it('member.updated carries data.previous_attributes: the old values of the fields the change modified', async () => {
    const c = await newTenant(api);
    const member = await newMember(api, c, { first_name: 'Old', last_name: 'Name', email: 'old@example.org' });
    await api.patch(`/v1/members/${member.id}`, as(c, { body: { email: 'new@example.org', first_name: 'New' } }));
    const { rows } = await pg.query<{ data: { object: Member; previous_attributes: Record<string, unknown> } }>(
      `SELECT payload->'data' AS data FROM webhook_events WHERE tenant_id = $1 AND type = 'member.updated'`,
      [c.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].data.previous_attributes).toEqual({ email: 'old@example.org', first_name: 'Old' });
    expect(rows[0].data.object.email).toBe('new@example.org');
  });

  it('a transaction that wrote before a page was read and commits after it is still delivered (commit-order watermark)', async () => {
    const c = await newTenant(api);
    const late = await newMember(api, c, { last_name: 'Late' });
    // The PATCH writes the member (and its change), then needs the endpoint's row (FOR KEY SHARE) to raise member.updated.
    const endpoint = await newWebhookEndpoint(api, c, { url: 'http://127.0.0.1:9/hook', events: ['member.updated'] });
    const cursor = await head(c);
    const locker = new Client({ connectionString: process.env.DATABASE_URL });
    await locker.connect();
    let pending: ReturnType<TestApi['patch']> | undefined;
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM webhook_endpoints WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [
        c.id,
        uuidOf(endpoint.id),
      ]);
      pending = api.patch(`/v1/members/${late.id}`, as(c, { body: { email: 'late@example.org' } }));
      await waitFor(
        async () =>
          (
            await pg.query(
              `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%webhook_endpoints%FOR KEY SHARE%'`,
            )
          ).rowCount === 1,
        { what: 'the PATCH to wait on the endpoint row after writing' },
      );
      const others = await Promise.all([1, 2, 3].map((i) => newMember(api, c, { last_name: `Other${i}` })));
      // Read the feed past the others' commits while the PATCH is still open.
      const first = await follow(c, cursor);
      expect(of(first.changes, late.id)).toEqual([]);
      await locker.query('COMMIT');
      expect((await pending).status).toBe(200);
      const rest = await followUntil(c, first.cursor, (all) =>
        [late, ...others].every((m) => of([...first.changes, ...all], m.id).length > 0),
      );
      const delivered = [...first.changes, ...rest.changes];
      const [update] = of(delivered, late.id);
      expect(update.previous_attributes).toEqual({ email: null });
      expect((update.object as unknown as Member).email).toBe('late@example.org');
    } finally {
      await locker.query('ROLLBACK').catch(() => undefined);
      await locker.end();
      await pending?.catch(() => undefined);
    }
  });

  it('per record, commit order: a transaction that took its id first but wrote the record after another committed on it comes after that one', async () => {
    const c = await newTenant(api);
    const [first, shared] = await Promise.all([newMember(api, c), newMember(api, c, { email: 'start@example.org' })]);
    const cursor = await head(c);
    const asApp = async () => {
      const client = new Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      await client.query('BEGIN');
      await client.query(`SELECT set_config('role', 'church_app', true), set_config('app.tenant_id', $1, true)`, [
        c.id,
      ]);
      return client;
    };
    const early = await asApp();
    const later = await asApp();
    try {
      // `early` takes its transaction id first (it writes another member), then `later` changes the
      // shared member and commits, then `early` changes it too and commits last.
      await early.query(`UPDATE members SET phone = '1' WHERE tenant_id = $1 AND id = $2`, [c.id, uuidOf(first.id)]);
      await later.query(`UPDATE members SET email = 'later@example.org' WHERE tenant_id = $1 AND id = $2`, [
        c.id,
        uuidOf(shared.id),
      ]);
      await later.query('COMMIT');
      await early.query(`UPDATE members SET email = 'early@example.org' WHERE tenant_id = $1 AND id = $2`, [
        c.id,
        uuidOf(shared.id),
      ]);
      await early.query('COMMIT');
    } finally {
      await early.end();
      await later.end();
    }
    const { changes } = await followUntil(c, cursor, (all) => of(all, shared.id).length === 2);
    expect(of(changes, shared.id).map((ch) => ch.previous_attributes)).toEqual([
      { email: 'start@example.org' },
      { email: 'later@example.org' },
    ]);
  });

  it('soak: concurrent writers and a follower; the replayed feed equals the member list exactly', async () => {
    const c = await newTenant(api);
    const tag = await newTag(api, c, { name: 'soak' });
    const seed = await Promise.all(Array.from({ length: 10 }, (_, i) => newMember(api, c, { last_name: `Seed${i}` })));
    const ids = seed.map((m) => m.id);
    const replica = new Map<string, unknown>();
    const apply = (changes: ChangeResponse[]) => {
      for (const ch of changes) {
        if (ch.op === 'delete') replica.delete(ch.object_id);
        else if (ch.object) replica.set(ch.object_id, ch.object);
      }
    };
    let writing = true;
    let cursor: string | undefined;
    const follower = (async () => {
      while (writing) {
        const step = await follow(c, cursor, { types: 'member' });
        apply(step.changes);
        cursor = step.cursor;
      }
    })();
    const writer = async (w: number) => {
      for (let i = 0; i < 12; i++) {
        const pick = ids[(w * 7 + i * 3) % ids.length];
        switch (i % 4) {
          case 0:
            ids.push((await newMember(api, c, { last_name: `W${w}-${i}` })).id);
            break;
          case 1:
            await api.patch(`/v1/members/${pick}`, as(c, { body: { email: `w${w}i${i}@example.org` } }));
            break;
          case 2:
            await api.put(`/v1/members/${pick}/tags/${tag.id}`, as(c));
            break;
          default:
            await api.delete(`/v1/members/${pick}`, as(c));
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, (_, w) => writer(w)));
    writing = false;
    await follower;
    // Not the head: its line may still wait on a transaction that was running (the worker's, say)
    // while changes above it had committed. A cursor past the last change's position has read it.
    const [{ last }] = (
      await pg.query<{ last: string }>(`SELECT max(position)::text AS last FROM changes WHERE tenant_id = $1`, [c.id])
    ).rows;
    await waitFor(
      async () => {
        const step = await follow(c, cursor, { types: 'member' });
        apply(step.changes);
        cursor = step.cursor;
        return positionOf(cursor) > BigInt(last);
      },
      { what: 'the follower to pass the last change the writers made' },
    );
    const listed: Member[] = [];
    let next: string | null = null;
    do {
      const res: { body: List<Member> } = await api.get<List<Member>>(
        `/v1/members${qs({ limit: '250', ...(next ? { cursor: next } : {}) })}`,
        as(c),
      );
      listed.push(...res.body.data);
      next = res.body.next_cursor;
    } while (next);
    expect(new Map(listed.map((m) => [m.id, m]))).toEqual(replica);
  });

  it('a write that fails leaves no change; a change rolled back with its request is never in the feed', async () => {
    const c = await newTenant(api);
    const member = await newMember(api, c);
    const before = (
      await pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM changes WHERE tenant_id = $1`, [c.id])
    ).rows[0].n;
    const bad = await api.patch(`/v1/members/${member.id}`, as(c, { body: { email: 'not-an-email', last_name: '' } }));
    expect(bad.status).toBe(422);
    const key = randomUUID();
    await api.post('/v1/members', as(c, { body: { first_name: 'X' }, headers: { 'Idempotency-Key': key } }));
    const after = (await pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM changes WHERE tenant_id = $1`, [c.id]))
      .rows[0].n;
    expect(after).toBe(before);
  });
});
