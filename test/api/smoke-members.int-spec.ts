import { TestApi } from '../support/api';
import { newTenant, TestTenant } from '../support/factories';

describe('smoke', () => {
  let api: TestApi;
  let church: TestTenant;
  beforeAll(async () => {
    api = await TestApi.start();
    church = await newTenant(api);
  });
  afterAll(() => api.close());

  it('creates and lists a member', async () => {
    const created = await api.post<{ id: string }>('/v1/members', {
      token: church.token,
      tenant: church.slug,
      body: { first_name: 'Ana', last_name: 'Ruiz' },
    });
    expect(created.status).toBe(201);
    const list = await api.get<{ data: { id: string }[] }>('/v1/members', { token: church.token, tenant: church.slug });
    expect(list.body.data.map((m) => m.id)).toEqual([created.body.id]);
  });
});
