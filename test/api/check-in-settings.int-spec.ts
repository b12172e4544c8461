import type { ProblemBody as Problem } from '../../src/common/errors/problem';
import { BANNED_SEQUENCES, isAllowedCode, SECURITY_CODE_ALPHABET } from '../../src/modules/check-in/security-code';
import { JsonValue, TestApi } from '../support/api';
import {
  cancelPendingDeliveries,
  newDevice,
  newMembers,
  newTenant,
  newToken,
  newUpcomingEvent,
  TestTenant,
} from '../support/factories';
import { as } from '../support/http';
import type { CheckInSettingsResponse as Settings } from '../../src/modules/check-in/dto/check-in-settings.dto';

interface Issue {
  field: string;
  issue: string;
  message: string;
}

const CODE = /^[BCDFGHJKLMNPRSTXZ2456789]{4}$/;

describe("the church's banned security-code sequences (/v1/settings/check-in)", () => {
  let api: TestApi;
  let church: TestTenant;
  let other: TestTenant;
  let kiosk: string;

  async function ok<T>(res: { status: number; body: unknown }, status: number): Promise<T> {
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body as T;
  }

  const getSettings = async (c: TestTenant) =>
    ok<Settings>(await api.get('/v1/settings/check-in', as(c.token, c)), 200);
  const putSettings = (c: TestTenant, body: JsonValue, lang?: string) =>
    api.put<Settings & Problem & { errors: Issue[] }>('/v1/settings/check-in', as(c.token, c, { body, lang }));

  /** One check-in per member (`count` new members of `c`), a few at a time; their codes. */
  async function codesOf(c: TestTenant, token: string, count: number, tag: string): Promise<string[]> {
    const event = await newUpcomingEvent(api, c, { name: `Codes ${tag}` }).then((e) => e.id);
    const members = await newMembers(
      api,
      c,
      Array.from({ length: count }, (_, i) => ({ first_name: `Kid${i}`, last_name: tag })),
    );
    const codes: string[] = [];
    for (let i = 0; i < members.length; i += 20) {
      const results = await Promise.all(
        members
          .slice(i, i + 20)
          .map((member) =>
            api.post<{ security_code: string }>(
              '/v1/check-ins',
              as(token, c, { body: { event_id: event, member_ids: [member] } }),
            ),
          ),
      );
      for (const res of results) codes.push((await ok<{ security_code: string }>(res, 201)).security_code);
    }
    return codes;
  }

  beforeAll(async () => {
    api = await TestApi.start();
    church = await newTenant(api);
    other = await newTenant(api);
    kiosk = (await newDevice(api, church, { name: 'Lobby kiosk' })).key;
  });

  afterAll(async () => {
    await cancelPendingDeliveries(api, [church.id, other.id]);
    await api.close();
  });

  it('has none of its own until set, and always lists the built-in ones', async () => {
    expect(await getSettings(church)).toEqual({ banned_sequences: [], built_in: [...BANNED_SEQUENCES] });
  });

  it('PUT saves them upper-cased with repeats kept once (first order), answers what GET then reads; another church keeps its own', async () => {
    const put = await putSettings(church, { banned_sequences: ['grr', 'Pk', 'ZZ', 'GRR', 'pk', 'b2c4'] });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ banned_sequences: ['GRR', 'PK', 'ZZ', 'B2C4'], built_in: [...BANNED_SEQUENCES] });
    expect(await getSettings(church)).toEqual(put.body);
    expect(await getSettings(other)).toEqual({ banned_sequences: [], built_in: [...BANNED_SEQUENCES] });

    // The other church's own list leaves this one's as it was.
    expect((await putSettings(other, { banned_sequences: ['XX'] })).body.banned_sequences).toEqual(['XX']);
    expect((await getSettings(church)).banned_sequences).toEqual(['GRR', 'PK', 'ZZ', 'B2C4']);
    // PUT replaces: an absent list is none.
    expect((await putSettings(other, {})).body).toEqual({ banned_sequences: [], built_in: [...BANNED_SEQUENCES] });
    expect((await getSettings(other)).banned_sequences).toEqual([]);
  });

  it('a sequence the alphabet cannot spell, shorter than 2 or longer than 4 is 422 naming its position; nothing is saved', async () => {
    const before = await getSettings(church);
    const res = await putSettings(church, { banned_sequences: ['PK', 'xa', 'BCDFG', 'B', '0O', 'ﬀk', 'G R', 'zz'] });
    expect([res.status, res.body.code]).toEqual([422, 'validation_failed']);
    expect(res.body.errors.map(({ field, issue }) => [field, issue])).toEqual([
      ['banned_sequences[1]', 'invalid_format'],
      ['banned_sequences[2]', 'too_long'],
      ['banned_sequences[3]', 'too_short'],
      ['banned_sequences[4]', 'invalid_format'],
      ['banned_sequences[5]', 'invalid_format'], // the ligature is not "FF" here
      ['banned_sequences[6]', 'invalid_format'],
    ]);
    expect(res.body.errors[0].message).toContain(SECURITY_CODE_ALPHABET);
    // The format is named in the caller's language.
    const es = await putSettings(church, { banned_sequences: ['AE'] }, 'es');
    expect(es.body.errors).toEqual([
      {
        field: 'banned_sequences[0]',
        issue: 'invalid_format',
        message: expect.stringContaining('caracteres de BCDFGHJKLMNPRSTXZ2456789'),
      },
    ]);
    expect(await getSettings(church)).toEqual(before);
  });

  it('more than 200 sequences is 422 too_many (200 is fine, repeats counted); a non-string or a non-list is 422', async () => {
    const pairs = [...SECURITY_CODE_ALPHABET].flatMap((a) => [...SECURITY_CODE_ALPHABET].map((b) => a + b));
    const tooMany = await putSettings(church, { banned_sequences: pairs.slice(0, 201) });
    expect([tooMany.status, tooMany.body.errors]).toEqual([
      422,
      [{ field: 'banned_sequences', issue: 'too_many', message: expect.any(String) }],
    ]);
    const before = await getSettings(church);
    const most = await putSettings(church, { banned_sequences: [...pairs.slice(0, 199), 'bc'] });
    expect(most.status).toBe(200);
    expect(most.body.banned_sequences).toHaveLength(199);
    expect((await putSettings(church, { banned_sequences: ['PK', 7] })).body.errors.map((e) => e.field)).toEqual([
      'banned_sequences',
    ]);
    expect((await putSettings(church, { banned_sequences: 'PK' })).status).toBe(422);
    expect((await putSettings(church, { banned_sequences: ['PK'], extra: true })).status).toBe(422);
    expect((await putSettings(church, { banned_sequences: before.banned_sequences })).status).toBe(200);
  });

  it('needs admin:* (403 for a staff token, even with write:attendance, and for a kiosk key)', async () => {
    const staff = await newToken(
      api,
      church,
      ['read:members', 'write:members', 'write:attendance', 'read:attendance'],
      'staff',
    );
    for (const token of [staff.token, kiosk]) {
      const get = await api.get<Problem>('/v1/settings/check-in', as(token, church));
      const put = await api.put<Problem>(
        '/v1/settings/check-in',
        as(token, church, { body: { banned_sequences: [] } }),
      );
      expect([get.status, get.body.code, put.status, put.body.code]).toEqual([
        403,
        'scope_insufficient',
        403,
        'scope_insufficient',
      ]);
    }
    // Another church's admin token does not reach this church's settings.
    expect((await api.get<Problem>('/v1/settings/check-in', as(other.token, church))).status).toBe(403);
  });

  it("codes issued at check-in contain none of the church's sequences (nor a built-in one); another church's codes are unaffected", async () => {
    // Every pair starting with B, C, D or F (96 sequences) and two longer ones: a random code then
    // contains one with probability 1 - (20/24)^3, about 42%, so 100 codes drawn without the list
    // would all pass by chance with probability below 10^-23.
    const leading = 'BCDF';
    const banned = [...leading].flatMap((a) => [...SECURITY_CODE_ALPHABET].map((b) => a + b)).concat(['GHJ', 'KLMN']);
    expect(
      (await putSettings(church, { banned_sequences: banned.map((s) => s.toLowerCase()) })).body.banned_sequences,
    ).toEqual(banned);

    const codes = await codesOf(church, kiosk, 100, 'Banned');
    expect(new Set(codes).size).toBe(100);
    const offending = codes.filter(
      (code) => !CODE.test(code) || banned.some((s) => code.includes(s)) || !isAllowedCode(code),
    );
    expect(offending).toEqual([]);
    expect(codes.every((code) => isAllowedCode(code, banned))).toBe(true);
    expect(
      codes.every((code) => !leading.includes(code[0]) && !leading.includes(code[1]) && !leading.includes(code[2])),
    ).toBe(true);

    // The other church (no list of its own) still gets codes with those pairs.
    const theirs = await codesOf(other, other.token, 30, 'Free');
    expect(theirs.every((code) => CODE.test(code) && isAllowedCode(code))).toBe(true);
    expect(theirs.some((code) => banned.some((s) => code.includes(s)))).toBe(true); // all 30 missing them: probability below 10^-7
  });

  it('a list changed later applies to the next check-in', async () => {
    await putSettings(church, { banned_sequences: [] });
    // Without the list, 40 codes avoid every B/C/D/F pair with probability about 0.58^40 (below 10^-9).
    const codes = await codesOf(church, kiosk, 40, 'Cleared');
    expect(codes.some((code) => /[BCDF]/.test(code.slice(0, 3)))).toBe(true);
  });
});
