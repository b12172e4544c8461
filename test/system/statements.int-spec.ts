import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { Client } from 'pg';
import request from 'supertest';
import { parsePublicId } from '../../src/common/ids/id';
import type { ListEnvelope as List } from '../../src/common/lists/list-envelope';
import { loadConfig } from '../../src/config/app-config';
import { DonationsService } from '../../src/modules/donations/donations.service';
import { STATEMENTS_PER_BATCH } from '../../src/modules/statements/statement-run.job';
import { JsonObject, TestApi } from '../support/api';
import {
  inTenant,
  newDonation,
  newFund,
  newMembers,
  newTenant,
  newToken,
  TestTenant,
  TokenPool,
} from '../support/factories';
import { TEST_REDIS_URL } from '../support/test-env';
import { startWorker, stopWorkerMidQuery } from '../support/worker';
import { waitFor } from '../support/wait';
import { as } from '../support/http';
import type { StatementRunResponse as Run } from '../../src/modules/statements/dto/statement-run.response';
import type { StatementResponse as Statement } from '../../src/modules/statements/dto/statement.response';

interface Ref {
  id: string;
}

/** Last calendar year: every gift of it is in the past, whatever today's date. */
const YEAR = new Date().getUTCFullYear() - 1;

/** The text of a PDF as a PDF reader extracts it (poppler's pdftotext), non-breaking spaces as spaces. */
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'statements-'));
  const file = join(dir, 'statement.pdf');
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\u00a0/g, ' ');
}

