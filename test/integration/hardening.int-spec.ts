import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { TestApi } from '../support/api';
import { newTenant, TestTenant } from '../support/factories';

/** What an outside security review found (CONTRACT §21), each with the test that failed before the fix. */
describe('hardening', () => {
  let api: TestApi;
  let church: TestTenant;
  const as = (extra: Record<string, unknown> = {}) => ({ token: church.token, tenant: church.slug, ...extra });

  beforeAll(async () => {
    api = await TestApi.start();
    church = await newTenant(api);
  });
  afterAll(() => api.close());

  describe('CSV exports', () => {
    it('write a name that a spreadsheet would run as a formula as text, and numbers as they are', async () => {
      const names = ['=HYPERLINK("http://evil.example","Click")', '+SUM(1,2)', '-2+3', '@cmd'];
      const fund = await api.post<{ id: string }>('/v1/funds', as({ body: { name: 'General' } }));
      for (const name of names) {
        const member = await api.post<{ id: string }>(
          '/v1/members',
          as({ body: { first_name: name, last_name: 'X' } }),
        );
        expect(member.status).toBe(201);
        const gift = await api.post('/v1/donations', {
          ...as(),
          body: { amount: 1000, currency: 'USD', fund_id: fund.body.id, donor_id: member.body.id },
        });
        expect(gift.status).toBe(201);
      }
      const res = await request(api.app.getHttpServer())
        .get('/v1/reports/giving/donors')
        .set('Authorization', `Bearer ${church.token}`)
        .set('X-Tenant', church.slug)
        .set('Accept', 'text/csv');
      expect(res.status).toBe(200);
      const rows = parse<Record<string, string>>(res.text, { columns: true });
      expect(rows.map((r) => r.donor_first_name).sort()).toEqual(names.map((n) => `'${n}`).sort());
      expect(rows.every((r) => r.gifts === '1')).toBe(true);
    });
  });
});
