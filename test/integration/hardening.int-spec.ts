import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { SECRET_BOX } from '../../src/common/crypto/crypto.module';
import type { SecretBox } from '../../src/common/crypto/secret-box';
import { JsonObject, TestApi } from '../support/api';
import { newTenant, TestTenant } from '../support/factories';

/** What an outside security review found (CONTRACT §21), each with the test that failed before the fix. */
describe('hardening', () => {
  let api: TestApi;
  let church: TestTenant;
  const as = (extra: Record<string, unknown> = {}) => ({ token: church.token, tenant: church.slug, ...extra });

  beforeAll(async () => {
    api = await TestApi.start({ WEBHOOK_ALLOW_LOOPBACK: 'true' });
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

  describe('idempotent replays of creations that show a secret once', () => {
    const cases: [string, string, JsonObject][] = [
      ['/v1/auth/tokens', 'token', { name: 'sync', scopes: ['read:members'] }],
      ['/v1/webhook-endpoints', 'secret', { url: 'http://127.0.0.1:9/church', events: ['member.created'] }],
      [
        '/v1/oauth/clients',
        'client_secret',
        { name: 'App', redirect_uris: ['https://app.example.org/cb'], type: 'confidential' },
      ],
      ['/v1/devices', 'key', { name: 'Lobby kiosk' }],
    ];

    it.each(cases)(
      'POST %s: the replay answers %s as null, and the record never held it',
      async (path, field, body) => {
        const headers = { 'Idempotency-Key': randomUUID() };
        const first = await api.post<Record<string, unknown>>(path, as({ body, headers }));
        expect(first.status).toBe(201);
        const secret = first.body[field];
        expect(typeof secret).toBe('string');

        const replay = await api.post<Record<string, unknown>>(path, as({ body, headers }));
        expect(replay.status).toBe(201);
        expect(replay.headers['idempotent-replayed']).toBe('true');
        expect(replay.body).toEqual({ ...first.body, [field]: null });

        const [row] = await api.db.platform.query<{ body_sealed: Buffer }[]>(
          'SELECT body_sealed FROM idempotency_keys WHERE tenant_id = $1 AND key = $2',
          [church.id, headers['Idempotency-Key']],
        );
        const kept = api.app.get<SecretBox>(SECRET_BOX).open(row.body_sealed);
        expect(kept).not.toContain(secret as string);
        expect(JSON.parse(kept)).toMatchObject({ id: first.body.id, [field]: null });
      },
    );
  });
});
