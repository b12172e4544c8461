import { TestApi } from '../support/api';
import { newCampus, newTenant, newToken, TestTenant } from '../support/factories';
import type { DeviceWithKeyResponse } from '../../src/modules/devices/dto/device.response';

/** A kiosk as registered (not replayed): its key is shown. */
type DeviceWithKey = DeviceWithKeyResponse & { key: string };

describe('kiosk devices (/v1/devices)', () => {
  let api: TestApi;
  let church: TestTenant;
  const as = (token: string, extra: Record<string, unknown> = {}) => ({ token, tenant: church.slug, ...extra });

  beforeAll(async () => {
    api = await TestApi.start();
    church = await newTenant(api);
    await newCampus(api, church, { key: 'lobby', name: 'Lobby' });
  });
  afterAll(() => api.close());

  it('registers a kiosk and returns its key once, with the kiosk scopes only', async () => {
    const res = await api.post<DeviceWithKey>(
      '/v1/devices',
      as(church.token, { body: { name: 'Kiosk 1', campus: 'lobby' } }),
    );
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/v1/devices/${res.body.id}`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.id).toMatch(/^dev_[0-9a-f]{32}$/);
    expect(res.body.key).toMatch(/^chk_[0-9A-Za-z]{36}$/);
    expect(res.body.key_display).toBe(`chk_…${res.body.key.slice(-4)}`);
    expect(res.body.campus?.key).toBe('lobby');

    const key = res.body.key;
    expect((await api.get('/v1/events', as(key))).status).toBe(200);
    expect((await api.get('/v1/members', as(key))).status).toBe(403);
    const write = await api.post<{ code: string }>(
      '/v1/members',
      as(key, { body: { first_name: 'A', last_name: 'B' } }),
    );
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('scope_insufficient');

    const again = await api.get<Record<string, unknown>>(`/v1/devices/${res.body.id}`, as(church.token));
    expect(again.status).toBe(200);
    expect(again.body).not.toHaveProperty('key');
    expect(JSON.stringify(again.body)).not.toContain(key);
    const rows: { token_hash: Buffer }[] = await api.db.platform.query(
      `SELECT token_hash FROM api_tokens WHERE type = 'kiosk' AND last4 = $1`,
      [key.slice(-4)],
    );
    expect(rows.length).toBeGreaterThan(0);
  });

  it('raises device.registered with the device (never its key)', async () => {
    const res = await api.post<DeviceWithKey>('/v1/devices', as(church.token, { body: { name: 'Kiosk 2' } }));
    const events = await api.get<{ data: { type: string; data: { object: { id: string } } }[] }>(
      '/v1/webhook-events?type=device.registered',
      as(church.token),
    );
    const event = events.body.data.find((e) => e.data.object.id === res.body.id);
    expect(event).toBeDefined();
    expect(JSON.stringify(event)).not.toContain(res.body.key);
  });

  it('rotates the key: the new key works and the old one is revoked at once', async () => {
    const created = await api.post<DeviceWithKey>('/v1/devices', as(church.token, { body: { name: 'Kiosk 3' } }));
    const oldKey = created.body.key;
    const rotated = await api.post<DeviceWithKey>(`/v1/devices/${created.body.id}/rotate-key`, as(church.token));
    expect(rotated.status).toBe(200);
    expect(rotated.body.key).not.toBe(oldKey);
    const old = await api.get<{ code: string }>('/v1/members', as(oldKey));
    expect(old.status).toBe(401);
    expect(old.body.code).toBe('token_revoked');
    expect((await api.get('/v1/events', as(rotated.body.key))).status).toBe(200);
  });

  it('deleting a device revokes its key; the list and get follow', async () => {
    const created = await api.post<DeviceWithKey>('/v1/devices', as(church.token, { body: { name: 'Kiosk 4' } }));
    expect((await api.delete(`/v1/devices/${created.body.id}`, as(church.token))).status).toBe(204);
    expect((await api.get<{ code: string }>('/v1/members', as(created.body.key))).body.code).toBe('token_revoked');
    expect((await api.get(`/v1/devices/${created.body.id}`, as(church.token))).status).toBe(404);
    const list = await api.get<{ data: { id: string }[] }>('/v1/devices', as(church.token));
    expect(list.body.data.map((d) => d.id)).not.toContain(created.body.id);
  });

  it('needs admin:*, refuses an unknown campus, and hides other churches', async () => {
    const staff = await newToken(api, church, ['read:members', 'write:members'], 'staff');
    expect((await api.post<{ code: string }>('/v1/devices', as(staff.token, { body: { name: 'x' } }))).body.code).toBe(
      'scope_insufficient',
    );
    const bad = await api.post<{ code: string; errors: { field: string; issue: string }[] }>(
      '/v1/devices',
      as(church.token, { body: { name: 'x', campus: 'nowhere' } }),
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'campus', issue: 'not_found' })]);
    const other = await newTenant(api);
    const mine = await api.post<DeviceWithKey>('/v1/devices', as(church.token, { body: { name: 'Kiosk 5' } }));
    expect((await api.get(`/v1/devices/${mine.body.id}`, { token: other.token, tenant: other.slug })).status).toBe(404);
    expect(
      (await api.get<{ code: string }>('/v1/members', { token: mine.body.key, tenant: other.slug })).body.code,
    ).toBe('tenant_forbidden');
  });
});