describe('statements (CONTRACT §12): year-end contribution statements, a background run worked by the worker', () => {
  const env = {
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: `stm-${Date.now()}-${randomBytes(3).toString('hex')}`,
    JOB_RETRY_BASE_MS: '300',
  };
  let api: TestApi;
  let worker: INestApplicationContext;
  let church: TestTenant;
  let other: TestTenant;
  /** Per church: its finance tokens for POST /v1/donations (30 a minute per token). */
  const pools = new Map<string, TokenPool>();

  async function donate(c: TestTenant, body: JsonObject): Promise<Ref> {
    let pool = pools.get(c.id);
    if (!pool) pools.set(c.id, (pool = new TokenPool(api, c, ['read:donations', 'write:donations'])));
    return newDonation(api, c, body, { token: await pool.next() });
  }

  async function fund(c: TestTenant, name: string, extra: JsonObject = {}): Promise<string> {
    return (await newFund(api, c, { name, ...extra })).id;
  }

  async function startRun(c: TestTenant, body: JsonObject): Promise<Run> {
    const res = await api.post<Run>('/v1/statements', as(c, { body }));
    if (res.status !== 202) throw new Error(`run failed: ${res.status} ${JSON.stringify(res.body)}`);
    expect(res.headers.location).toBe(`/v1/statement-runs/${res.body.id}`);
    return res.body;
  }

  async function finished(c: TestTenant, runId: string): Promise<Run> {
    return waitFor(
      async () => {
        const res = await api.get<Run>(`/v1/statement-runs/${runId}`, as(c));
        return res.body.status === 'done' || res.body.status === 'failed' ? res.body : null;
      },
      { what: `run ${runId} to finish`, timeout: 20_000 },
    );
  }

  async function statements(c: TestTenant, query: string): Promise<Statement[]> {
    const res = await api.get<List<Statement>>(`/v1/statements?${query}`, as(c));
    expect(res.status).toBe(200);
    return res.body.data;
  }

  /** GET …/{id}.pdf with its body as bytes (checked against the OpenAPI description like every call). */
  async function download(c: TestTenant, url: string, headers: Record<string, string> = {}) {
    let req = request(api.app.getHttpServer())
      .get(url)
      .set('Authorization', `Bearer ${c.token}`)
      .set('X-Tenant', c.slug);
    for (const [k, v] of Object.entries(headers)) req = req.set(k, v);
    const res = await req.buffer(true).parse((stream, done) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => done(null, Buffer.concat(chunks)));
    });
    const problems = api.openapi.check(
      'GET',
      url,
      res.status,
      res.headers['content-type'],
      res.status >= 400 ? JSON.parse((res.body as Buffer).toString()) : undefined,
    );
    expect(problems).toEqual([]);
    return { status: res.status, headers: res.headers as Record<string, string>, body: res.body as Buffer };
  }

  // The first church: statement settings, funds, donors and the year's gifts.
  let ana: string;
  let jose: string;
  let marta: string;
  let luis: string;
  let bob: string;
  let carla: string;
  let household: string;

  beforeAll(async () => {
    api = await TestApi.start(env);
    worker = await startWorker(env);
    church = await newTenant(api);
    other = await newTenant(api);

    const general = await fund(church, 'General Fund');
    const missions = await fund(church, 'Missions');
    const cafe = await fund(church, 'Coffee Shop', { tax_deductible: false });
    [ana, jose, marta, luis, bob, carla] = await newMembers(api, church, [
      {
        first_name: 'Ana',
        last_name: 'Uno',
        address: { line1: 'Calle Hidalgo 12', city: 'Zapopan', region: 'Jalisco', country: 'MX' },
      },
      { first_name: 'José', last_name: 'Pérez' },
      { first_name: 'Marta', last_name: 'Pérez' },
      { first_name: 'Luis', last_name: 'Pérez' },
      { first_name: 'Bob', last_name: 'Dos' },
      { first_name: 'Carla', last_name: 'Tres' },
    ]);
    const hh = await api.post<Ref>(
      '/v1/households',
      as(church, {
        body: { name: 'Familia Pérez', address: { line1: 'Av. Patria 5', city: 'Guadalajara', country: 'MX' } },
      }),
    );
    household = hh.body.id;
    for (const [member, role] of [
      [jose, 'head'],
      [marta, 'spouse'],
      [luis, 'child'],
    ])
      expect(
        (
          await api.post(
            `/v1/households/${household}/members`,
            as(church, { body: { member_id: member, household_role: role } }),
          )
        ).status,
      ).toBe(200);

    const gift = (donor: string | null, amount: number, currency: string, fundId: string, receivedAt: string) =>
      donate(church, { amount, currency, fund_id: fundId, donor_id: donor, method: 'cash', received_at: receivedAt });
    await gift(ana, 50000, 'MXN', general, `${YEAR}-03-10T10:00:00-06:00`);
    const refunded = await gift(ana, 120000, 'MXN', missions, `${YEAR}-06-15T09:00:00-06:00`);
    expect(
      (await api.post(`/v1/donations/${refunded.id}/refund`, as(church, { body: { amount: 20000 } }))).status,
    ).toBe(200);
    // 23:30 on December 31 in Mexico City is January 1 in UTC: the church's time zone decides the year.
    await gift(ana, 10050, 'USD', general, `${YEAR}-12-31T23:30:00-06:00`);
    await gift(ana, 30000, 'MXN', cafe, `${YEAR}-04-01T10:00:00-06:00`); // not tax-deductible
    await gift(ana, 7777, 'MXN', general, `${YEAR - 1}-12-31T23:30:00-06:00`); // the year before
    await gift(ana, 8888, 'MXN', general, `${YEAR + 1}-01-01T00:30:00-06:00`); // the year after
    await gift(jose, 25000, 'MXN', general, `${YEAR}-02-01T10:00:00-06:00`);
    await gift(marta, 15000, 'MXN', missions, `${YEAR}-02-08T10:00:00-06:00`);
    const bobs = await gift(bob, 40000, 'MXN', general, `${YEAR}-05-01T10:00:00-06:00`);
    expect((await api.post(`/v1/donations/${bobs.id}/refund`, as(church, { body: {} }))).status).toBe(200); // fully refunded: nothing to certify
    await gift(carla, 5000, 'MXN', cafe, `${YEAR}-05-01T10:00:00-06:00`); // only a non-deductible fund
    await gift(null, 9999, 'MXN', general, `${YEAR}-05-01T10:00:00-06:00`); // anonymous
    // A disputed gift counts nothing (the processor's path: a payment, then its dispute).
    await inTenant(api, church.id, async () => {
      const donations = api.app.get(DonationsService);
      await donations.recordProcessorPayment({
        processorId: 'pi_disputed_1',
        amount: 99900,
        currency: 'MXN',
        fundId: general,
        donorId: ana,
        method: 'card',
        receivedAt: new Date(`${YEAR}-07-01T16:00:00Z`),
      });
      await donations.disputeByProcessor('pi_disputed_1', {
        reason: 'fraudulent',
        status: 'needs_response',
        amount: 99900,
      });
    });
  });

  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  describe('settings', () => {
    it('has defaults until set; PUT replaces them (admin:*); an unknown time zone or language is 422', async () => {
      expect((await api.get('/v1/settings/statements', as(other))).body).toEqual({
        language: 'es',
        timezone: 'UTC',
        address: null,
        tax_id: null,
        signer_name: null,
        signer_title: null,
      });
      const put = await api.put(
        '/v1/settings/statements',
        as(church, {
          body: {
            language: 'en',
            timezone: 'America/Mexico_City',
            address: {
              line1: 'Av. Juárez 100',
              city: 'Guadalajara',
              region: 'Jalisco',
              postal_code: '44100',
              country: 'MX',
            },
            tax_id: 'IBE850101AB1',
            signer_name: 'María José Ortiz',
            signer_title: 'Treasurer',
          },
        }),
      );
      expect(put.status).toBe(200);
      expect((await api.get('/v1/settings/statements', as(church))).body).toEqual(put.body);
      const bad = await api.put<{ errors: { field: string; issue: string }[] }>(
        '/v1/settings/statements',
        as(church, { body: { timezone: 'Mars/Olympus', language: 'fr' } }),
      );
      expect(bad.status).toBe(422);
      expect(bad.body.errors.map((e) => e.field).sort()).toEqual(['language', 'timezone']);
      const finance = await newToken(api, church, ['read:donations', 'write:donations'], 'finance');
      expect((await api.get('/v1/settings/statements', { token: finance.token, tenant: church.slug })).status).toBe(
        403,
      );
    });
  });

  describe('a run', () => {
    let run: Run;
    let list: Statement[];

    beforeAll(async () => {
      run = await startRun(church, { year: YEAR });
      expect(run).toMatchObject({
        year: YEAR,
        donor_ids: null,
        status: 'queued',
        total: null,
        done: 0,
        finished_at: null,
      });
      expect(run.id).toMatch(/^stmrun_[0-9a-f]{32}$/);
      run = await finished(church, run.id);
      list = await statements(church, `year=${YEAR}`);
    });

    it('is worked by the worker: done, with its total and progress mirrored on the run', async () => {
      expect(run).toMatchObject({ status: 'done', total: 2, done: 2 });
      expect(run.finished_at).not.toBeNull();
    });

    it('issues one statement per donor, and one per household whose members gave (joint); nothing for a net of zero or non-deductible gifts only', () => {
      expect(list).toHaveLength(2);
      const byName = Object.fromEntries(list.map((s) => [s.recipient_name, s]));
      expect(byName['Ana Uno']).toMatchObject({
        year: YEAR,
        run_id: run.id,
        household: null,
        donors: [{ id: ana, first_name: 'Ana', last_name: 'Uno' }],
        totals: [
          { currency: 'MXN', amount: 170000, refunded: 20000, net: 150000 },
          { currency: 'USD', amount: 10050, refunded: 0, net: 10050 },
        ],
        gift_count: 3,
      });
      expect(byName['Familia Pérez']).toMatchObject({
        household: { id: household, name: 'Familia Pérez' },
        donors: [
          { id: jose, first_name: 'José', last_name: 'Pérez' },
          { id: marta, first_name: 'Marta', last_name: 'Pérez' },
        ],
        totals: [{ currency: 'MXN', amount: 40000, refunded: 0, net: 40000 }],
        gift_count: 2,
      });
      for (const s of list) {
        expect(s.id).toMatch(/^stm_[0-9a-f]{32}$/);
        expect(s.pdf_url).toBe(`/v1/statements/${s.id}.pdf`);
      }
    });

    it('finds a donor’s statement by year and donor_id: their own, or their household’s joint one', async () => {
      const anas = await statements(church, `year=${YEAR}&donor_id=${ana}`);
      expect(anas.map((s) => s.recipient_name)).toEqual(['Ana Uno']);
      expect((await statements(church, `year=${YEAR}&donor_id=${marta}`)).map((s) => s.recipient_name)).toEqual([
        'Familia Pérez',
      ]);
      expect(await statements(church, `year=${YEAR}&donor_id=${luis}`)).toEqual([]); // in the household, gave nothing
      expect(await statements(church, `year=${YEAR}&donor_id=${bob}`)).toEqual([]);
      expect(await statements(church, `year=${YEAR}&donor_id=${carla}`)).toEqual([]);
      expect(await statements(church, `year=${YEAR - 1}`)).toEqual([]);
      expect(await statements(church, `run_id=${run.id}&sort=-updated_at&limit=1`)).toHaveLength(1);
      expect((await api.get('/v1/statements?donor=x', as(church))).status).toBe(400);
    });

    it('serves the PDF: letterhead, donor, each deductible gift (date in the church’s zone, fund, amount), refunds deducted, totals per currency, the no-goods sentence, a signature', async () => {
      const statement = list.find((s) => s.recipient_name === 'Ana Uno')!;
      const res = await download(church, statement.pdf_url);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.body.subarray(0, 5).toString()).toBe('%PDF-');
      const text = pdfText(res.body);
      for (const expected of [
        'Test Church',
        'Av. Juárez 100',
        'Guadalajara, Jalisco 44100',
        'Tax ID: IBE850101AB1',
        'Annual Contribution Statement',
        `Tax year ${YEAR}`,
        statement.id,
        'Ana Uno',
        'Calle Hidalgo 12',
        `03/10/${YEAR}`,
        'General Fund',
        'MXN 500.00',
        `06/15/${YEAR}`,
        'Missions',
        'MXN 1,200.00',
        '-MXN 200.00',
        'MXN 1,000.00',
        `12/31/${YEAR}`,
        'USD 100.50',
        'Total MXN',
        'MXN 1,500.00',
        'Total USD',
        'No goods or services were provided in exchange for these contributions.',
        'María José Ortiz',
        'Treasurer',
        'Page 1 of 1',
      ])
        expect(text).toContain(expected);
      for (const absent of ['Coffee Shop', 'MXN 300.00', 'MXN 77.77', 'MXN 88.88', 'MXN 999.00'])
        expect(text).not.toContain(absent);

      // Its first page as an image, for a person to look at (the layout review): <tmpdir>/statements-int-spec-1.png.
      const file = join(mkdtempSync(join(tmpdir(), 'statements-')), 'statement.pdf');
      writeFileSync(file, res.body);
      execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', file, join(tmpdir(), 'statements-int-spec')]);
      expect(existsSync(join(tmpdir(), 'statements-int-spec-1.png'))).toBe(true);
    });

    it('a household’s joint statement names its givers and has a donor column', async () => {
      const joint = list.find((s) => s.recipient_name === 'Familia Pérez')!;
      const text = pdfText((await download(church, joint.pdf_url)).body);
      expect(text).toContain('Familia Pérez');
      expect(text).toContain('José Pérez, Marta Pérez');
      expect(text).toContain('Av. Patria 5');
      expect(text).toMatch(/José Pérez\s+General Fund\s+MXN 250\.00/);
      expect(text).toMatch(/Marta Pérez\s+Missions\s+MXN 150\.00/);
    });

    it('the PDF carries an ETag: If-None-Match answers 304 while unchanged', async () => {
      const url = list[0].pdf_url;
      const first = await download(church, url);
      expect(first.headers.etag).toBeDefined();
      const again = await download(church, url, { 'If-None-Match': first.headers.etag });
      expect(again.status).toBe(304);
    });

    it('another church gets 404 for the run, the statement and its PDF, and sees none in its list', async () => {
      const statement = list[0];
      expect((await api.get(`/v1/statement-runs/${run.id}`, as(other))).status).toBe(404);
      expect((await download(other, statement.pdf_url)).status).toBe(404);
      expect(await statements(other, `year=${YEAR}`)).toEqual([]);
      expect(await statements(other, `donor_id=${ana}`)).toEqual([]);
      expect((await download(church, '/v1/statements/stm_0000.pdf')).status).toBe(404);
      expect((await api.get('/v1/statement-runs/stm_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', as(church))).status).toBe(404);
    });

    it('rides on the donations scopes: read:donations reads, write:donations starts a run', async () => {
      const reader = await newToken(api, church, ['read:donations'], 'staff');
      const call = { token: reader.token, tenant: church.slug };
      expect((await api.get(`/v1/statement-runs/${run.id}`, call)).status).toBe(200);
      expect((await api.get(`/v1/statements?year=${YEAR}`, call)).status).toBe(200);
      expect((await api.post('/v1/statements', { ...call, body: { year: YEAR } })).status).toBe(403);
      const members = await newToken(api, church, ['read:members'], 'staff');
      expect((await api.get(`/v1/statements?year=${YEAR}`, { token: members.token, tenant: church.slug })).status).toBe(
        403,
      );
    });

    it('a later run of the year re-issues the same statements in place (same ids), in the language now set', async () => {
      expect(
        (
          await api.put(
            '/v1/settings/statements',
            as(church, { body: { language: 'es', timezone: 'America/Mexico_City', signer_name: 'María José Ortiz' } }),
          )
        ).status,
      ).toBe(200);
      const again = await finished(church, (await startRun(church, { year: YEAR })).id);
      expect(again).toMatchObject({ status: 'done', total: 2, done: 2 });
      const reissued = await statements(church, `year=${YEAR}`);
      expect(reissued.map((s) => s.id).sort()).toEqual(list.map((s) => s.id).sort());
      for (const s of reissued) {
        expect(s.run_id).toBe(again.id);
        expect(s.created_at).toBe(list.find((l) => l.id === s.id)!.created_at);
        expect(s.updated_at > s.created_at).toBe(true);
      }
      const text = pdfText(
        (await download(church, reissued.find((s) => s.recipient_name === 'Ana Uno')!.pdf_url)).body,
      );
      expect(text).toContain('Constancia anual de donativos');
      expect(text).toContain('No se entregaron bienes ni servicios a cambio de estos donativos.');
      expect(text).toContain(`31/12/${YEAR}`);
      expect(text).toContain('Tesorería');
      // pt as well.
      await api.put(
        '/v1/settings/statements',
        as(church, { body: { language: 'pt', timezone: 'America/Mexico_City' } }),
      );
      const pt = await finished(church, (await startRun(church, { year: YEAR, donor_ids: [ana] })).id);
      expect(pt).toMatchObject({ status: 'done', total: 1, done: 1, donor_ids: [ana] });
      const ptText = pdfText(
        (await download(church, reissued.find((s) => s.recipient_name === 'Ana Uno')!.pdf_url)).body,
      );
      expect(ptText).toContain('Nenhum bem ou serviço foi fornecido em troca destas doações.');
      await api.put(
        '/v1/settings/statements',
        as(church, { body: { language: 'en', timezone: 'America/Mexico_City' } }),
      );
    });

    it('donor_ids limits a run; a household member brings the household’s joint statement', async () => {
      const only = await finished(church, (await startRun(church, { year: YEAR, donor_ids: [jose] })).id);
      expect(only).toMatchObject({ status: 'done', total: 1, done: 1 });
      const touched = await statements(church, `run_id=${only.id}`);
      expect(touched.map((s) => s.recipient_name)).toEqual(['Familia Pérez']);
      const none = await finished(church, (await startRun(church, { year: YEAR, donor_ids: [luis, bob] })).id);
      expect(none).toMatchObject({ status: 'done', total: 0, done: 0 });
    });

    it('two runs of a year at once leave one statement per recipient (unique per church, year and recipient)', async () => {
      const [a, b] = await Promise.all([startRun(church, { year: YEAR }), startRun(church, { year: YEAR })]);
      expect((await finished(church, a.id)).status).toBe('done');
      expect((await finished(church, b.id)).status).toBe('done');
      const after = await statements(church, `year=${YEAR}`);
      expect(after.map((s) => s.id).sort()).toEqual(list.map((s) => s.id).sort());
      const [{ n }] = await api.db.platform.query<{ n: number }[]>(
        'SELECT count(*)::int AS n FROM statements WHERE tenant_id = $1',
        [church.id],
      );
      expect(n).toBe(2);
    });
  });

  describe('validation', () => {
    it('refuses a future year, a float or string year, an unknown donor and an unknown field (422, nothing started)', async () => {
      const post = (body: JsonObject) =>
        api.post<{ code: string; errors: { field: string; issue: string }[] }>('/v1/statements', as(church, { body }));
      const before = await api.db.platform.query<{ n: number }[]>(
        'SELECT count(*)::int AS n FROM statement_runs WHERE tenant_id = $1',
        [church.id],
      );
      const future = await post({ year: YEAR + 2 });
      expect(future.status).toBe(422);
      expect(future.body.errors).toEqual([expect.objectContaining({ field: 'year', issue: 'out_of_range' })]);
      expect((await post({ year: 2025.5 })).body.errors).toEqual([
        expect.objectContaining({ field: 'year', issue: 'invalid_type' }),
      ]);
      expect((await post({ year: String(YEAR) })).status).toBe(422);
      expect((await post({})).body.errors).toEqual([expect.objectContaining({ field: 'year', issue: 'required' })]);
      const unknown = await post({ year: YEAR, donor_ids: [ana, 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', 'nope'] });
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors.map((e) => [e.field, e.issue])).toEqual([
        ['donor_ids[1]', 'not_found'],
        ['donor_ids[2]', 'not_found'],
      ]);
      // Another church's member is unknown here.
      const [stranger] = await newMembers(api, other, [{ first_name: 'Otra', last_name: 'Iglesia' }]);
      expect((await post({ year: YEAR, donor_ids: [stranger] })).body.errors).toEqual([
        expect.objectContaining({ field: 'donor_ids[0]', issue: 'not_found' }),
      ]);
      expect((await post({ year: YEAR, extra: 1 })).status).toBe(422);
      const after = await api.db.platform.query<{ n: number }[]>(
        'SELECT count(*)::int AS n FROM statement_runs WHERE tenant_id = $1',
        [church.id],
      );
      expect(after).toEqual(before);
    });
  });

  describe('a run that cannot finish', () => {
    it('is retried with backoff, then ends failed (with finished_at) once its attempts are spent', async () => {
      const c = await newTenant(api);
      const general = await fund(c, 'General');
      const [donor] = await newMembers(api, c, [{ first_name: 'Ana', last_name: 'Falla' }]);
      await donate(c, {
        amount: 1000,
        currency: 'USD',
        fund_id: general,
        donor_id: donor,
        method: 'cash',
        received_at: `${YEAR}-04-01T12:00:00Z`,
      });
      // A zone the database does not know (written past the API, which refuses it): every attempt fails.
      await api.db.platform.query(`INSERT INTO statement_settings (tenant_id, timezone) VALUES ($1, 'Mars/Olympus')`, [
        c.id,
      ]);
      const run = await startRun(c, { year: YEAR });
      const failed = await waitFor(
        async () => {
          const r = (await api.get<Run>(`/v1/statement-runs/${run.id}`, as(c))).body;
          return r.status === 'failed' ? r : null;
        },
        { what: 'the run to fail', timeout: 30_000 },
      );
      expect(failed).toMatchObject({ status: 'failed', done: 0 });
      expect(failed.finished_at).not.toBeNull();
      const [job] = await api.db.platform.query<{ attempts: number; status: string; last_error: string }[]>(
        `SELECT attempts, status, last_error FROM background_jobs WHERE tenant_id = $1 AND kind = 'statements'`,
        [c.id],
      );
      expect(job).toMatchObject({ attempts: 5, status: 'failed', last_error: expect.stringContaining('Mars/Olympus') });
      expect(await statements(c, `year=${YEAR}`)).toEqual([]);
    }, 60_000);
  });

  describe('a run interrupted after some statements', () => {
    it('resumes on a restarted worker without issuing anything twice', async () => {
      const c = await newTenant(api);
      const general = await fund(c, 'General');
      const count = STATEMENTS_PER_BATCH + 5;
      const donors = await newMembers(
        api,
        c,
        Array.from({ length: count }, (_, i) => ({ first_name: `Donor${i}`, last_name: 'Resume' })),
      );
      for (const donor of donors)
        await donate(c, {
          amount: 1000,
          currency: 'USD',
          fund_id: general,
          donor_id: donor,
          method: 'cash',
          received_at: `${YEAR}-04-01T12:00:00Z`,
        });
      // The run walks its recipients in uuid order: the greatest is in its last batch.
      const last = donors
        .map((d) => parsePublicId('mem', d)!)
        .sort()
        .pop()!;

      // Another session holds an uncommitted statement of that donor for the year: the worker
      // issues the first batch, then waits on the unique index with the second.
      const blocker = new Client({ connectionString: loadConfig().DATABASE_URL });
      await blocker.connect();
      try {
        await blocker.query('BEGIN');
        const [{ id: otherRun }] = (
          await blocker.query<{ id: string }>(
            `INSERT INTO statement_runs (tenant_id, id, year) VALUES ($1, gen_random_uuid(), $2) RETURNING id`,
            [c.id, YEAR],
          )
        ).rows;
        await blocker.query(
          `INSERT INTO statements (tenant_id, id, run_id, year, member_id, recipient_name, totals, gift_count, pdf) VALUES ($1, gen_random_uuid(), $2, $3, $4, 'blocker', '[]', 0, '\\x00')`,
          [c.id, otherRun, YEAR, last],
        );
        let run = await startRun(c, { year: YEAR });
        const runId = parsePublicId('stmrun', run.id)!;
        const progressed = await waitFor(
          async () => {
            const r = (await api.get<Run>(`/v1/statement-runs/${run.id}`, as(c))).body;
            return r.done === STATEMENTS_PER_BATCH ? r : null;
          },
          { what: 'the first batch of statements', timeout: 20_000 },
        );
        expect(progressed).toMatchObject({ status: 'running', total: count, done: STATEMENTS_PER_BATCH });
        const firstBatch = await statements(c, `run_id=${run.id}&limit=100`);
        expect(firstBatch).toHaveLength(STATEMENTS_PER_BATCH);

        // The worker stops: it is shut down while its run waits, and the run's connection is cut.
        await stopWorkerMidQuery(api.db, worker, blocker, 'INSERT INTO statements%');
        run = (await api.get<Run>(`/v1/statement-runs/${run.id}`, as(c))).body;
        expect(run).toMatchObject({ status: 'queued', done: STATEMENTS_PER_BATCH });

        // A new worker takes the retry and finishes what is left.
        worker = await startWorker(env);
        const done = await finished(c, run.id);
        expect(done).toMatchObject({ status: 'done', total: count, done: count });
        const all = await statements(c, `year=${YEAR}&limit=100`);
        expect(all).toHaveLength(count);
        expect(new Set(all.map((s) => s.donors[0].id)).size).toBe(count);
        // The first batch was not issued again.
        for (const s of firstBatch) expect(all.find((a) => a.id === s.id)!.updated_at).toBe(s.updated_at);
        const [job] = await api.db.platform.query<{ attempts: number; status: string }[]>(
          `SELECT attempts, status FROM background_jobs WHERE tenant_id = $1 AND kind = 'statements' AND data->>'runId' = $2`,
          [c.id, runId],
        );
        expect(job).toEqual({ attempts: 2, status: 'done' });
      } finally {
        await blocker.end();
      }
    });
  });
});
