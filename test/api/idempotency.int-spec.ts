import { randomUUID } from 'node:crypto';
import { JsonValue, TestApi } from '../support/api';
import { newTenant, newToken, TestTenant } from '../support/factories';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import type { MemberResponse as Member } from '../../src/modules/members/dto/member.response';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';

/** Idempotency-Key on creating POSTs (CONTRACT §5b). */

describe('idempotency keys', () => {
  let api: TestApi;
  let church: TestTenant;

  beforeAll(async () => {
    api = await TestApi.start();
    church = await newTenant(api);
  });
  afterAll(() => api.close());

  const withKey = (key: string, body: JsonValue, token = church.token) => ({
    token,
    tenant: church.slug,
    headers: { 'Idempotency-Key': key },
    body,
  });
  const total = async (path: string) => {
    const res = await api.get<List<unknown>>(`${path}?limit=1`, { token: church.token, tenant: church.slug });
    expect(res.status).toBe(200);
    return res.body.total!; // counted: the request did not ask total=false
  };
  const members = () => total('/v1/members');

  it('refuses a key that is not a UUID v4: 400 invalid_idempotency_key, nothing created', async () => {
    const before = await members();
    const bad = [
      'abc',
      '12345',
      'c232ab00-9414-11ec-b3c8-9f6bdeced846', // v1
      '017f22e2-79b0-7cc3-98c4-dc0c0c07398f', // v7
      '9b2f5c1e-3d4a-4b6c-cd7e-1f2a3b4c5d6e', // v4 with a bad variant
      '9b2f5c1e3d4a4b6c8d7e1f2a3b4c5d6e', // no dashes
      `${randomUUID()}x`,
    ];
    for (const key of bad) {
      const res = await api.post<Problem>('/v1/members', withKey(key, { first_name: 'Bad', last_name: 'Key' }));
      expect({ key, status: res.status, code: res.body.code }).toEqual({
        key,
        status: 400,
        code: 'invalid_idempotency_key',
      });
    }
    expect(await members()).toBe(before);
  });

  it('replays a retry with the same key and body: same status and body, Idempotent-Replayed: true, nothing new', async () => {
    const key = randomUUID();
    const body = { first_name: 'Rosa', last_name: 'Vega', email: 'rosa@example.org' };
    const before = await members();
    const first = await api.post<Member>('/v1/members', withKey(key, body));
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await members()).toBe(before + 1);

    for (const k of [key, key.toUpperCase()]) {
      const retry = await api.post<Member>('/v1/members', withKey(k, body));
      expect(retry.status).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.location).toBe(first.headers.location);
    }
    expect(await members()).toBe(before + 1);
  });

  it('keeps a key 24 hours: an older record no longer replays', async () => {
    const key = randomUUID();
    const body = { first_name: 'Vieja', last_name: 'Clave' };
    const first = await api.post<Member>('/v1/members', withKey(key, body));
    expect(first.status).toBe(201);
    await api.db.platform.query(
      `UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE tenant_id = $1 AND key = $2`,
      [church.id, key],
    );
    const before = await members();
    const later = await api.post<Member>('/v1/members', withKey(key, body));
    expect(later.status).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.body.id).not.toBe(first.body.id);
    expect(await members()).toBe(before + 1);
    // ... and the key now replays the new one.
    const replay = await api.post<Member>('/v1/members', withKey(key, body));
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(later.body.id);
  });

  it('refuses the same key with another body: 422 idempotency_key_reused', async () => {
    const key = randomUUID();
    const first = await api.post<Member>('/v1/members', withKey(key, { first_name: 'Luis', last_name: 'Paz' }));
    expect(first.status).toBe(201);
    const before = await members();
    const res = await api.post<Problem>('/v1/members', withKey(key, { first_name: 'Luisa', last_name: 'Paz' }));
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('idempotency_key_reused');
    expect(await members()).toBe(before);
  });

  it('refuses the same key on another path: 422 idempotency_key_reused', async () => {
    const key = randomUUID();
    expect((await api.post('/v1/members', withKey(key, { first_name: 'Eva', last_name: 'Soto' }))).status).toBe(201);
    const campuses = await total('/v1/campuses');
    const res = await api.post<Problem>('/v1/campuses', withKey(key, { key: 'eva-campus', name: 'Eva Campus' }));
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('idempotency_key_reused');
    const bulk = await api.post<Problem>(
      '/v1/members/bulk',
      withKey(key, { members: [{ first_name: 'Eva', last_name: 'Soto' }] }),
    );
    expect(bulk.status).toBe(422);
    expect(bulk.body.code).toBe('idempotency_key_reused');
    expect(await total('/v1/campuses')).toBe(campuses);
  });

  it('scopes a key to the token: another token reusing it creates a new record', async () => {
    const other = await newToken(api, church, ['read:members', 'write:members'], 'staff');
    const key = randomUUID();
    const body = { first_name: 'Tomás', last_name: 'Gil' };
    const before = await members();
    const mine = await api.post<Member>('/v1/members', withKey(key, body));
    const theirs = await api.post<Member>('/v1/members', withKey(key, body, other.token));
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(await members()).toBe(before + 2);
    // Each token replays its own.
    const again = await api.post<Member>('/v1/members', withKey(key, body, other.token));
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.id).toBe(theirs.body.id);
  });

  it('is scoped to the church: the same key in another church is independent', async () => {
    const otherChurch = await newTenant(api);
    const key = randomUUID();
    const body = { first_name: 'Nora', last_name: 'Díaz' };
    const here = await api.post<Member>('/v1/members', withKey(key, body));
    const there = await api.post<Member>('/v1/members', {
      token: otherChurch.token,
      tenant: otherChurch.slug,
      headers: { 'Idempotency-Key': key },
      body,
    });
    expect(here.status).toBe(201);
    expect(there.status).toBe(201);
    expect(there.headers['idempotent-replayed']).toBeUndefined();
    expect(there.body.id).not.toBe(here.body.id);
  });

  it('does not store a request that failed validation: a retry with a valid body succeeds', async () => {
    const key = randomUUID();
    const before = await members();
    const invalid = await api.post<Problem>(
      '/v1/members',
      withKey(key, { first_name: 'Sin apellido', email: 'not-an-email' }),
    );
    expect(invalid.status).toBe(422);
    expect(invalid.body.code).toBe('validation_failed');
    expect(await members()).toBe(before);

    const valid = await api.post<Member>('/v1/members', withKey(key, { first_name: 'Con', last_name: 'Apellido' }));
    expect(valid.status).toBe(201);
    expect(valid.headers['idempotent-replayed']).toBeUndefined();
    expect(await members()).toBe(before + 1);
    const replay = await api.post<Member>('/v1/members', withKey(key, { first_name: 'Con', last_name: 'Apellido' }));
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(valid.body.id);
  });

  it('does not store a conflict (409): the same key may then be used for the corrected request', async () => {
    const campusKey = `north-${randomUUID().slice(0, 8)}`;
    expect(
      (
        await api.post('/v1/campuses', {
          token: church.token,
          tenant: church.slug,
          body: { key: campusKey, name: 'North' },
        })
      ).status,
    ).toBe(201);
    const key = randomUUID();
    const clash = await api.post<Problem>('/v1/campuses', withKey(key, { key: campusKey, name: 'North again' }));
    expect(clash.status).toBe(409);
    const again = await api.post<Problem>('/v1/campuses', withKey(key, { key: campusKey, name: 'North again' }));
    expect(again.status).toBe(409); // the same conflict again, not a stored replay
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    const fixed = await api.post<{ id: string }>(
      '/v1/campuses',
      withKey(key, { key: `${campusKey}-2`, name: 'North again' }),
    );
    expect(fixed.status).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
  });

  it('replays POST /v1/members/bulk (200) without creating the rows again', async () => {
    const key = randomUUID();
    const body = {
      members: [
        { first_name: 'Uno', last_name: 'Bulk' },
        { first_name: 'Dos', last_name: 'Bulk' },
        { first_name: '', last_name: 'Bad' },
      ],
    };
    const before = await members();
    const first = await api.post<{ created: number; failed: number; results: { index: number; id?: string }[] }>(
      '/v1/members/bulk',
      withKey(key, body),
    );
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ created: 2, failed: 1 });
    const retry = await api.post('/v1/members/bulk', withKey(key, body));
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await members()).toBe(before + 2);
  });

  it('replays POST /v1/campuses: 201 with the same campus instead of a duplicate-key conflict', async () => {
    const key = randomUUID();
    const body = { key: `south-${randomUUID().slice(0, 8)}`, name: 'South' };
    const before = await total('/v1/campuses');
    const first = await api.post<{ id: string }>('/v1/campuses', withKey(key, body));
    expect(first.status).toBe(201);
    expect(first.body.id).toMatch(/^cmp_/);
    const retry = await api.post<{ id: string }>('/v1/campuses', withKey(key, body));
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.location).toBe(first.headers.location);
    expect(await total('/v1/campuses')).toBe(before + 1);
  });

  describe('POST /v1/auth/tokens', () => {
    it('replays a token creation: same id, no second token', async () => {
      const key = randomUUID();
      const body = { name: 'Idempotent token', scopes: ['read:members'] };
      const before = await total('/v1/auth/tokens');
      const first = await api.post<{ id: string; token: string }>('/v1/auth/tokens', withKey(key, body));
      expect(first.status).toBe(201);
      const retry = await api.post<{ id: string }>('/v1/auth/tokens', withKey(key, body));
      expect(retry.status).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body.id).toBe(first.body.id);
      expect(retry.headers.location).toBe(first.headers.location);
      expect(await total('/v1/auth/tokens')).toBe(before + 1);
      const other = await api.post<Problem>('/v1/auth/tokens', withKey(key, { ...body, name: 'Another' }));
      expect(other.status).toBe(422);
      expect(other.body.code).toBe('idempotency_key_reused');
    });

    it('keeps a replayed token answer uncacheable (Cache-Control: no-store)', async () => {
      const key = randomUUID();
      const body = { name: 'No store', scopes: ['read:members'] };
      const first = await api.post('/v1/auth/tokens', withKey(key, body));
      expect(first.headers['cache-control']).toBe('no-store');
      const retry = await api.post('/v1/auth/tokens', withKey(key, body));
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.headers['cache-control']).toBe('no-store');
    });

    it('never stores the token value in clear (CONTRACT §5: SHA-256 hashes only), not even in the idempotency record', async () => {
      const key = randomUUID();
      const first = await api.post<{ token: string }>(
        '/v1/auth/tokens',
        withKey(key, { name: 'Secret keeper', scopes: ['read:members'] }),
      );
      expect(first.status).toBe(201);
      // The whole row as text (bytea columns appear as hex): neither the value nor its bytes may be there.
      const rows: { row: string }[] = await api.db.platform.query(
        `SELECT i::text AS row FROM idempotency_keys i WHERE tenant_id = $1 AND key = $2`,
        [church.id, key],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].row).not.toContain(first.body.token);
      expect(rows[0].row.toLowerCase()).not.toContain(Buffer.from(first.body.token).toString('hex'));
    });
  });

  it('creates exactly one member from 20 concurrent identical requests with one key', async () => {
    const key = randomUUID();
    const body = { first_name: 'Concurrente', last_name: 'Único' };
    const before = await members();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => api.post<Member & Problem>('/v1/members', withKey(key, body))),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const created = responses.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    expect(created.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    for (const res of responses.filter((r) => r.status === 409)) {
      expect(res.body.code).toBe('idempotency_in_progress');
      expect(res.headers['retry-after']).toBe('1');
    }
    expect(await members()).toBe(before + 1);

    // Afterwards every retry is a replay of that one member.
    const retry = await api.post<Member>('/v1/members', withKey(key, body));
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.id).toBe(created[0].body.id);
  });
});
