import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import { Call, JsonObject, TestApi } from '../support/api';
import { newMembers, newTenant, newToken, TestTenant } from '../support/factories';

interface Ref {
  id: string;
  name: string;
}

interface Donation {
  id: string;
  amount: number;
  currency: string;
  fund: Ref;
  donor: { id: string; first_name: string } | null;
  campus: { id: string; key: string; name: string } | null;
  method: string;
  status: string;
  received_at: string;
  check_number: string | null;
  note: string | null;
  batch_id: string | null;
  recurring_gift_id: string | null;
  processor_id: string | null;
  refunded_amount: number;
  dispute: { reason: string | null; status: string | null; amount: number | null } | null;
  created_at: string;
  updated_at: string;
}

const DONATION_ID = /^don_[0-9a-f]{32}$/;
const UTC_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const qs = (params: Record<string, string>): string => `?${new URLSearchParams(params).toString()}`;

/**
 * A church and a pool of write:donations tokens: POST /v1/donations allows 30 requests a minute per
 * token, so a suite that makes more gifts moves on to a fresh token every 25.
 */
class Giver {
  private tokens: string[] = [];
  private used = 0;

  constructor(
    private readonly api: TestApi,
    readonly church: TestTenant,
  ) {}

  as(extra: Call = {}): Call {
    return { token: this.church.token, tenant: this.church.slug, ...extra };
  }

  async donationToken(): Promise<string> {
    if (this.tokens.length === 0 || this.used >= 25) {
      this.tokens.push((await newToken(this.api, this.church, ['read:donations', 'write:donations'], 'finance')).token);
      this.used = 0;
    }
    this.used++;
    return this.tokens[this.tokens.length - 1];
  }

  async post<T = Donation>(body: JsonObject, headers: Record<string, string> = {}) {
    return this.api.post<T>('/v1/donations', { token: await this.donationToken(), tenant: this.church.slug, body, headers });
  }

  async donate(body: JsonObject): Promise<Donation> {
    const res = await this.post(body);
    if (res.status !== 201) throw new Error(`donation failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async fund(name: string, extra: JsonObject = {}): Promise<Ref> {
    const res = await this.api.post<Ref>('/v1/funds', this.as({ body: { name, ...extra } }));
    if (res.status !== 201) throw new Error(`fund failed: ${res.status} ${JSON.stringify(res.body)}`);
    return { id: res.body.id, name: res.body.name };
  }

  async list(params: Record<string, string> = {}, path = '/v1/donations'): Promise<List<Donation>> {
    const res = await this.api.get<List<Donation>>(`${path}${qs(params)}`, this.as());
    if (res.status !== 200) throw new Error(`list failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }
}

/** The `data.object` of every outbox event of `type` whose object has this id (oldest first). */
async function eventObjects<T = Donation>(api: TestApi, church: TestTenant, type: string, objectId: string): Promise<T[]> {
  const rows: { object: T }[] = await api.db.platform.query(
    `SELECT payload->'data'->'object' AS object FROM webhook_events WHERE tenant_id = $1 AND type = $2 AND payload->'data'->'object'->>'id' = $3 ORDER BY created_at, id`,
    [church.id, type, objectId],
  );
  return rows.map((r) => r.object);
}

describe('donations', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api.close());

  // -------------------------------------------------------------------------------------------
  describe('POST /v1/donations', () => {
    let g: Giver;
    let general: Ref;
    let donorId: string;

    beforeAll(async () => {
      g = new Giver(api, await newTenant(api));
      general = await g.fund('General');
      [donorId] = await newMembers(api, g.church, [{ first_name: 'Lucía', last_name: 'Ramírez' }]);
      await api.post('/v1/campuses', g.as({ body: { key: 'north', name: 'North Campus' } }));
    });

    it('records a gift: 201, Location, don_ id, the exact shape, donation.created with the same object', async () => {
      const res = await g.post({
        amount: 2500,
        currency: 'USD',
        fund_id: general.id,
        donor_id: donorId,
        campus: 'north',
        method: 'check',
        check_number: '1042',
        received_at: '2026-01-04T10:30:00-06:00',
        note: 'In memory of Rosa',
      });
      expect(res.status).toBe(201);
      expect(res.body.id).toMatch(DONATION_ID);
      expect(res.headers.location).toBe(`/v1/donations/${res.body.id}`);
      expect(res.body).toEqual({
        id: res.body.id,
        amount: 2500,
        currency: 'USD',
        fund: general,
        donor: { id: donorId, first_name: 'Lucía' },
        campus: { id: expect.stringMatching(/^cmp_/), key: 'north', name: 'North Campus' },
        method: 'check',
        status: 'succeeded',
        received_at: '2026-01-04T16:30:00.000Z',
        check_number: '1042',
        note: 'In memory of Rosa',
        batch_id: null,
        recurring_gift_id: null,
        processor_id: null,
        refunded_amount: 0,
        dispute: null,
        created_at: expect.stringMatching(UTC_ISO),
        updated_at: res.body.created_at,
      });
      const fetched = await api.get<Donation>(res.headers.location, g.as());
      expect(fetched.body).toEqual(res.body);
      expect(await eventObjects(api, g.church, 'donation.created', res.body.id)).toEqual([res.body]);
    });
  });
});
