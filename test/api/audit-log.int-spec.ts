import { ID_PREFIX, toPublicId } from '../../src/common/ids/id';
import { JsonValue, TestApi } from '../support/api';
import { newTenant, newToken, TestTenant } from '../support/factories';
import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import type { AuditEntryResponse as Entry } from '../../src/modules/audit-log/dto/audit-entry.response';

/** GET /v1/audit-log (CONTRACT §5): every change made with a token, under the token's name. */

describe('audit log', () => {
  let api: TestApi;
  let church: TestTenant;
  let other: TestTenant;
  let staff: Awaited<ReturnType<typeof newToken>>;
  let sync: { id: string; token: string };
  let syncRequestId: string;
  const changes: { action: string; requestId: string; memberId: string; status: number }[] = [];

  beforeAll(async () => {
    api = await TestApi.start();
    church = await newTenant(api);
    other = await newTenant(api);
    staff = await newToken(api, church, ['read:members', 'write:members'], 'staff');
    const created = await api.post<{ id: string; token: string }>('/v1/auth/tokens', {
      token: staff.token,
      tenant: church.slug,
      body: { name: 'Sync job', scopes: ['read:members', 'write:members'] },
    });
    expect(created.status).toBe(201);
    sync = created.body;
    syncRequestId = created.headers['x-request-id'];
  });
  afterAll(() => api.close());

  const as = (token: string, body?: JsonValue) => ({ token, tenant: church.slug, body });
  const audit = async (query = '', token = church.token, tenant = church) => {
    const res = await api.get<List<Entry>>(`/v1/audit-log${query}`, { token, tenant: tenant.slug });
    expect(res.status).toBe(200);
    return res.body;
  };

  it('records create, update and delete of a member under the token name, newest first', async () => {
    const created = await api.post<{ id: string }>(
      '/v1/members',
      as(sync.token, { first_name: 'Ana', last_name: 'Ruiz' }),
    );
    expect(created.status).toBe(201);
    changes.push({
      action: 'members.create',
      requestId: created.headers['x-request-id'],
      memberId: created.body.id,
      status: 201,
    });
    const updated = await api.patch<{ id: string }>(
      `/v1/members/${created.body.id}`,
      as(sync.token, { status: 'member' }),
    );
    expect(updated.status).toBe(200);
    changes.push({
      action: 'members.update',
      requestId: updated.headers['x-request-id'],
      memberId: created.body.id,
      status: 200,
    });
    const removed = await api.delete(`/v1/members/${created.body.id}`, as(sync.token));
    expect(removed.status).toBe(204);
    changes.push({
      action: 'members.remove',
      requestId: removed.headers['x-request-id'],
      memberId: created.body.id,
      status: 204,
    });
    for (const c of changes) expect(c.requestId).toMatch(/^req_[0-9a-f]{32}$/);

    const log = await audit();
    const times = log.data.map((e) => Date.parse(e.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a)); // newest first

    const bySync = log.data.filter((e) => e.token_id === sync.id);
    expect(bySync.map((e) => e.action)).toEqual(['members.remove', 'members.update', 'members.create']);
    const syncUser = toPublicId(ID_PREFIX.user, staff.user.id);
    for (const [i, change] of [...changes].reverse().entries()) {
      const entry = bySync[i];
      expect(entry).toEqual({
        id: expect.stringMatching(/^aud_[0-9a-f]{32}$/),
        action: change.action,
        resource_type: 'members',
        resource_id: change.memberId,
        status: change.status,
        token_id: sync.id,
        token_name: 'Sync job',
        user_id: syncUser,
        request_id: change.requestId,
        ip: expect.stringMatching(/127\.0\.0\.1|::1/),
        created_at: expect.any(String),
      });
      expect(entry.resource_id).toMatch(/^mem_[0-9a-f]{32}$/);
      expect(entry.token_id).toMatch(/^tok_[0-9a-f]{32}$/);
      expect(entry.user_id).toMatch(/^usr_[0-9a-f]{32}$/);
    }

    // The token creation itself was recorded under the staff token.
    const tokenCreation = log.data.find((e) => e.action === 'tokens.create' && e.resource_id === sync.id);
    expect(tokenCreation).toMatchObject({
      token_id: staff.id,
      token_name: 'staff token',
      user_id: syncUser,
      request_id: syncRequestId,
      status: 201,
    });
    expect(log.total).toBe(4);
  });

  it('leaves no entry for failed changes or reads', async () => {
    const before = await audit();
    const invalid = await api.post<Problem>('/v1/members', as(sync.token, { first_name: '', email: 'nope' }));
    expect(invalid.status).toBe(422);
    const missing = await api.patch<Problem>(
      '/v1/members/mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
      as(sync.token, { status: 'member' }),
    );
    expect(missing.status).toBe(404);
    const forbidden = await api.post<Problem>('/v1/campuses', as(sync.token, { key: 'north', name: 'North' }));
    expect(forbidden.status).toBe(403);
    const notAllowed = await api.post<Problem>(
      '/v1/auth/tokens',
      as(sync.token, { name: 'Escalate', scopes: ['admin:*'] }),
    );
    expect(notAllowed.status).toBe(403);
    expect((await api.get('/v1/members', as(sync.token))).status).toBe(200);
    expect((await api.get('/v1/auth/tokens', as(sync.token))).status).toBe(200);

    const after = await audit();
    expect(after.total).toBe(before.total);
    expect(after.data.map((e) => e.id)).toEqual(before.data.map((e) => e.id));
    const requestIds = new Set(after.data.map((e) => e.request_id));
    for (const res of [invalid, missing, forbidden, notAllowed])
      expect(requestIds.has(res.headers['x-request-id'])).toBe(false);
  });

  it('filters by action and by token_id', async () => {
    const second = await api.post<{ id: string }>(
      '/v1/members',
      as(staff.token, { first_name: 'Luis', last_name: 'Paz' }),
    );
    expect(second.status).toBe(201);

    const creates = await audit('?action=members.create');
    expect(creates.total).toBe(2);
    expect(creates.data.every((e) => e.action === 'members.create')).toBe(true);
    expect(creates.data.map((e) => e.resource_id)).toEqual([second.body.id, changes[0].memberId]);

    const bySync = await audit(`?token_id=${sync.id}`);
    expect(bySync.total).toBe(3);
    expect(bySync.data.every((e) => e.token_id === sync.id && e.token_name === 'Sync job')).toBe(true);

    const both = await audit(`?action=members.create&token_id=${sync.id}`);
    expect(both.data.map((e) => e.request_id)).toEqual([changes[0].requestId]);

    const several = await audit('?action[in]=members.update,members.remove');
    expect(several.data.map((e) => e.action)).toEqual(['members.remove', 'members.update']);

    expect((await audit('?token_id=tok_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f')).total).toBe(0);
    expect((await audit('?token_id=not-a-token')).total).toBe(0);

    const page = await audit('?limit=2');
    expect(page.data).toHaveLength(2);
    expect(page.next_cursor).toEqual(expect.any(String));
    const rest = await audit(`?limit=2&cursor=${encodeURIComponent(page.next_cursor!)}`);
    expect(rest.data.map((e) => e.id)).not.toContain(page.data[0].id);
  });

  it("shows one church none of another church's entries", async () => {
    const theirs = await audit('', other.token, other);
    expect(theirs.total).toBe(0);
    expect(theirs.data).toEqual([]);
    expect((await audit(`?token_id=${sync.id}`, other.token, other)).total).toBe(0);

    // The other church's own changes appear there only.
    const created = await api.post<{ id: string }>('/v1/members', {
      token: other.token,
      tenant: other.slug,
      body: { first_name: 'Otra', last_name: 'Iglesia' },
    });
    expect(created.status).toBe(201);
    const afterOwn = await audit('', other.token, other);
    expect(afterOwn.data.map((e) => e.resource_id)).toEqual([created.body.id]);
    expect(afterOwn.data[0].token_name).toBe('test admin');
    const mine = await audit();
    expect(mine.data.some((e) => e.resource_id === created.body.id)).toBe(false);
  });

  it('needs admin:*: 403 scope_insufficient', async () => {
    for (const token of [sync.token, staff.token]) {
      const res = await api.get<Problem>('/v1/audit-log', { token, tenant: church.slug });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('scope_insufficient');
      expect(res.headers['www-authenticate']).toContain('admin:*');
    }
  });
});
